import { execFileSync } from "node:child_process";
import { SESSION_SANDBOX_PATH } from "../../src/sandbox/os-session-sandbox.js";

/**
 * Why `serve --sandbox os` tests cannot run on this machine, or undefined when they can: serve needs bubblewrap
 * and socat on the test's `PATH`, and the tests' scripts import PyYAML from a python3 on the `PATH` os-tier
 * commands get ({@link SESSION_SANDBOX_PATH}).
 */
export function osTierMissing(): string | undefined {
  const has = (command: string, path: string) => {
    try {
      execFileSync("sh", ["-c", command], { env: { PATH: path }, stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  if (!has("command -v bwrap", process.env.PATH ?? "")) return "bubblewrap (bwrap) is not on PATH";
  if (!has("command -v socat", process.env.PATH ?? "")) return "socat is not on PATH";
  if (!has("python3 -c 'import yaml'", SESSION_SANDBOX_PATH))
    return `no python3 with PyYAML on ${SESSION_SANDBOX_PATH}`;
  return undefined;
}
