// Bench section "agent": (a) a headless 2-turn CLI run in projects of 0 and 1,000 skills versus `node -e 0`;
// (b) 8 forked skills called in one assistant message versus the ideal wall time; (c) a background fork's end
// after the turn that started it is aborted, versus aborting one stalled model request.
// Run alone with `node bench/agent.js` after `npm run build`.
import { fileURLToPath, pathToFileURL } from "node:url";
import { runBackgroundPart, TARGET_BACKGROUND_ABORT_RATIO } from "./agent-background.js";
import {
  CLI_SKILLS,
  runCliPart,
  TARGET_CLAUDE_RATIO,
  TARGET_CLI_FLOOR_RATIO,
  TARGET_SKILL_COST_RATIO,
  TARGET_SKILLS_RATIO,
  TARGET_UNCACHED_RATIO,
} from "./agent-cli.js";
import { runForkPart, TARGET_FORK_RATIO } from "./agent-fork.js";
import { DEFAULT_RUNS, DEFAULT_WARMUP, fmtInt, fmtMs, fmtRatio } from "./lib.js";

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
  const background = await runBackgroundPart(ctx);
  return { cli, fork, background, met: cli.met && fork.met && background.met };
}

/**
 * The closing note's lines: the start-up ratios of issue 12.5 and the fork wave, each with its target and verdict.
 * @param {{ cli: import("./agent-cli.js").CliFigures, fork: { ratio: number, met: boolean }, background?: { ratio: number, met: boolean } }} figures
 * @returns {string[]}
 */
export function closing({ cli, fork, background }) {
  const verdict = (/** @type {boolean} */ met) => (met ? "met" : "MISSED");
  const skills = fmtInt(CLI_SKILLS);
  return [
    `headless 2-turn run, 0 skills ${fmtRatio(cli.floorCliRatio)} the SDK floor (target ≤ ${TARGET_CLI_FLOOR_RATIO}×): ${verdict(cli.floorMet)}`,
    `${skills} skills, discovery cache warm ${fmtRatio(cli.skillsRatio)} the 0-skill run (target ≤ ${TARGET_SKILLS_RATIO}×): ${verdict(cli.skillsMet)}`,
    `${skills} skills, discovery cache off ${fmtRatio(cli.uncachedRatio)} the 0-skill run (target ≤ ${TARGET_UNCACHED_RATIO}×): ${verdict(cli.uncachedMet)}`,
    `cost of 0 → ${skills} skills (issue 47): ${fmtRatio(cli.costWall)} wall, ${fmtRatio(cli.costCpu)} CPU (target ≤ ${TARGET_SKILL_COST_RATIO}× both): ${verdict(cli.costMet)}`,
    cli.vsClaude === undefined
      ? `against Claude Code (issue 47): skipped (set CLAUDE_BIN to a Claude Code binary)`
      : `${skills} skills against Claude Code's same run: ${fmtRatio(cli.vsClaude.wall)} wall, ${fmtRatio(cli.vsClaude.cpu)} CPU, ` +
        `${fmtRatio(cli.vsClaude.rss)} peak RSS (target ≤ ${TARGET_CLAUDE_RATIO}× wall and CPU): ${verdict(cli.vsClaude.met)}; ` +
        `Claude Code's own cost of 0 → ${skills} skills ${fmtRatio(cli.vsClaude.claudeCostWall)} wall, ${fmtRatio(cli.vsClaude.claudeCostCpu)} CPU`,
    `(the rows above measured at ${cli.load})`,
    `8 forks in one message ${fmtRatio(fork.ratio)} the ideal wall time (target ≤ ${TARGET_FORK_RATIO}×): ${verdict(fork.met)}`,
    ...(background === undefined
      ? []
      : [
          `background fork ended after its turn's abort ${fmtRatio(background.ratio)} one stalled request's abort (target ≤ ${TARGET_BACKGROUND_ABORT_RATIO}×): ${verdict(background.met)}`,
        ]),
    ...(cli.failed === 0 ? [] : [`${cli.failed} CLI or floor runs failed their output check`]),
  ];
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
