import { resolve } from "node:path";
import { loadScript } from "../dev/model-script.js";
import { type ModelServer, startModelServer } from "../dev/model-server.js";
import { createNodeFs } from "../io/fs.js";
import type { CliIo } from "./io.js";

/**
 * Starts the scripted Messages API server on `script` (a path from the cwd), on `port` (default: a free one).
 * A script that cannot be read or is invalid is told on stderr (naming the file and each problem) and gives
 * undefined: callers exit 2.
 */
export async function startScriptedModel(
  io: CliIo,
  script: string,
  port?: number,
): Promise<ModelServer | undefined> {
  let turns: Awaited<ReturnType<typeof loadScript>>;
  try {
    turns = await loadScript(resolve(io.cwd, script), createNodeFs());
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
  return startModelServer({ script: turns, ...(port === undefined ? {} : { port }) });
}
