// Bench section "cache": replays a scripted 20-request session (inline and forked skills, a conditional skill
// activating, a listing delta, a model switch, one compaction) and computes from the recorded request bodies how
// much of each request's input the API would serve from its prompt cache (bench/cache-prefix.js). No timing.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createModelClient } from "../dist/agent/model-client.js";
import { AGENT_ID_HEADER } from "../dist/agent/model-types.js";
import { startModelServer } from "../dist/dev/model-server.js";
import { createEngine } from "../dist/engine/engine.js";
import { openSession } from "../dist/session/open.js";
import { writeProject } from "./agent-project.js";
import { requestUnits, servedFromCache } from "./cache-prefix.js";
import { fmtInt, formatTable, withTempDir } from "./lib.js";

/** Target: share of input chars served from cache, over every request after the first (per thread). */
export const TARGET_CACHE_SHARE = 0.97;
/** Requests the session makes (main and forks). */
export const SESSION_REQUESTS = 20;
/** Project skills beside the scripted ones, so the listing has a realistic size. */
const OTHER_SKILLS = 40;
const API_KEY = "sk-bench-cache";

const skillMd = (/** @type {string} */ head, /** @type {string} */ body) => `---\n${head}\n---\n${body}\n`;
const SKILLS = {
  alpha: skillMd("description: Alpha checklist for releases", "ALPHA steps for $ARGUMENTS"),
  beta: skillMd("description: Beta review on a smaller model\nmodel: haiku", "BETA review of $ARGUMENTS"),
  "fork-a": skillMd("description: Forked audit A\ncontext: fork", "FORK-TASK A: audit and report."),
  "fork-b": skillMd("description: Forked audit B\ncontext: fork", "FORK-TASK B: audit and report."),
  "sql-helper": skillMd('description: SQL conventions\npaths: "**/*.sql"', "SQL rules"),
};

/**
 * @param {string} text
 * @param {import("../dist/dev/model-script.js").ScriptTurnInput["match"]} [match]
 * @returns {import("../dist/dev/model-script.js").ScriptTurnInput}
 */
const text = (text, match = { agentId: null }) => ({
  match,
  response: { content: [{ type: "text", text }] },
});
/**
 * @param {string} name
 * @param {Record<string, unknown>} input
 * @returns {import("../dist/dev/model-script.js").ScriptTurnInput}
 */
const tool = (name, input) => ({
  match: { agentId: null },
  response: { content: [{ type: "tool_use", name, input }] },
});
const FORK_ANSWER = text("Fork audit: all clear.", { agentId: "*" });

/**
 * The prompts of the session, each with the script turns it consumes, in order.
 * @param {string} schema the .sql file the Read tool opens (activates sql-helper)
 * @returns {{ prompt: string, turns: import("../dist/dev/model-script.js").ScriptTurnInput[] }[]}
 */
function session(schema) {
  return [
    {
      prompt: "Release prep: use alpha",
      turns: [tool("Skill", { skill: "alpha", args: "v2" }), text("Alpha done.")],
    },
    {
      prompt: "Audit with fork-a",
      turns: [tool("Skill", { skill: "fork-a" }), FORK_ANSWER, text("Audit A done.")],
    },
    {
      prompt: "Look at the schema",
      turns: [tool("Read", { path: schema }), tool("Skill", { skill: "sql-helper" }), text("Schema read.")],
    },
    {
      prompt: "Audit with fork-b",
      turns: [tool("Skill", { skill: "fork-b" }), FORK_ANSWER, text("Audit B done.")],
    },
    {
      prompt: "Review with beta",
      turns: [tool("Skill", { skill: "beta", args: "pr-7" }), text("Beta done.")],
    },
    {
      prompt: "/compact",
      turns: [text("SUMMARY: alpha, audits A and B, schema, beta review.", { systemIncludes: "summarize" })],
    },
    { prompt: "What is left?", turns: [text("Nothing.")] },
    {
      prompt: "Alpha again",
      turns: [tool("Skill", { skill: "alpha", args: "v3" }), text("Alpha again done.")],
    },
    {
      prompt: "Audit with fork-a again",
      turns: [tool("Skill", { skill: "fork-a" }), FORK_ANSWER, text("Done.")],
    },
  ];
}

/**
 * @typedef {object} CacheRow
 * @property {number} index 1-based, in arrival order
 * @property {string} thread `main` or the fork's agent id
 * @property {string} model
 * @property {number} chars
 * @property {number} served
 * @property {string} why
 */

/**
 * @typedef {object} CacheFigures
 * @property {CacheRow[]} rows
 * @property {{ served: number, chars: number, share: number, met: boolean }} main after the first request
 * @property {{ served: number, chars: number, share: number, met: boolean }} forks after the first fork request
 * @property {{ served: number, chars: number, share: number, met: boolean }} mainOneModel after the first request,
 *   without the requests sent with another model than the first (an inline skill's `model:`, SPEC §1: "model for
 *   the rest of the turn"; the API keeps one cache per model, so such a request can only be served from an
 *   earlier request with the same model, and this session has none)
 */

/** Why a request with a skill's own model misses, and why the summary request does: the closing note says it. */
const MODEL_SWITCH_NOTE =
  "an inline skill's `model:` applies to the rest of the turn (SPEC §1) and the API caches per model, so the " +
  "switched request can only be served from an earlier request on that model: not fixable without ignoring `model:`";
const SUMMARY_NOTE =
  "the compaction summary request has its own system prompt and no tools and sends a rendered, clipped " +
  "transcript (about a sixth of the chars the full conversation would be): a miss by design";

/**
 * Replays the session, checks it went as scripted, prints one row per request and the two shares.
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<CacheFigures>}
 */
export async function run(ctx) {
  ctx.log("## cache (prompt-cache reuse from recorded request bodies)\n");
  const figures = await replay();
  ctx.log(
    formatTable(
      ["#", "thread", "model", "chars", "cached", "share", "what ends the cached prefix"],
      figures.rows.map((r) => [
        String(r.index),
        r.thread,
        r.model,
        fmtInt(r.chars),
        fmtInt(r.served),
        pct(r.served / r.chars),
        r.why,
      ]),
    ),
  );
  ctx.log(
    `\n${formatTable(
      ["cache share (chars of request JSON)", "cached / input", "share", "target"],
      [
        ["main thread, requests 2..", ...shareCells(figures.main)],
        ["forks, every fork request but the first", ...shareCells(figures.forks)],
        ["main thread without the model switch", ...shareCells(figures.mainOneModel)],
      ],
    )}\n`,
  );
  ctx.log(`model switch: ${MODEL_SWITCH_NOTE}\nsummary request: ${SUMMARY_NOTE}\n`);
  return figures;
}

/** @param {number} x */
const pct = (x) => `${(x * 100).toFixed(1)}%`;
/** @param {{ served: number, chars: number, share: number, met: boolean }} s */
const shareCells = (s) => [
  `${fmtInt(s.served)} / ${fmtInt(s.chars)}`,
  pct(s.share),
  `≥ ${pct(TARGET_CACHE_SHARE)}${s.met ? " met" : " ✗ MISSED"}`,
];

/**
 * Runs the scripted session once and computes the cache figures. Rejects when the session does not make the
 * scripted requests.
 * @returns {Promise<CacheFigures>}
 */
export async function replay() {
  return figuresOf(await recordSession());
}

/**
 * Runs the scripted session once and returns its requests (thread and body) in arrival order.
 * @returns {Promise<{ thread: string, body: unknown }[]>}
 */
export function recordSession() {
  return withTempDir("skillwright-cache-", async (dir) => {
    const home = join(dir, "home");
    const managed = join(dir, "managed");
    mkdirSync(home);
    mkdirSync(managed);
    const project = writeProject(join(dir, "project"), OTHER_SKILLS, SKILLS);
    mkdirSync(join(project, "db"));
    const schema = join(project, "db", "schema.sql");
    writeFileSync(schema, "create table t (id int);\n");
    const steps = session(schema);
    const server = await startModelServer({
      script: { turns: steps.flatMap((s) => s.turns) },
      apiKey: API_KEY,
    });
    const engine = createEngine({ cwd: project, home, env: { SKILLWRIGHT_MANAGED_DIR: managed } });
    try {
      const client = createModelClient({ apiKey: API_KEY, baseURL: server.url });
      const { session: live } = await openSession(engine, {
        client,
        allowedTools: ["Skill", "Read"],
        now: () => 0,
      });
      for (const step of steps) {
        for await (const event of live.send(step.prompt)) {
          if (event.type === "done" && event.agentId === undefined && event.result.cause !== "end_turn") {
            throw new Error(`cache session: "${step.prompt}" ended with ${JSON.stringify(event.result)}`);
          }
        }
      }
      await live.close();
      const requests = server.requests.filter((r) => r.path === "/v1/messages");
      if (requests.length !== SESSION_REQUESTS || server.remainingTurns().length > 0) {
        throw new Error(`cache session made ${requests.length} requests, expected ${SESSION_REQUESTS}`);
      }
      return requests.map((r) => ({ thread: r.headers[AGENT_ID_HEADER] ?? "main", body: r.body }));
    } finally {
      await engine.close();
      await server.close();
    }
  });
}

/**
 * The cache figures of recorded requests (pure).
 * @param {{ thread: string, body: unknown }[]} requests in arrival order
 * @returns {CacheFigures}
 */
export function figuresOf(requests) {
  /** @type {import("./cache-prefix.js").Units[]} */
  const earlier = [];
  /** @type {CacheRow[]} */
  const rows = [];
  for (const [i, request] of requests.entries()) {
    const units = requestUnits(request.body);
    const served = servedFromCache(units, earlier);
    earlier.push(units);
    rows.push({
      index: i + 1,
      thread: request.thread === "main" ? "main" : `fork ${request.thread.split("-").slice(0, 2).join("-")}`,
      model: units.model,
      chars: units.chars,
      served: served.chars,
      why: served.chars === units.chars ? "" : served.why,
    });
  }
  const share = (/** @type {CacheRow[]} */ list) => {
    const served = list.reduce((sum, r) => sum + r.served, 0);
    const chars = list.reduce((sum, r) => sum + r.chars, 0);
    const s = chars === 0 ? 1 : served / chars;
    return { served, chars, share: s, met: s >= TARGET_CACHE_SHARE };
  };
  const main = rows.filter((r) => r.thread === "main");
  const forks = rows.filter((r) => r.thread !== "main");
  const firstModel = main[0]?.model;
  return {
    rows,
    main: share(main.slice(1)),
    forks: share(forks.slice(1)),
    mainOneModel: share(main.slice(1).filter((r) => r.model === firstModel)),
  };
}

/**
 * The closing note's lines: both shares with their verdicts.
 * @param {CacheFigures} figures
 * @returns {string[]}
 */
export function closing(figures) {
  const line = (/** @type {string} */ label, /** @type {CacheFigures["main"]} */ s) =>
    `${label} ${pct(s.share)} of input chars served from cache (target ≥ ${pct(TARGET_CACHE_SHARE)}): ${s.met ? "met" : "MISSED"}`;
  const breakers = figures.rows.filter((r) => r.index > 1 && r.served / r.chars < 0.9);
  return [
    line("main thread", figures.main),
    line("forks", figures.forks),
    line("main thread without the model-switched request", figures.mainOneModel),
    `model switch: ${MODEL_SWITCH_NOTE}`,
    ...breakers.map((r) => `request #${r.index} (${r.thread}) ${pct(r.served / r.chars)}: ${r.why}`),
  ];
}
