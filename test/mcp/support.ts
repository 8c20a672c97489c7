import { fileURLToPath } from "node:url";
import type { McpStdioServerConfig } from "../../src/mcp/config.js";

/** The stdio test server (test/support/mcp-server.mjs). */
export const SERVER_SCRIPT = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));

/** A config that runs the test server with `flags`. */
export function testServer(...flags: string[]): McpStdioServerConfig {
  return { command: process.execPath, args: [SERVER_SCRIPT, ...flags] };
}

export { isAlive, waitUntil as waitFor } from "../support/processes.js";
