import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

/** True while `pid` is a live process; a zombie (exited, not yet reaped) counts as gone. Linux. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).charAt(0);
    return state !== "Z" && state !== "X";
  } catch {
    // It exited between the two checks.
    return false;
  }
}

/** Polls `check` every 25 ms until it is true or `ms` pass; resolves with the last answer. */
export async function waitUntil(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** The pid a test command wrote to `file`, once it is there (0 if it never appears within `ms`). */
export async function waitForPid(file: string, ms = 10_000): Promise<number> {
  let pid = 0;
  await waitUntil(async () => {
    pid = Number.parseInt((await readFile(file, "utf8").catch(() => "")).trim(), 10);
    return Number.isInteger(pid) && pid > 0;
  }, ms);
  return pid;
}
