// Serve-turn bench: the CPU one served turn costs the `serve` process (the shipped bin), for a fresh session
// and for a kept one, on the embedded database (PGlite, in process) and on PostgreSQL, beside a floor that
// does the same row writes, model requests and SSE stream without the engine (serve-turn-floor.js).
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { createBenchAgent } from "./bench-agent.js";
import { fmtRatio, formatTable, loadNote, median } from "./lib.js";
import { postgresCpuMs, postmasterPid, procStat } from "./proc-stat.js";
import { summarizeCpuProfile } from "./profile.js";
import { startServe } from "./serve-process.js";

/** Turns per timed batch (`SERVE_TURN_TURNS`); a batch's CPU is read from /proc before and after it. */
export const TURNS = Number(process.env.SERVE_TURN_TURNS ?? 40);
/** Timed rounds (`SERVE_TURN_ROUNDS`): each runs one batch of every row, the order rotating. */
export const ROUNDS = Number(process.env.SERVE_TURN_ROUNDS ?? 5);
/** Databases (`SERVE_TURN_DBS`, comma-separated: `pglite`, `postgres`). */
export const DBS = (process.env.SERVE_TURN_DBS ?? "pglite,postgres").split(",").filter((d) => d !== "");
/**
 * Target (issue 47, replacing issue 24.6's 12 / 8 ms): CPU per turn over the floor's (serve-turn-floor.js, whose
 * header says why it is the least durable work of the same turn), for a fresh session, a kept one and the
 * first turns of CONCURRENT sessions at once; on PostgreSQL the database's processes are counted in both.
 */
export const TARGET_RATIO = 1.2;
/** Sessions whose first turns run at once in the concurrent row (`SERVE_TURN_CONCURRENT`). */
export const CONCURRENT = Number(process.env.SERVE_TURN_CONCURRENT ?? 200);
/** The kinds of row, in table order. */
const KINDS = /** @type {const} */ (["fresh", "kept", "concurrent"]);
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
 * The section's table rows: per database and kind, each server's median ms per turn and its ratio to the
 * floor's (`baseline`, another build, when measured). Pure.
 * @param {Figures} figures
 * @returns {string[][]}
 */
export function tableRows(figures) {
  return Object.entries(figures).flatMap(([dbName, f]) =>
    KINDS.flatMap((kind) => {
      const pg = dbName === "postgres";
      const pairOf = f[kind];
      if (pairOf === undefined) return [];
      const { floor, ...servers } = pairOf;
      const total = (/** @type {Cpu} */ c) => c.serve + c.postgres;
      const ms = (/** @type {Cpu} */ c) =>
        `${c.serve.toFixed(1)}${pg ? ` + ${c.postgres.toFixed(1)} PG` : ""}`;
      return Object.entries(servers).flatMap(([who, cpu]) =>
        cpu === undefined
          ? []
          : [
              [
                `${dbName}: ${kind === "concurrent" ? `${CONCURRENT} concurrent sessions' first turns` : `${kind} session`}, ${who}`,
                ms(cpu),
                ms(floor),
                fmtRatio(total(cpu) / Math.max(0.01, total(floor))),
                who === "ours" ? `≤ ${TARGET_RATIO}× floor` : "",
              ],
            ],
      );
    }),
  );
}

/**
 * @typedef {{ serve: number, postgres: number }} Cpu
 * @typedef {{ ours: Cpu, floor: Cpu, baseline?: Cpu }} Pair
 * @typedef {Record<string, { fresh: Pair, kept: Pair, concurrent?: Pair, load?: string }>} Figures
 * @typedef {"ours" | "floor" | "baseline"} Who
 */

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  // Loaded here: the pure parts above are self-tested without a build.
  const { startModelServer } = await import("../dist/dev/model-server.js");
  const { startPostgres } = await import("../dist/dev/postgres.js");
  const { createHttpFetch } = await import("../dist/agent/http-fetch.js");
  const model = await startModelServer({ apiKey: MODEL_KEY, script: SCRIPT });
  const scratch = await mkdtemp(join(tmpdir(), "skillwright-serve-turn-"));
  const env = { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url };
  // SERVE_TURN_BASELINE_BIN=path/to/dist/bin/main.js: another build (e.g. main's), measured in the same rounds.
  const baselineBin = process.env.SERVE_TURN_BASELINE_BIN;
  /** @type {Record<Who, string | undefined>} */
  const bins = {
    ours: join(ctx.repoRoot, "dist/bin/main.js"),
    floor: join(ctx.repoRoot, "bench/serve-turn-floor.js"),
    baseline: baselineBin === "" ? undefined : baselineBin,
  };
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
      /** @type {Partial<Record<Who, { stop: () => Promise<unknown>, pid: number, client: Anthropic, create: () => Promise<{ id: string }> }>>} */
      const servers = {};
      let postmaster = 0;
      try {
        for (const [who, bin] of Object.entries(bins)) {
          if (bin === undefined) continue;
          const db =
            postgres === undefined
              ? join(scratch, `${dbName}-${who}`)
              : await postgres.createDatabase(`turn_${who}`);
          if (postgres !== undefined && postmaster === 0) postmaster = await postmasterPid(db);
          const server = await startServe({ bin, db, apiKey: API_KEY, env });
          // node:http under the SDK (the CLI's fetch): the platform fetch ends a response body that sends nothing
          // for 300 s, and in the concurrent row on a loaded machine a session's stream waits that long for its
          // turn to come (turns run one statement at a time on PGlite).
          const client = new Anthropic({
            apiKey: API_KEY,
            baseURL: server.url,
            maxRetries: 0,
            fetch: createHttpFetch(),
          });
          const create = who === "floor" ? floorSessions(client) : await agentSessions(client);
          servers[/** @type {Who} */ (who)] = { stop: server.stop, pid: server.pid, client, create };
        }
        /** @type {Record<string, { who: Who, turn: () => Promise<void>, turns?: number }>} */
        const rows = {};
        for (const [who, server] of Object.entries(servers)) {
          const kept = (await server.create()).id;
          rows[`${who} fresh`] = {
            who: /** @type {Who} */ (who),
            turn: async () => turn(server.client, (await server.create()).id),
          };
          rows[`${who} kept`] = { who: /** @type {Who} */ (who), turn: () => turn(server.client, kept) };
          if (CONCURRENT > 0)
            rows[`${who} concurrent`] = {
              who: /** @type {Who} */ (who),
              turns: CONCURRENT,
              turn: async () => {
                const ids = await Promise.all(Array.from({ length: CONCURRENT }, () => server.create()));
                await Promise.all(ids.map((session) => turn(server.client, session.id)));
              },
            };
        }
        const cpu = (/** @type {Who} */ who) => ({
          serve: procStat(servers[who]?.pid ?? 0)?.cpuMs ?? 0,
          postgres: postmaster === 0 ? 0 : postgresCpuMs(postmaster),
        });
        /** @type {Record<string, Cpu[]>} */
        const samples = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
        const names = Object.keys(rows);
        // One untimed round (JIT, caches, the kept sessions opened), then the timed ones.
        for (let round = 0; round <= ROUNDS; round++) {
          for (let i = 0; i < names.length; i++) {
            const name = names[(round + i) % names.length] ?? "";
            const row = rows[name];
            if (row === undefined) continue;
            const before = cpu(row.who);
            // The concurrent row's one call is CONCURRENT turns at once; the others are one turn per call.
            if (row.turns === undefined) for (let n = 0; n < TURNS; n++) await row.turn();
            else await row.turn();
            if (round > 0) samples[name]?.push(perTurn(before, cpu(row.who), row.turns ?? TURNS));
          }
        }
        const mid = (/** @type {string} */ name) => ({
          serve: median((samples[name] ?? []).map((s) => s.serve)),
          postgres: median((samples[name] ?? []).map((s) => s.postgres)),
        });
        const pair = (/** @type {string} */ kind) => ({
          ours: mid(`ours ${kind}`),
          floor: mid(`floor ${kind}`),
          ...(servers.baseline === undefined ? {} : { baseline: mid(`baseline ${kind}`) }),
        });
        figures[dbName] = {
          fresh: pair("fresh"),
          kept: pair("kept"),
          ...(CONCURRENT > 0 ? { concurrent: pair("concurrent") } : {}),
          load: loadNote(),
        };
      } finally {
        await Promise.all(Object.values(servers).map((s) => s.stop()));
        await postgres?.stop();
      }
    }
    ctx.log(
      "serve-turn: CPU ms per served turn (a user message, one Skill call, an answer: 2 model requests), " +
        `median of ${ROUNDS} rounds of ${TURNS} turns (the concurrent row: ${CONCURRENT} new sessions, then their first ` +
        "turns at once); serve = the serve process (PGlite runs in it), " +
        "PG = the PostgreSQL server's processes, counted apart; a fresh turn includes creating its session; " +
        "the floor (bench/serve-turn-floor.js, its header says why) stores the same events in the fewest statements " +
        "durability allows (a tool call's use before the tool runs) and writes each batch to the socket once" +
        (bins.baseline === undefined ? "" : `; baseline = ${bins.baseline}`),
    );
    ctx.log(formatTable(["turn", "ms", "floor ms", "× floor", "target"], tableRows(figures)));
    for (const [dbName, f] of Object.entries(figures)) ctx.log(`serve-turn: ${dbName} measured at ${f.load}`);
    for (const line of skipped) ctx.log(`serve-turn: skipped ${line}`);
    if (ctx.profile || process.env.SERVE_TURN_PROFILE) await profileTurns(ctx, model.url, scratch);
    return figures;
  } finally {
    await model.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** New sessions on the floor (it takes any agent). @param {Anthropic} client */
function floorSessions(client) {
  return () => client.beta.sessions.create({ agent: "agent_floor", environment_id: "env_floor" });
}

/** The bench's skill, environment and agent on a `serve`; new sessions of that agent. @param {Anthropic} client */
async function agentSessions(client) {
  const session = await createBenchAgent(client, MODEL);
  return () => client.beta.sessions.create(session);
}

/**
 * A CPU profile of `serve` (PGlite) running turns (`SERVE_TURN_PROFILE=fresh`: fresh sessions, else a kept
 * one), printed by self time: what to cut next. Only the samples taken while the turns ran are counted.
 * @param {import("./lib.js").BenchContext} ctx @param {string} modelUrl @param {string} scratch
 */
async function profileTurns(ctx, modelUrl, scratch) {
  const profDir = join(scratch, "prof");
  const serve = await startServe({
    bin: join(ctx.repoRoot, "dist/cli/main.js"),
    db: join(scratch, "profiled"),
    apiKey: API_KEY,
    env: { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: modelUrl },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profDir}`],
  });
  const client = new Anthropic({ apiKey: API_KEY, baseURL: serve.url, maxRetries: 0 });
  const create = await agentSessions(client);
  const kind = process.env.SERVE_TURN_PROFILE === "fresh" ? "fresh" : "kept";
  const kept = (await create()).id;
  for (let n = 0; n < TURNS; n++) await turn(client, kind === "kept" ? kept : (await create()).id);
  // V8's profile clock is the monotonic clock of process.hrtime: the window is the timed turns.
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  for (let n = 0; n < TURNS * ROUNDS; n++) await turn(client, kind === "kept" ? kept : (await create()).id);
  const toUs = Number(process.hrtime.bigint() / 1000n);
  await serve.stop();
  const [file] = await readdir(profDir);
  if (file === undefined) return;
  const summary = await summarizeCpuProfile(join(profDir, file), 40, { fromUs, toUs });
  const turns = TURNS * ROUNDS;
  ctx.log(
    `serve-turn: profile of ${turns} ${kind} turns (unbundled dist/cli/main.js serve, PGlite), self time per turn:`,
  );
  const rows = (/** @type {import("./profile.js").HotSpot[]} */ spots) =>
    spots.map((h) => [h.label, (h.ms / turns).toFixed(2), `${(h.share * 100).toFixed(1)} %`]);
  ctx.log(formatTable(["function", "ms / turn", "share"], rows(summary.functions)));
  ctx.log(formatTable(["category", "ms / turn", "share"], rows(summary.categories)));
}

/** The closing note's lines: every database's kinds against the floor, with the load they were measured at. @param {Figures} f */
export function closing(f) {
  if (Object.keys(f).length === 0) return ["no database measured"];
  const verdict = (/** @type {number} */ ratio) => (ratio <= TARGET_RATIO ? "met" : "MISSED");
  const total = (/** @type {Cpu} */ c) => c.serve + c.postgres;
  return Object.entries(f).flatMap(([dbName, figures]) =>
    KINDS.flatMap((kind) => {
      const p = figures[kind];
      if (p === undefined) return [];
      const ratio = total(p.ours) / Math.max(0.01, total(p.floor));
      const what =
        kind === "concurrent" ? `${CONCURRENT} concurrent sessions' first turns` : `${kind} session`;
      return [
        `${dbName}, ${what}: ${total(p.ours).toFixed(1)} ms CPU per turn, ${fmtRatio(ratio)} the floor's ` +
          `${total(p.floor).toFixed(1)} ms (target ≤ ${TARGET_RATIO}×): ${verdict(ratio)} (${figures.load ?? "load not taken"})`,
      ];
    }),
  );
}
