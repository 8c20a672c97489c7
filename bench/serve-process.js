// One `serve` process for the serve benches: the shipped bin (or another build's), on a free port.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * @typedef {object} ServeProcess
 * @property {string} url
 * @property {number} pid
 * @property {() => number} rssBytes the process's resident set now
 * @property {() => Promise<unknown>} stop SIGTERM, resolved on exit
 */

/**
 * Starts `node [nodeArgs] BIN serve --port 0 --db DB --api-key KEY` with PATH plus `env` only, and resolves once
 * it prints its URL; `onOutput` sees every stdout chunk (e.g. `--trace-gc` lines). SERVE_BENCH_CPU_PROF=dir: the
 * process writes a V8 CPU profile there when it stops.
 * @param {{ bin: string, db: string, apiKey: string, env?: Record<string, string>, nodeArgs?: string[], onOutput?: (text: string) => void }} options
 * @returns {Promise<ServeProcess>}
 */
export async function startServe({ bin, db, apiKey, env = {}, nodeArgs = [], onOutput }) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.SERVE_BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVE_BENCH_CPU_PROF}`]
        : []),
      ...nodeArgs,
      bin,
      "serve",
      "--port",
      "0",
      "--db",
      db,
      "--api-key",
      apiKey,
    ],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdio: ["ignore", "pipe", "ignore"] },
  );
  let out = "";
  const url = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      const text = chunk.toString();
      onOutput?.(text);
      if (out.length < 10_000) out += text;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  return {
    url: String(url),
    pid: child.pid ?? 0,
    rssBytes: () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}
