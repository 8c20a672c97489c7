// Bench section "skill-context": expiring skill context (issue 31 item 1). Replays one scripted 16-turn session
// that invokes three 20 KB skills (one of them twice) in its first 8 turns, twice: without expiry (the floor:
// what the session sends today) and with `skillContext: { expireAfterUserTurns: 1 }`. From the recorded request
// bodies: the message chars sent, the chars saved, the prefix breaks (bench/cache-prefix.js), the chars the
// prompt cache would not serve, and the input weighted as the API prices it. No timing.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createModelClient } from "../dist/agent/model-client.js";
import { startModelServer } from "../dist/dev/model-server.js";
import { createEngine } from "../dist/engine/engine.js";
import { openSession } from "../dist/session/open.js";
import { writeProject } from "./agent-project.js";
import { messageChars, prefixBreaks, requestUnits, servedFromCache } from "./cache-prefix.js";
import { fmtInt, formatTable, withTempDir } from "./lib.js";

const API_KEY = "sk-bench-skill-context";
/** Chars of each skill's body. */
export const SKILL_BODY_CHARS = 20_000;
/** Project skills beside the scripted ones, so the listing has a realistic size. */
const OTHER_SKILLS = 40;
/** What the API charges for input written to the cache (5-minute entries) and read from it, × the base price. */
export const CACHE_WRITE_PRICE = 1.25;
export const CACHE_READ_PRICE = 0.1;
/** The TTL of the measured run. */
export const EXPIRE_AFTER_USER_TURNS = 1;

const line = "Check each item against the plan, record what differs and why, then go on to the next.\n";
const body = (/** @type {string} */ name) =>
  `${name.toUpperCase()}-START\n${line.repeat(Math.ceil(SKILL_BODY_CHARS / line.length))}`;
const SKILLS = Object.fromEntries(
  ["release", "review", "migrate"].map((name) => [
    name,
    `---\ndescription: The ${name} checklist\n---\n${body(name)}`,
  ]),
);

/**
 * @param {string} text
 * @returns {import("../dist/dev/model-script.js").ScriptTurnInput}
 */
const text = (text) => ({ response: { content: [{ type: "text", text }] } });
/**
 * @param {string} skill
 * @returns {import("../dist/dev/model-script.js").ScriptTurnInput}
 */
const invoke = (skill) => ({
  response: { content: [{ type: "tool_use", name: "Skill", input: { skill } }] },
});

/** The prompts, each with the script turns it consumes. */
const SESSION = [
  { prompt: "Prepare the release", turns: [invoke("release"), text("Release checklist loaded.")] },
  { prompt: "Review the open changes", turns: [invoke("review"), text("Reviewed.")] },
  { prompt: "Anything else for the release?", turns: [text("No.")] },
  { prompt: "Migrate the database", turns: [invoke("migrate"), text("Migrated.")] },
  { prompt: "Summarise the day", turns: [text("Done three things.")] },
  { prompt: "Release again", turns: [invoke("release"), text("Released again.")] },
  { prompt: "What is left?", turns: [text("Nothing.")] },
  { prompt: "Thanks", turns: [text("You are welcome.")] },
  // Eight more short turns: a break costs once, a stub saves on every later request.
  ...Array.from({ length: 8 }, (_, i) => ({
    prompt: `Small question ${i + 1}`,
    turns: [text(`Answer ${i + 1}.`)],
  })),
];

/**
 * @typedef {object} RunFigures
 * @property {number} requests
 * @property {number} chars message chars sent over all requests
 * @property {number} total chars of whole requests (tools, system, messages)
 * @property {number} uncached chars of whole requests the prompt cache would not serve
 * @property {number} weighted input priced as the API does: uncached × CACHE_WRITE_PRICE + cached × CACHE_READ_PRICE
 * @property {number[]} breaks 1-based request indexes that are prefix breaks
 * @property {number} stubs stubs in the last request
 */

/**
 * @typedef {object} SkillContextFigures
 * @property {RunFigures} floor without expiry
 * @property {RunFigures} expiring with `expireAfterUserTurns: 1`
 * @property {number} saved message chars the expiring run did not send
 * @property {number} expiries turns at whose start something expired (each may break the prefix once)
 */

/**
 * Runs the session once with the given skill-context options and returns its main request bodies.
 * @param {{ expireAfterUserTurns?: number } | undefined} skillContext
 * @returns {Promise<unknown[]>}
 */
function record(skillContext) {
  return withTempDir("skillwright-skill-context-", async (dir) => {
    const home = join(dir, "home");
    const managed = join(dir, "managed");
    mkdirSync(home);
    mkdirSync(managed);
    const project = writeProject(join(dir, "project"), OTHER_SKILLS, SKILLS);
    const server = await startModelServer({
      script: { turns: SESSION.flatMap((s) => s.turns) },
      apiKey: API_KEY,
    });
    const engine = createEngine({ cwd: project, home, env: { SKILLWRIGHT_MANAGED_DIR: managed } });
    try {
      const client = createModelClient({ apiKey: API_KEY, baseURL: server.url });
      const { session } = await openSession(engine, {
        client,
        allowedTools: ["Skill"],
        now: () => 0,
        ...(skillContext === undefined ? {} : { skillContext }),
      });
      for (const step of SESSION) {
        for await (const event of session.send(step.prompt)) {
          if (event.type === "done" && event.agentId === undefined && event.result.cause !== "end_turn") {
            throw new Error(
              `skill-context session: "${step.prompt}" ended with ${JSON.stringify(event.result)}`,
            );
          }
        }
      }
      await session.close();
      if (server.remainingTurns().length > 0)
        throw new Error("skill-context session left script turns unused");
      return server.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body);
    } finally {
      await engine.close();
      await server.close();
    }
  });
}

/**
 * The figures of one run's bodies (pure).
 * @param {unknown[]} bodies
 * @returns {RunFigures}
 */
export function runFigures(bodies) {
  /** @type {import("./cache-prefix.js").Units[]} */
  const earlier = [];
  let uncached = 0;
  let total = 0;
  for (const b of bodies) {
    const units = requestUnits(b);
    total += units.chars;
    uncached += units.chars - servedFromCache(units, earlier).chars;
    earlier.push(units);
  }
  const last = JSON.stringify(bodies.at(-1) ?? {});
  return {
    requests: bodies.length,
    chars: messageChars(bodies),
    total,
    uncached,
    weighted: Math.round(uncached * CACHE_WRITE_PRICE + (total - uncached) * CACHE_READ_PRICE),
    breaks: prefixBreaks(bodies),
    stubs: last.split("was used earlier; call it again").length - 1,
  };
}

/**
 * Replays both runs and computes the figures. Rejects when a run does not go as scripted, or when the
 * expiring run breaks the prefix more often than it has turns with expiries.
 * @returns {Promise<SkillContextFigures>}
 */
export async function replay() {
  const floor = runFigures(await record(undefined));
  const expiring = runFigures(await record({ expireAfterUserTurns: EXPIRE_AFTER_USER_TURNS }));
  if (floor.breaks.length > 0)
    throw new Error(`the floor run breaks its prefix at ${floor.breaks.join(", ")}`);
  // release (turn 1) expires at turn 3, review (2) at 4, migrate (4) at 6, release again (6) at 8.
  const expiries = 4;
  if (expiring.breaks.length > expiries) {
    throw new Error(`${expiring.breaks.length} prefix breaks for ${expiries} turns with expiries`);
  }
  return { floor, expiring, saved: floor.chars - expiring.chars, expiries };
}

/**
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<SkillContextFigures>}
 */
export async function run(ctx) {
  ctx.log("## skill-context (expiring skill context, from recorded request bodies)\n");
  const figures = await replay();
  const row = (/** @type {string} */ name, /** @type {RunFigures} */ f) => [
    name,
    String(f.requests),
    fmtInt(f.chars),
    `${(f.chars / figures.floor.chars).toFixed(2)}×`,
    fmtInt(f.uncached),
    `${(f.uncached / figures.floor.uncached).toFixed(2)}×`,
    fmtInt(f.weighted),
    `${(f.weighted / figures.floor.weighted).toFixed(2)}×`,
    f.breaks.length === 0 ? "0" : `${f.breaks.length} (#${f.breaks.join(", #")})`,
    String(f.stubs),
  ];
  ctx.log(
    formatTable(
      [
        "run",
        "requests",
        "message chars",
        "× floor",
        "uncached chars",
        "× floor",
        "weighted input",
        "× floor",
        "prefix breaks",
        "stubs at end",
      ],
      [
        row("no expiry (floor)", figures.floor),
        row(`ttl ${EXPIRE_AFTER_USER_TURNS} user turn`, figures.expiring),
      ],
    ),
  );
  ctx.log(
    `\nbytes saved: ${fmtInt(figures.saved)} message chars (${((figures.saved / figures.floor.chars) * 100).toFixed(1)}%); ` +
      `prefix breaks: ${figures.expiring.breaks.length} for ${figures.expiries} turns with expiries (at most one each)\n`,
  );
  return figures;
}
