// Bench section "import": what `import("skillwright")` (dist/index.js, the package's public entry) costs an
// application that embeds the engine (a web service, a serverless function's cold start), against
// `import("@anthropic-ai/sdk")` (the client library such an application already loads: the floor it accepts)
// and `node -e 0`. Each row is a child process (the bench's one child env), timed interleaved; each child also
// reports its own CPU time (user + system, every thread), which stays put on a busy machine far better than wall.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compare, fmtMs, fmtRatio, formatTable, median, runChild } from "./lib.js";

/**
 * Target: importing skillwright costs at most half the SDK's import, in CPU time. Before the entry deferred zod,
 * the tools and the session parts (session 7) it cost 1.26× the SDK (~200 vs ~159 ms CPU); zod alone back on
 * the import path adds ~50 ms (~0.3× the SDK), so 0.5× catches that and any similar regression.
 */
const TARGET = 0.5;

/**
 * @typedef {object} ImportFigures
 * @property {Record<"skillwright" | "sdk" | "node", import("./lib.js").Stats>} wall
 * @property {Record<"skillwright" | "sdk" | "node", number>} cpu median CPU ms of each child, as it reports it
 * @property {number} ratio skillwright / SDK, CPU
 */

/**
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<ImportFigures>}
 */
export async function run(ctx) {
  ctx.log('## import (`import("skillwright")` for an embedding application)\n');
  const report = "const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system));";
  const scripts = {
    skillwright: `await import(${JSON.stringify(pathToFileURL(join(ctx.repoRoot, "dist", "index.js")).href)}); ${report}`,
    sdk: `await import("@anthropic-ai/sdk"); ${report}`,
    node: report,
  };
  /** @type {Record<keyof typeof scripts, number[]>} */
  const cpu = { skillwright: [], sdk: [], node: [] };
  const child = async (/** @type {keyof typeof scripts} */ name) => {
    const out = await runChild(process.execPath, ["--input-type=module", "-e", scripts[name]], {
      capture: "pipe",
      cwd: ctx.repoRoot,
    });
    if (out.code !== 0) throw new Error(`import: the ${name} child failed: ${out.stderr}`);
    cpu[name].push(Number(out.stdout) / 1000);
  };
  const runs = Math.max(ctx.runs, 15);
  const wall = await compare(
    { skillwright: () => child("skillwright"), sdk: () => child("sdk"), node: () => child("node") },
    { runs, warmup: ctx.warmup },
  );
  // compare() ran `warmup` untimed rounds first: their CPU samples are dropped here too.
  const timed = (/** @type {keyof typeof scripts} */ name) => median(cpu[name].slice(ctx.warmup));
  const figures = {
    wall,
    cpu: { skillwright: timed("skillwright"), sdk: timed("sdk"), node: timed("node") },
    ratio: 0,
  };
  figures.ratio = figures.cpu.skillwright / figures.cpu.sdk;
  ctx.log(
    formatTable(
      ["row (median ms, one child process each)", "CPU", "wall", "CPU / SDK", "target"],
      [
        [
          'import("skillwright") (dist/index.js)',
          fmtMs(figures.cpu.skillwright),
          fmtMs(wall.skillwright.median),
          fmtRatio(figures.ratio),
          `≤ ${fmtRatio(TARGET)} ${figures.ratio <= TARGET ? "met" : "✗"}`,
        ],
        ['import("@anthropic-ai/sdk")', fmtMs(figures.cpu.sdk), fmtMs(wall.sdk.median), fmtRatio(1), ""],
        [
          "node -e 0",
          fmtMs(figures.cpu.node),
          fmtMs(wall.node.median),
          fmtRatio(figures.cpu.node / figures.cpu.sdk),
          "",
        ],
      ],
    ),
  );
  ctx.log(`(${runs} interleaved rounds; CPU as each child reports it at the end, start-up included)\n`);
  return figures;
}

/**
 * The closing note's line: the CPU ratio to the SDK's import and its verdict.
 * @param {ImportFigures} figures
 * @returns {string[]}
 */
export function closing(figures) {
  return [
    `import("skillwright") ${fmtMs(figures.cpu.skillwright)} ms CPU, ${fmtRatio(figures.ratio)} the SDK's import ` +
      `(target ≤ ${fmtRatio(TARGET)}): ${figures.ratio <= TARGET ? "met" : "✗"}`,
  ];
}
