import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { McpStdioServerConfig } from "../../src/mcp/config.js";

/** The stdio test server (test/support/mcp-server.mjs). */
export const SERVER_SCRIPT = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));

/** A config that runs the test server with `flags`. */
export function testServer(...flags: string[]): McpStdioServerConfig {
  return { command: process.execPath, args: [SERVER_SCRIPT, ...flags] };
}

/** True while `pid` is a live process (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** Polls `check` until it is true or `ms` have passed. */
export async function waitFor(check: () => boolean, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
