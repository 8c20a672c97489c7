// Agent bench, part (a): a headless 2-turn run through the built CLI (`-p … --output-format json`) against the
// scripted Messages API server, in a project of 0 and of 1,000 skills, versus a bare `node -e 0`.
import { mkdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { startModelServer } from "../dist/dev/model-server.js";
import { writeProject } from "./agent-project.js";
import { cliTimeline, TIMELINE_PHASES } from "./agent-timeline.js";
import { compare, fmtInt, fmtMs, fmtRatio, formatTable, runChild, withTempDir } from "./lib.js";
import { profileChild } from "./profile.js";

/** Target: the 0-skill run over `node -e 0`. */
export const TARGET_CLI_NODE_RATIO = 3;
/** Target: the 1,000-skill run over the 0-skill run. */
export const TARGET_SKILLS_RATIO = 1.15;
/** Skills in the larger project. */
export const CLI_SKILLS = 1_000;
/** Timed runs at least (the brief asks for 10; a few more steady the medians on a busy machine). */
const MIN_RUNS = 15;
/** Extra CLI runs per project for the phase timeline (not in the timed figures). */
const TIMELINE_RUNS = 3;
/** Functions and files listed from a CPU profile. */
const PROFILE_TOP = 12;
/** The bundled skill the model calls (inline, no allowed-tools or shell: auto-allowed headless). */
export const CALLED_SKILL = "skill-author";
const PROMPT = "bench-agent-prompt: help me write a skill";
const API_KEY = "sk-bench-agent";
const FINAL_TEXT = "Skill loaded; here is the plan.";

/** The script: turn 1 calls the skill, turn 2 (after `Launching skill`) answers. Both repeat forever. */
/** @type {import("../dist/dev/model-script.js").ModelScriptInput} */
const SCRIPT = {
  turns: [
    {
      label: "call the skill",
      match: { agentId: null, lastUserTextIncludes: "bench-agent-prompt" },
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: CALLED_SKILL } }] },
      repeat: true,
    },
    {
      label: "answer",
      match: { agentId: null, toolResultIncludes: "Launching skill" },
      response: { content: [{ type: "text", text: FINAL_TEXT }] },
      repeat: true,
    },
  ],
};

/**
 * @typedef {object} CliFigures
 * @property {Record<"node" | "cli0" | "cli1000", import("./lib.js").Stats>} stats
 * @property {number} failed runs whose JSON result was not a success
 * @property {number} nodeRatio 0-skill / node -e 0
 * @property {number} skillsRatio 1,000-skill / 0-skill
 * @property {boolean} met
 * @property {Record<"cli0" | "cli1000", number[]>} timeline median ms per TIMELINE_PHASES entry
 * @property {Record<string, import("./profile.js").ProfileSummary>} [profiles]
 */

/**
 * Runs part (a) and prints its table. Counts (and prints) every run whose output is not a `success` result
 * with the scripted answer after 2 turns; resolves to the figures.
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<CliFigures>}
 */
export function runCliPart(ctx) {
  return withTempDir("skillwright-agent-cli-", async (dir) => {
    const home = join(dir, "home");
    const managed = join(dir, "managed");
    mkdirSync(home);
    mkdirSync(managed);
    const p0 = writeProject(join(dir, "p0"), 0);
    const p1000 = writeProject(join(dir, "p1000"), CLI_SKILLS);
    const server = await startModelServer({ script: SCRIPT, apiKey: API_KEY });
    try {
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: API_KEY,
        SKILLWRIGHT_MANAGED_DIR: managed,
      };
      const bin = join(ctx.repoRoot, "dist", "bin", "main.js"); // the shipped bin (package.json "bin")
      /** @param {string} cwd */
      const cliArgs = (cwd) => [bin, "-p", PROMPT, "--output-format", "json", "--cwd", cwd, "--home", home];
      let failed = 0;
      /** @param {string} label @param {string} cwd */
      const cliRun = async (label, cwd) => {
        const out = await runChild(process.execPath, cliArgs(cwd), { env, capture: "pipe" });
        const problem = resultProblem(out);
        if (problem !== undefined) {
          failed += 1;
          ctx.log(`  FAILED (${label}): ${problem}`);
        }
      };
      const stats = await compare(
        {
          node: () => runChild(process.execPath, ["-e", "0"]),
          cli0: () => cliRun("0 skills", p0),
          cli1000: () => cliRun(`${CLI_SKILLS} skills`, p1000),
        },
        { runs: Math.max(ctx.runs, MIN_RUNS), warmup: Math.max(1, ctx.warmup) },
      );
      const nodeRatio = stats.cli0.median / stats.node.median;
      const skillsRatio = stats.cli1000.median / stats.cli0.median;
      const met = nodeRatio <= TARGET_CLI_NODE_RATIO && skillsRatio <= TARGET_SKILLS_RATIO && failed === 0;
      const mark = (/** @type {boolean} */ ok) => (ok ? "" : " ✗");
      ctx.log(
        `\n${formatTable(
          ["(a) headless 2-turn run (median ms)", "wall ms", "min", "max", "ratio", "target"],
          [
            ["node -e 0", fmtMs(stats.node.median), fmtMs(stats.node.min), fmtMs(stats.node.max), "", ""],
            [
              "skillwright -p, 0 project skills",
              fmtMs(stats.cli0.median),
              fmtMs(stats.cli0.min),
              fmtMs(stats.cli0.max),
              `${fmtRatio(nodeRatio)} node`,
              `≤ ${TARGET_CLI_NODE_RATIO}×${mark(nodeRatio <= TARGET_CLI_NODE_RATIO)}`,
            ],
            [
              `skillwright -p, ${fmtInt(CLI_SKILLS)} project skills`,
              fmtMs(stats.cli1000.median),
              fmtMs(stats.cli1000.min),
              fmtMs(stats.cli1000.max),
              `${fmtRatio(skillsRatio)} 0-skill`,
              `≤ ${TARGET_SKILLS_RATIO}×${mark(skillsRatio <= TARGET_SKILLS_RATIO)}`,
            ],
          ],
        )}`,
      );
      ctx.log(
        `(${stats.cli0.samples.length * 2} CLI runs, ${failed} failed; the model calls the bundled ` +
          `${CALLED_SKILL} skill, then answers; ${server.requests.length} requests served; ` +
          `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs)\n`,
      );
      const timeline = {
        cli0: await cliTimeline({ args: cliArgs(p0), env, server, runs: TIMELINE_RUNS }),
        cli1000: await cliTimeline({ args: cliArgs(p1000), env, server, runs: TIMELINE_RUNS }),
      };
      ctx.log(
        `${formatTable(
          [
            `where the time goes (median of ${TIMELINE_RUNS} runs, ms)`,
            "0 skills",
            `${fmtInt(CLI_SKILLS)} skills`,
          ],
          TIMELINE_PHASES.map((phase, i) => [
            phase,
            fmtMs(timeline.cli0[i] ?? Number.NaN),
            fmtMs(timeline.cli1000[i] ?? Number.NaN),
          ]),
        )}\n`,
      );
      /** @type {CliFigures} */
      const figures = { stats, failed, nodeRatio, skillsRatio, met, timeline };
      if (ctx.profile || !met) {
        figures.profiles = {
          cli0: await profileChild(cliArgs(p0), { env, top: PROFILE_TOP }),
          cli1000: await profileChild(cliArgs(p1000), { env, top: PROFILE_TOP }),
        };
      }
      return figures;
    } finally {
      await server.close();
    }
  });
}

/**
 * Why a CLI run is not the expected success, or undefined when it is.
 * @param {import("./lib.js").ChildResult} out
 * @returns {string | undefined}
 */
function resultProblem(out) {
  if (out.code !== 0) return `exit ${out.code}: ${out.stderr.slice(0, 1_000)} ${out.stdout.slice(0, 1_000)}`;
  /** @type {unknown} */
  let json;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    return `stdout is not JSON: ${out.stdout.slice(0, 500)}`;
  }
  const r = /** @type {{ subtype?: unknown, is_error?: unknown, num_turns?: unknown, result?: unknown }} */ (
    json
  );
  if (r.subtype !== "success" || r.is_error !== false || r.num_turns !== 2 || r.result !== FINAL_TEXT) {
    return `unexpected result: ${out.stdout.slice(0, 1_000)}`;
  }
  return undefined;
}
