// Serve bench: N concurrent sessions over 2 `serve` instances (the shipped bin) on one PostgreSQL, the
// scripted model answering every request after RESPONSE_MS. The store's figures are in serve-store.js.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Anthropic from "@anthropic-ai/sdk";
import { startModelServer } from "../dist/dev/model-server.js";
import { startPostgres } from "../dist/dev/postgres.js";
import { createBenchAgent } from "./bench-agent.js";
import { fmtMs, fmtRatio, formatTable, stats } from "./lib.js";
import { postgresCpuMs, postmasterPid, procStat } from "./proc-stat.js";
import { startServe } from "./serve-process.js";

/** Concurrent sessions, spread over the two instances (`SERVE_BENCH_SESSIONS` overrides, for a quick run). */
export const SESSIONS = Number(process.env.SERVE_BENCH_SESSIONS ?? 200);
/** Every scripted model response is held back this long. */
export const RESPONSE_MS = 300;
/** Turns measured one at a time (nothing else running) for the unloaded overhead rows. */
export const UNLOADED_TURNS = Number(process.env.SERVE_BENCH_UNLOADED_TURNS ?? 100);
/** Cores of the box the figures are explained against. */
const CORES = 2;
/** Targets of the issue. */
export const TARGETS = { wallRatio: 1.1, overheadP99Ms: 3 };
const API_KEY = "sk-bench-serve";
const MODEL_KEY = "sk-bench-model";

/** @param {number[]} samples */
const p99 = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

/** One session's turn: stream, send, read until idle. Returns the turn's events. @param {Anthropic} client @param {string} sessionId */
async function turn(client, sessionId) {
  const stream = await client.beta.sessions.events.stream(sessionId);
  await client.beta.sessions.events.send(sessionId, {
    events: [{ type: "user.message", content: [{ type: "text", text: "bench hello" }] }],
  });
  /** @type {{ type: string; processed_at?: string | null }[]} */
  const seen = [];
  for await (const event of stream) {
    seen.push(event);
    if (event.type === "session.status_idle") break;
  }
  stream.controller.abort();
  if (!seen.some((e) => e.type === "agent.message"))
    throw new Error(`session ${sessionId}: no agent.message (${seen.map((e) => e.type).join(", ")})`);
  return seen;
}

/** Engine time around the model requests of a turn: (first span start − running) + (idle − last span end). @param {{ type: string; processed_at?: string | null }[]} events */
function overheadMs(events) {
  const at = (/** @type {string} */ type, last = false) => {
    const found = last ? events.findLast((e) => e.type === type) : events.find((e) => e.type === type);
    return Date.parse(found?.processed_at ?? "");
  };
  return (
    at("span.model_request_start") -
    at("session.status_running") +
    (at("session.status_idle", true) - at("span.model_request_end", true))
  );
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const postgres = await startPostgres().catch(() => undefined);
  if (postgres === undefined) {
    ctx.log("serve: skipped (no PostgreSQL server binaries: apt-get install postgresql)");
    return {};
  }
  const model = await startModelServer({
    apiKey: MODEL_KEY,
    script: {
      turns: [
        {
          repeat: true,
          delayMs: RESPONSE_MS,
          response: { content: [{ type: "text", text: "bench answer" }] },
        },
      ],
    },
  });
  try {
    const db = await postgres.createDatabase("bench_sessions");
    const env = { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url };
    const bin = join(ctx.repoRoot, "dist/bin/main.js");
    const instances = [
      await startServe({ bin, db, apiKey: API_KEY, env }),
      await startServe({ bin, db, apiKey: API_KEY, env }),
    ];
    const clients = instances.map((i) => new Anthropic({ apiKey: API_KEY, baseURL: i.url, maxRetries: 0 }));
    const [a] = clients;
    if (a === undefined) throw new Error("no instance");
    const session = await createBenchAgent(a, "claude-sonnet-5-5");
    const newSession = (/** @type {Anthropic} */ client) => client.beta.sessions.create(session);

    const rssBefore = instances.reduce((sum, i) => sum + i.rssBytes(), 0);
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, (_, n) => newSession(clients[n % 2] ?? a)),
    );
    const postmaster = await postmasterPid(db);
    const cpu = () => ({
      serve: instances.reduce((sum, i) => sum + (procStat(i.pid)?.cpuMs ?? 0), 0),
      postgres: postgresCpuMs(postmaster),
      bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    });
    const cpuBefore = cpu();
    const started = performance.now();
    const turns = await Promise.all(sessions.map((s, n) => turn(clients[(n + 1) % 2] ?? a, s.id)));
    const wallMs = performance.now() - started;
    const cpuAfter = cpu();
    const rssAfter = instances.reduce((sum, i) => sum + i.rssBytes(), 0);
    const cpuPerTurn = {
      serve: (cpuAfter.serve - cpuBefore.serve) / SESSIONS,
      postgres: (cpuAfter.postgres - cpuBefore.postgres) / SESSIONS,
      bench: (cpuAfter.bench - cpuBefore.bench) / SESSIONS,
    };
    const cpuTurnMs = cpuPerTurn.serve + cpuPerTurn.postgres;
    // What the CPU alone allows: every turn's serve + PostgreSQL CPU spread over the cores, against the ideal.
    const cpuWallMs = (cpuTurnMs * SESSIONS) / CORES;
    const cpuWallAllClientMs = ((cpuTurnMs + cpuPerTurn.bench) * SESSIONS) / CORES;
    const overheads = turns.map(overheadMs);
    // Unloaded, after the concurrent run (whose figures stay those of fresh instances, as before): one turn at
    // a time, nothing else running. A first turn opens the session on the instance; a
    // next turn on the same instance finds it open.
    /** @type {number[]} */
    const unloadedFirst = [];
    /** @type {number[]} */
    const unloadedNext = [];
    /** @type {number[]} */
    const unloadedClient = [];
    const kept = await newSession(a);
    await turn(a, kept.id);
    for (let n = 0; n < UNLOADED_TURNS; n++) {
      const client = clients[n % 2] ?? a;
      const fresh = await newSession(client);
      const t = performance.now();
      unloadedFirst.push(overheadMs(await turn(client, fresh.id)));
      unloadedClient.push(performance.now() - t - RESPONSE_MS);
      unloadedNext.push(overheadMs(await turn(a, kept.id)));
    }

    if (process.env.SERVE_BENCH_DEBUG) {
      const gap = (/** @type {any[]} */ ev, /** @type {string} */ a, /** @type {string} */ b) =>
        Date.parse(ev.find((e) => e.type === b)?.processed_at ?? "") -
        Date.parse(ev.find((e) => e.type === a)?.processed_at ?? "");
      /** @type {[string, string][]} */
      const pairs = [
        ["user.message", "session.status_running"],
        ["session.status_running", "span.model_request_start"],
        ["span.model_request_start", "span.model_request_end"],
        ["span.model_request_end", "session.status_idle"],
      ];
      for (const [a, b] of pairs) {
        const g = turns.map((ev) => gap(ev, a, b));
        ctx.log(`${a} -> ${b}: median ${stats(g).median} p99 ${p99(g)}`);
      }
      ctx.log((turns[0] ?? []).map((e) => `${e.type} ${e.processed_at}`).join("\n"));
    }
    const overheadP99 = p99(overheads);
    const wallRatio = wallMs / RESPONSE_MS;
    const perSessionKb = (rssAfter - rssBefore) / SESSIONS / 1024;
    ctx.log(
      `serve: ${SESSIONS} concurrent sessions over 2 instances on PostgreSQL, model answering in ${RESPONSE_MS} ms`,
    );
    ctx.log(
      formatTable(
        ["figure", "value", "target"],
        [
          ["wall (all turns)", fmtMs(wallMs), ""],
          ["wall / model-bound ideal", fmtRatio(wallRatio), `≤ ${TARGETS.wallRatio}×`],
          ["engine overhead per request p99", fmtMs(overheadP99), `≤ ${TARGETS.overheadP99Ms} ms`],
          ["engine overhead median", fmtMs(stats(overheads).median), ""],
          ["RSS per idle session", `${perSessionKb.toFixed(0)} KB`, ""],
          ["CPU per turn: serve (2 instances)", fmtMs(cpuPerTurn.serve), ""],
          ["CPU per turn: PostgreSQL", fmtMs(cpuPerTurn.postgres), ""],
          ["CPU per turn: bench clients + model server", fmtMs(cpuPerTurn.bench), ""],
          [
            `CPU-bound wall: serve+PG CPU × ${SESSIONS} / ${CORES} cores`,
            `${fmtMs(cpuWallMs)} = ${fmtRatio(cpuWallMs / RESPONSE_MS)}`,
            "",
          ],
          [
            "  … with the bench's own CPU",
            `${fmtMs(cpuWallAllClientMs)} = ${fmtRatio(cpuWallAllClientMs / RESPONSE_MS)}`,
            "",
          ],
        ],
      ),
    );
    ctx.log(`serve: ${UNLOADED_TURNS} turns one at a time (unloaded), engine overhead as above`);
    ctx.log(
      formatTable(
        ["figure", "p99", "median", "target"],
        [
          [
            "first turn of a session",
            fmtMs(p99(unloadedFirst)),
            fmtMs(stats(unloadedFirst).median),
            `≤ ${TARGETS.overheadP99Ms} ms`,
          ],
          [
            "next turn (session kept open)",
            fmtMs(p99(unloadedNext)),
            fmtMs(stats(unloadedNext).median),
            `≤ ${TARGETS.overheadP99Ms} ms`,
          ],
          [
            "client: send → idle, minus the model's time",
            fmtMs(p99(unloadedClient)),
            fmtMs(stats(unloadedClient).median),
            "",
          ],
        ],
      ),
    );
    await Promise.all(instances.map((i) => i.stop()));

    return {
      wallMs,
      wallRatio,
      overheadP99,
      perSessionKb,
      unloadedFirstP99: p99(unloadedFirst),
      unloadedNextP99: p99(unloadedNext),
      cpuTurnMs,
      cpuWallRatio: cpuWallMs / RESPONSE_MS,
    };
  } finally {
    await model.close();
    await postgres.stop();
  }
}

/** The closing note's lines. @param {Record<string, number>} f */
export function closing(f) {
  if (f.wallRatio === undefined) return ["skipped (no PostgreSQL)"];
  const verdict = (/** @type {number} */ value, /** @type {number} */ target) =>
    value <= target ? "met" : "MISSED";
  return [
    `${SESSIONS} sessions / 2 instances: wall ${fmtRatio(f.wallRatio)} of the model-bound ideal (target ≤ ${TARGETS.wallRatio}×: ${verdict(f.wallRatio, TARGETS.wallRatio)})`,
    `engine overhead p99 ${fmtMs(f.overheadP99 ?? 0)} ms per request (target ≤ ${TARGETS.overheadP99Ms} ms: ${verdict(f.overheadP99 ?? 0, TARGETS.overheadP99Ms)}); ${(f.perSessionKb ?? 0).toFixed(0)} KB RSS per idle session`,
    `unloaded (one turn at a time): engine overhead p99 ${fmtMs(f.unloadedFirstP99 ?? 0)} ms on a session's first turn, ${fmtMs(f.unloadedNextP99 ?? 0)} ms on a next turn; serve + PostgreSQL CPU ${fmtMs(f.cpuTurnMs ?? 0)} ms per turn, so ${SESSIONS} turns on ${CORES} cores need ≥ ${fmtRatio(f.cpuWallRatio ?? 0)} of the ideal`,
  ];
}
