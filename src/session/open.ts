import type { Engine } from "../engine/engine.js";
import type { OpenedSession, OpenSessionOptions } from "./open-options.js";

/**
 * Opens a session on an engine: settings and permission rules, settings hooks, agent types, built-in tools
 * (minus `disallowedTools` bare names), the skill view and the transcript store; with `resume`, the stored
 * conversation. Rejects only when `resume` names a session that does not exist.
 *
 * The session machinery (built-in tools, hooks, agent types, zod for tool input) is imported here, on the first
 * call, not when the package is imported: an application that embeds the engine pays for it only if it opens a
 * session.
 */
export async function openSession(engine: Engine, options: OpenSessionOptions): Promise<OpenedSession> {
  const { openSessionNow } = await import("./open-session.js");
  return openSessionNow(engine, options);
}
