// Where the wall time of one headless CLI run goes, from the CLI's own `--debug-file` timestamps and the
// scripted server's request log (both on the wall clock, so they line up with the spawn time).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { median, runChild, withTempDir } from "./lib.js";

/** The phases of one run, each ending at a mark, in order. */
export const TIMELINE_PHASES = /** @type {const} */ ([
  "spawn → session open + discovery logged (node start, module graph, engine, session)",
  "→ first request_start",
  "→ first request reaches the server (Anthropic SDK import, HTTP client set-up, request)",
  "→ turn done (both responses, the Skill call, the second request)",
  "→ process exit (result printed, exit)",
]);

/**
 * Median duration of each phase (ms) over `runs` CLI runs of `args` (which must not hold `--debug-file`),
 * against `server` (whose `requests` log is read). Rejects when a run exits non-zero or logs no turn.
 * @param {{ args: string[], env: NodeJS.ProcessEnv, server: { requests: { time: number }[] }, runs: number }} options
 * @returns {Promise<number[]>} one figure per TIMELINE_PHASES entry
 */
export function cliTimeline({ args, env, server, runs }) {
  return withTempDir("skillwright-timeline-", async (dir) => {
    /** @type {number[][]} */
    const phases = TIMELINE_PHASES.map(() => []);
    for (let i = 0; i < runs; i++) {
      const debugFile = join(dir, `debug-${i}.jsonl`);
      const firstRequest = server.requests.length;
      const spawnedAt = Date.now();
      const out = await runChild(process.execPath, [...args, "--debug-file", debugFile], { env });
      const exitedAt = Date.now();
      if (out.code !== 0)
        throw new Error(`timeline run exited with ${out.code}: ${out.stderr.slice(0, 1_000)}`);
      /** @type {{ at: string, kind: string, event?: { type?: string, agentId?: string } }[]} */
      const records = (await readFile(debugFile, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      const at = (/** @type {(r: (typeof records)[number]) => boolean} */ pick) => {
        const record = records.find(pick);
        if (record === undefined) throw new Error("timeline: a debug record is missing");
        return Date.parse(record.at);
      };
      const marks = [
        spawnedAt,
        at((r) => r.kind === "discovery"),
        at((r) => r.event?.type === "request_start"),
        server.requests[firstRequest]?.time ?? Number.NaN,
        at((r) => r.event?.type === "done" && r.event.agentId === undefined),
        exitedAt,
      ];
      for (let p = 0; p < TIMELINE_PHASES.length; p++) {
        phases[p]?.push((marks[p + 1] ?? Number.NaN) - (marks[p] ?? Number.NaN));
      }
    }
    return phases.map((samples) => median(samples));
  });
}
