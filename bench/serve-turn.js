// Serve-turn bench: the CPU one served turn costs the `serve` process (the shipped bin), for a fresh session
// and for a kept one, on the embedded database (PGlite, in process) and on PostgreSQL, beside a floor that
// does the same row writes, model requests and SSE stream without the engine (serve-turn-floor.js).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { fmtRatio, formatTable, median } from "./lib.js";
import { postgresCpuMs, postmasterPid, procStat } from "./proc-stat.js";
import { summarizeCpuProfile } from "./profile.js";
import { startServe } from "./serve-process.js";

/** Turns per timed batch (`SERVE_TURN_TURNS`); a batch's CPU is read from /proc before and after it. */
export const TURNS = Number(process.env.SERVE_TURN_TURNS ?? 40);
/** Timed rounds (`SERVE_TURN_ROUNDS`): each runs one batch of every row, the order rotating. */
export const ROUNDS = Number(process.env.SERVE_TURN_ROUNDS ?? 5);
/** Databases (`SERVE_TURN_DBS`, comma-separated: `pglite`, `postgres`). */
export const DBS = (process.env.SERVE_TURN_DBS ?? "pglite,postgres").split(",").filter((d) => d !== "");
/** Targets of the issue (24.6): serve CPU per turn on the embedded database. */
export const TARGETS = { freshMs: 12, keptMs: 8 };
const API_KEY = "sk-bench-serve-turn";
const MODEL_KEY = "sk-bench-model";
const MODEL = "claude-sonnet-4-6";

/**
 * The scripted model: a request that answers the Skill call gets the final text, any other calls the skill.
 * @type {import("../dist/dev/model-script.js").ModelScriptInput}
 */
const SCRIPT = {
  turns: [
    {
      repeat: true,
      match: { hasToolResultFor: "Skill" },
      response: { content: [{ type: "text", text: "bench answer" }] },
    },
    {
      repeat: true,
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "bench" } }] },
    },
  ],
};

/** The event types of one turn, in order, as the client must see them (both servers). */
export const TURN_EVENTS = [
  "session.status_running",
  "span.model_request_start",
  "span.model_request_end",
  "agent.tool_use",
  "agent.tool_result",
  "span.model_request_start",
  "agent.message",
  "span.model_request_end",
  "session.status_idle",
];

/**
 * One turn as a client runs it: open the stream, send the message, read until idle. Throws when the turn's
 * events are not {@link TURN_EVENTS} (the user's message aside).
 * @param {Anthropic} client @param {string} sessionId
 */
async function turn(client, sessionId) {
  const stream = await client.beta.sessions.events.stream(sessionId);
  await client.beta.sessions.events.send(sessionId, {
    events: [{ type: "user.message", content: [{ type: "text", text: "bench hello" }] }],
  });
  /** @type {string[]} */
  const seen = [];
  for await (const event of stream) {
    if (event.type !== "user.message") seen.push(event.type);
    if (event.type === "session.status_idle") break;
  }
  stream.controller.abort();
  if (seen.join(" ") !== TURN_EVENTS.join(" "))
    throw new Error(`session ${sessionId}: events ${seen.join(", ")}; expected ${TURN_EVENTS.join(", ")}`);
}

/**
 * CPU ms per turn of each measured process, from /proc before and after `turns` turns. Pure.
 * @param {{ serve: number, postgres: number }} before @param {{ serve: number, postgres: number }} after
 * @param {number} turns
 */
export function perTurn(before, after, turns) {
  return {
    serve: (after.serve - before.serve) / turns,
    postgres: (after.postgres - before.postgres) / turns,
  };
}

/**
 * The section's table rows: per database and kind, ours and the floor (median ms per turn), and ours / floor.
 * Pure. @param {Figures} figures
 * @returns {string[][]}
 */
export function tableRows(figures) {
  return Object.entries(figures).flatMap(([dbName, f]) =>
    /** @type {const} */ (["fresh", "kept"]).map((kind) => {
      const ours = f[kind].ours;
      const floor = f[kind].floor;
      const pg = dbName === "postgres";
      return [
        `${dbName}: ${kind} session`,
        `${ours.serve.toFixed(1)}${pg ? ` + ${ours.postgres.toFixed(1)} PG` : ""}`,
        `${floor.serve.toFixed(1)}${pg ? ` + ${floor.postgres.toFixed(1)} PG` : ""}`,
        fmtRatio((ours.serve + ours.postgres) / Math.max(0.01, floor.serve + floor.postgres)),
        dbName === "pglite" ? `≤ ${kind === "fresh" ? TARGETS.freshMs : TARGETS.keptMs} ms` : "",
      ];
    }),
  );
}

/**
 * @typedef {{ serve: number, postgres: number }} Cpu
 * @typedef {{ ours: Cpu, floor: Cpu }} Pair
 * @typedef {Record<string, { fresh: Pair, kept: Pair }>} Figures
 */

/**
 * The servers of one database: `serve` and the floor, each on its own fresh database of that kind.
 * @param {import("./lib.js").BenchContext} ctx @param {string} dbName @param {string} modelUrl
 * @param {import("../dist/dev/postgres.js").TestPostgres | undefined} postgres @param {string} scratch
 */
async function startPair(ctx, dbName, modelUrl, postgres, scratch) {
  const env = { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: modelUrl };
  const dbFor = async (/** @type {string} */ name) =>
    dbName === "postgres" && postgres !== undefined
      ? postgres.createDatabase(`turn_${name}`)
      : join(scratch, `${dbName}-${name}`);
  const oursDb = await dbFor("ours");
  const floorDb = await dbFor("floor");
  const ours = await startServe({
    bin: join(ctx.repoRoot, "dist/bin/main.js"),
    db: oursDb,
    apiKey: API_KEY,
    env,
  });
  const floor = await startServe({
    bin: join(ctx.repoRoot, "bench/serve-turn-floor.js"),
    db: floorDb,
    apiKey: API_KEY,
    env,
  });
  return { ours, floor, postmaster: postgres === undefined ? 0 : await postmasterPid(oursDb) };
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  // Loaded here: the pure parts above are self-tested without a build.
  const { startModelServer } = await import("../dist/dev/model-server.js");
  const { startPostgres } = await import("../dist/dev/postgres.js");
  const model = await startModelServer({ apiKey: MODEL_KEY, script: SCRIPT });
  const scratch = await mkdtemp(join(tmpdir(), "skillwright-serve-turn-"));
  /** @type {Figures} */
  const figures = {};
  /** @type {string[]} */
  const skipped = [];
  try {
    for (const dbName of DBS) {
      const postgres = dbName === "postgres" ? await startPostgres().catch(() => undefined) : undefined;
      if (dbName === "postgres" && postgres === undefined) {
        skipped.push("postgres (no PostgreSQL server binaries: apt-get install postgresql)");
        continue;
      }
      const { ours, floor, postmaster } = await startPair(ctx, dbName, model.url, postgres, scratch);
      try {
        const oursClient = new Anthropic({ apiKey: API_KEY, baseURL: ours.url, maxRetries: 0 });
        const floorClient = new Anthropic({ apiKey: API_KEY, baseURL: floor.url, maxRetries: 0 });
        const skill = await oursClient.beta.skills.create({
          files: [
            await toFile(
              Buffer.from("---\nname: bench\ndescription: A bench skill\n---\nDo it.\n"),
              "bench/SKILL.md",
            ),
          ],
        });
        const environment = await oursClient.beta.environments.create({ name: "bench" });
        const agent = await oursClient.beta.agents.create({
          name: "bench",
          model: MODEL,
          skills: [{ type: "custom", skill_id: skill.id }],
        });
        const create = {
          ours: () => oursClient.beta.sessions.create({ agent: agent.id, environment_id: environment.id }),
          floor: () =>
            floorClient.beta.sessions.create({ agent: "agent_floor", environment_id: "env_floor" }),
        };
        const clients = { ours: oursClient, floor: floorClient };
        const kept = { ours: (await create.ours()).id, floor: (await create.floor()).id };
        const pids = { ours: ours.pid, floor: floor.pid };
        /** @type {Record<string, () => Promise<void>>} */
        const rows = {};
        for (const who of /** @type {const} */ (["ours", "floor"])) {
          rows[`${who} fresh`] = async () => {
            const session = await create[who]();
            await turn(clients[who], session.id);
          };
          rows[`${who} kept`] = () => turn(clients[who], kept[who]);
        }
        const cpu = (/** @type {"ours" | "floor"} */ who) => ({
          serve: procStat(pids[who])?.cpuMs ?? 0,
          postgres: postmaster === 0 ? 0 : postgresCpuMs(postmaster),
        });
        /** @type {Record<string, Cpu[]>} */
        const samples = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
        const names = Object.keys(rows);
        // One untimed round (JIT, caches, the kept sessions opened), then the timed ones.
        for (let round = 0; round <= ROUNDS; round++) {
          for (let i = 0; i < names.length; i++) {
            const name = names[(round + i) % names.length] ?? "";
            const who = name.startsWith("ours") ? "ours" : "floor";
            const before = cpu(who);
            for (let n = 0; n < TURNS; n++) await rows[name]?.();
            if (round > 0) samples[name]?.push(perTurn(before, cpu(who), TURNS));
          }
        }
        const mid = (/** @type {string} */ name) => ({
          serve: median((samples[name] ?? []).map((s) => s.serve)),
          postgres: median((samples[name] ?? []).map((s) => s.postgres)),
        });
        figures[dbName] = {
          fresh: { ours: mid("ours fresh"), floor: mid("floor fresh") },
          kept: { ours: mid("ours kept"), floor: mid("floor kept") },
        };
      } finally {
        await Promise.all([ours.stop(), floor.stop()]);
        await postgres?.stop();
      }
    }
    ctx.log(
      `serve-turn: CPU ms per served turn (a user message, one Skill call, an answer: 2 model requests), ` +
        `median of ${ROUNDS} rounds of ${TURNS} turns; serve = the serve process (PGlite runs in it), ` +
        "PG = the PostgreSQL server's processes, counted apart; a fresh turn includes creating its session",
    );
    ctx.log(
      formatTable(["turn", "ours ms", "floor ms", "ours / floor", "target (ours)"], tableRows(figures)),
    );
    for (const line of skipped) ctx.log(`serve-turn: skipped ${line}`);
    if (ctx.profile || process.env.SERVE_TURN_PROFILE) await profileKept(ctx, model.url, scratch);
    return figures;
  } finally {
    await model.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A CPU profile of `serve` (PGlite) running kept turns, printed by self time: what to cut next.
 * @param {import("./lib.js").BenchContext} ctx @param {string} modelUrl @param {string} scratch
 */
async function profileKept(ctx, modelUrl, scratch) {
  const profDir = join(scratch, "prof");
  const serve = await startServe({
    bin: join(ctx.repoRoot, "dist/cli/main.js"),
    db: join(scratch, "profiled"),
    apiKey: API_KEY,
    env: { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: modelUrl },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profDir}`],
  });
  const client = new Anthropic({ apiKey: API_KEY, baseURL: serve.url, maxRetries: 0 });
  const skill = await client.beta.skills.create({
    files: [
      await toFile(
        Buffer.from("---\nname: bench\ndescription: A bench skill\n---\nDo it.\n"),
        "bench/SKILL.md",
      ),
    ],
  });
  const environment = await client.beta.environments.create({ name: "bench" });
  const agent = await client.beta.agents.create({
    name: "bench",
    model: MODEL,
    skills: [{ type: "custom", skill_id: skill.id }],
  });
  const kind = process.env.SERVE_TURN_PROFILE === "fresh" ? "fresh" : "kept";
  const kept = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  for (let n = 0; n < TURNS * ROUNDS; n++) {
    const id =
      kind === "kept"
        ? kept.id
        : (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
    await turn(client, id);
  }
  await serve.stop();
  const { readdir } = await import("node:fs/promises");
  const [file] = await readdir(profDir);
  if (file === undefined) return;
  const summary = await summarizeCpuProfile(join(profDir, file), 30);
  ctx.log(
    `serve-turn: profile of ${TURNS * ROUNDS} ${kind} turns (unbundled dist/cli/main.js serve, PGlite), self time:`,
  );
  ctx.log(
    formatTable(
      ["function", "ms", "share"],
      summary.functions.map((h) => [h.label, h.ms.toFixed(0), `${(h.share * 100).toFixed(1)} %`]),
    ),
  );
  ctx.log(
    formatTable(
      ["category", "ms", "share"],
      summary.categories.map((h) => [h.label, h.ms.toFixed(0), `${(h.share * 100).toFixed(1)} %`]),
    ),
  );
}

/** The closing note's lines. @param {Figures} f */
export function closing(f) {
  const lite = f.pglite;
  if (lite === undefined) return ["pglite not measured"];
  const verdict = (/** @type {number} */ value, /** @type {number} */ target) =>
    value <= target ? "met" : "MISSED";
  const line = (/** @type {"fresh" | "kept"} */ kind, /** @type {number} */ target) =>
    `${kind} session: ${lite[kind].ours.serve.toFixed(1)} ms serve CPU per turn on PGlite (target ≤ ${target} ms: ` +
    `${verdict(lite[kind].ours.serve, target)}), ${fmtRatio(lite[kind].ours.serve / Math.max(0.01, lite[kind].floor.serve))} the floor's ${lite[kind].floor.serve.toFixed(1)} ms`;
  return [line("fresh", TARGETS.freshMs), line("kept", TARGETS.keptMs)];
}
