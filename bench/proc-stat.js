// CPU time of other processes, from /proc (Linux): a serve process, and a PostgreSQL server with its backends.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux). */
export const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/**
 * @typedef {object} ProcStat
 * @property {number} ppid
 * @property {number} cpuMs user + system time of the process (all its threads)
 * @property {number} childrenMs user + system time of the children it has reaped
 */

/**
 * One `/proc/<pid>/stat` line as { ppid, cpu ms, reaped children's cpu ms }. Pure. Fields after "pid (comm) ":
 * state ppid … utime(14) stime(15) cutime(16) cstime(17), 1-based as in proc(5); `comm` may hold spaces and
 * parentheses, so the fields start after its last ")".
 * @param {string} text
 * @param {number} ticksPerSecond
 * @returns {ProcStat}
 */
export function parseProcStat(text, ticksPerSecond) {
  const rest = text
    .slice(text.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  const ms = (/** @type {number} */ ticks) => (ticks * 1000) / ticksPerSecond;
  return {
    ppid: rest[1] ?? 0,
    cpuMs: ms((rest[11] ?? 0) + (rest[12] ?? 0)),
    childrenMs: ms((rest[13] ?? 0) + (rest[14] ?? 0)),
  };
}

/** `/proc/<pid>/stat` of a live process, or undefined when it is gone. @param {number} pid */
export function procStat(pid) {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"), TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) spent so far by PostgreSQL: the postmaster, its live children (backends, background workers),
 * and the children it has reaped (backends that exited). @param {number} postmaster
 */
export function postgresCpuMs(postmaster) {
  let total = 0;
  const main = procStat(postmaster);
  if (main !== undefined) total += main.cpuMs + main.childrenMs;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat?.ppid === postmaster) total += stat.cpuMs;
  }
  return total;
}

/** The postmaster's pid: the parent of a backend. @param {string} url */
export async function postmasterPid(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT pg_backend_pid() AS pid");
    return procStat(Number(rows[0]?.pid))?.ppid ?? 0;
  } finally {
    await client.end();
  }
}
