import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { McpStdioServerConfig } from "../../src/mcp/config.js";

/** The stdio test server (test/support/mcp-server.mjs). */
export const SERVER_SCRIPT = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));

/** A config that runs the test server with `flags`. */
export function testServer(...flags: string[]): McpStdioServerConfig {
  return { command: process.execPath, args: [SERVER_SCRIPT, ...flags] };
}

export { isAlive, waitUntil as waitFor } from "../support/processes.js";

/** The third-party skills server: the official MCP SDK v2 server with its own SEP-2640 implementation. */
export const SKILLS_SERVER = fileURLToPath(new URL("../support/skills-server.mjs", import.meta.url));

/**
 * Real skills written by others (anthropics/skills), served over MCP in place of a vendor's catalog: shared/
 * beside the checkout (as CI has it), else the main checkout's (a git worktree sits one level deeper).
 */
export const CORPUS =
  [
    fileURLToPath(new URL("../../../shared/corpus/anthropics-skills", import.meta.url)),
    fileURLToPath(new URL("../../../../shared/corpus/anthropics-skills", import.meta.url)),
  ].find((dir) => existsSync(dir)) ?? "shared/corpus/anthropics-skills is missing";
