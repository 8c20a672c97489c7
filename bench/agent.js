// Bench section "agent": (a) a headless 2-turn CLI run in projects of 0 and 1,000 skills versus `node -e 0`;
// (b) 8 forked skills called in one assistant message versus the ideal wall time.
// Run alone with `node bench/agent.js` after `npm run build`.
import { fileURLToPath, pathToFileURL } from "node:url";
import { runCliPart } from "./agent-cli.js";
import { runForkPart } from "./agent-fork.js";
import { DEFAULT_RUNS, DEFAULT_WARMUP, fmtMs } from "./lib.js";

/**
 * Runs both parts and prints their tables (and CPU profiles of the CLI runs when a target is missed or
 * `--profile` is given); resolves to the figures. Rejects when a fork turn goes wrong.
 * @param {import("./lib.js").BenchContext} ctx
 */
export async function run(ctx) {
  ctx.log("## agent\n");
  const cli = await runCliPart(ctx);
  if (cli.profiles !== undefined) {
    for (const [label, profile] of Object.entries(cli.profiles)) ctx.log(profileReport(label, profile));
  }
  const fork = await runForkPart(ctx);
  return { cli, fork, met: cli.met && fork.met };
}

/**
 * A short text report of a CPU profile: categories, then the hottest functions.
 * @param {string} label
 * @param {import("./profile.js").ProfileSummary} profile
 */
function profileReport(label, profile) {
  const pct = (/** @type {number} */ share) => `${(share * 100).toFixed(0)}%`;
  const categories = profile.categories
    .slice(0, 10)
    .map((c) => `${c.label} ${fmtMs(c.ms)} (${pct(c.share)})`)
    .join(", ");
  const functions = profile.functions.map((f) => `    ${fmtMs(f.ms).padStart(6)} ms  ${f.label}`).join("\n");
  return `CPU profile of one ${label} run (${fmtMs(profile.totalMs)} ms sampled): ${categories}\n${functions}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run({
    repoRoot: fileURLToPath(new URL("..", import.meta.url)),
    sizes: [],
    runs: DEFAULT_RUNS,
    warmup: DEFAULT_WARMUP,
    profile: process.argv.includes("--profile"),
    log: (text) => process.stdout.write(`${text}\n`),
  });
}
