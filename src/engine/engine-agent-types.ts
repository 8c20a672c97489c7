import { discoverAgentTypes } from "../agent-types/discover-agents.js";
import type { Engine } from "./engine.js";

/**
 * The agent types the engine's sessions can fork into, and what is wrong with their files: built-in, the
 * environment's, the user's, the project's (granting modes only once approved) and the plugins'. What a
 * session's snapshot and `doctor` read.
 */
export function engineAgentTypes(
  engine: Engine,
  where: Pick<Awaited<ReturnType<Engine["roots"]>>, "roots" | "environment">,
  extensions: Awaited<ReturnType<Engine["extensions"]>>,
): ReturnType<typeof discoverAgentTypes> {
  return discoverAgentTypes({
    fs: engine.fs,
    home: engine.home,
    roots: where.roots,
    plugins: extensions.plugins,
    ...(where.environment === undefined ? {} : { environmentDir: where.environment.dir }),
    projectGrantsApproved: extensions.permissions.approvedBy !== undefined,
  });
}
