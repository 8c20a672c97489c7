// Sandbox bench: the simulated tier (just-bash in a worker thread, over an in-memory file system) against the same
// commands on the host (bash through createNodeShell): the first command of a new sandbox (cold, the worker's
// start included), a 1,000-line text pipeline, and python3's start (its own row: CPython in WebAssembly).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fmtMs, fmtRatio, formatTable, median } from "./lib.js";

/** The pipeline: 1,000 lines through sort, uniq -c, awk and wc. */
export const PIPELINE = "seq 1 1000 | sort -r | uniq -c | awk '{ print $2 }' | sort -n | wc -l";
/** Target of the issue: the pipeline in the sandbox over the same on the host. */
export const TARGETS = { pipelineRatio: 3 };
/** Cold starts measured (each starts a worker: fewer than the default runs). */
export const COLD_RUNS = 5;

/**
 * @param {() => Promise<unknown>} fn
 * @returns {Promise<number>}
 */
async function time(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const { createMemoryFs, createNodeShell, createSimulatedSandbox } = await import(
    join(ctx.repoRoot, "dist/index.js")
  );
  const dir = await mkdtemp(join(tmpdir(), "sw-bench-sandbox-"));
  const host = createNodeShell();
  const files = () => createMemoryFs({ "/workspace/.keep": "" });
  const onHost = (/** @type {string} */ command) => async () => {
    const result = await host.run(command, { cwd: dir });
    if (result.exitCode !== 0) throw new Error(`host: ${command}: ${result.stderr}`);
  };
  /** @type {Record<"cold" | "pipeline" | "python", { sandbox: number[]; host: number[] }>} */
  const rows = {
    cold: { sandbox: [], host: [] },
    pipeline: { sandbox: [], host: [] },
    python: { sandbox: [], host: [] },
  };
  try {
    for (let n = 0; n < COLD_RUNS; n++) {
      rows.cold.sandbox.push(
        await time(async () => {
          const sandbox = createSimulatedSandbox({ fs: files() });
          const result = await sandbox.shell.run("echo ready", { cwd: "/workspace" });
          await sandbox.close();
          if (result.stdout !== "ready\n") throw new Error(`sandbox: ${result.stderr}`);
        }),
      );
      rows.cold.host.push(await time(onHost("echo ready")));
    }
    const sandbox = createSimulatedSandbox({ fs: files() });
    const inSandbox = (/** @type {string} */ command, /** @type {string} */ expected) => async () => {
      const result = await sandbox.shell.run(command, { cwd: "/workspace" });
      if (result.stdout !== expected) throw new Error(`sandbox: ${command}: ${result.stderr}`);
    };
    for (let n = 0; n < ctx.warmup + ctx.runs; n++) {
      const s = await time(inSandbox(PIPELINE, "1000\n"));
      const h = await time(onHost(PIPELINE));
      const ps = await time(inSandbox("python3 -c 'print(1)'", "1\n"));
      const ph = await time(onHost("python3 -c 'print(1)'"));
      if (n < ctx.warmup) continue;
      rows.pipeline.sandbox.push(s);
      rows.pipeline.host.push(h);
      rows.python.sandbox.push(ps);
      rows.python.host.push(ph);
    }
    await sandbox.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const figures = Object.fromEntries(
    Object.entries(rows).map(([name, { sandbox, host }]) => {
      const s = median(sandbox);
      const h = median(host);
      return [name, { sandbox: s, host: h, ratio: s / h, runs: sandbox.length }];
    }),
  );
  const labels = {
    cold: "first command of a new sandbox (cold: worker start) vs bash -c",
    pipeline: "1,000-line pipeline (seq | sort | uniq -c | awk | sort | wc)",
    python: "python3 -c 'print(1)' (start)",
  };
  ctx.log("sandbox: the simulated tier (just-bash in a worker, in-memory files) vs the host's bash, medians");
  ctx.log(
    formatTable(
      ["command", "runs", "sandbox", "host", "ratio", "target"],
      Object.entries(figures).map(([name, f]) => [
        labels[/** @type {keyof typeof labels} */ (name)],
        String(f.runs),
        fmtMs(f.sandbox),
        fmtMs(f.host),
        fmtRatio(f.ratio),
        name === "pipeline" ? `≤ ${TARGETS.pipelineRatio}×` : "as measured",
      ]),
    ),
  );
  return figures;
}

/**
 * The closing lines: the pipeline against its target; the cold start and python3 as measured.
 * @param {Record<string, { sandbox: number; host: number; ratio: number }>} figures
 */
export function closing(figures) {
  const p = figures.pipeline;
  const c = figures.cold;
  const py = figures.python;
  return [
    `1,000-line pipeline ${fmtMs(p?.sandbox ?? 0)} ms in the sandbox vs ${fmtMs(p?.host ?? 0)} ms on the host: ${fmtRatio(p?.ratio ?? 0)} (target ≤ ${TARGETS.pipelineRatio}×: ${(p?.ratio ?? Infinity) <= TARGETS.pipelineRatio ? "met" : "missed"})`,
    `first sandboxed command ${fmtMs(c?.sandbox ?? 0)} ms (host ${fmtMs(c?.host ?? 0)} ms); python3 start ${fmtMs(py?.sandbox ?? 0)} ms (host ${fmtMs(py?.host ?? 0)} ms)`,
  ];
}
