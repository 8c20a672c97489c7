// Serve bench: N concurrent sessions over 2 `serve` instances (the shipped bin) on one PostgreSQL, the
// scripted model answering every request after RESPONSE_MS. The store's figures are in serve-store.js.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { startModelServer } from "../dist/dev/model-server.js";
import { startPostgres } from "../dist/dev/postgres.js";
import { fmtMs, fmtRatio, formatTable, stats } from "./lib.js";

/** Concurrent sessions, spread over the two instances (`SERVE_BENCH_SESSIONS` overrides, for a quick run). */
export const SESSIONS = Number(process.env.SERVE_BENCH_SESSIONS ?? 200);
/** Every scripted model response is held back this long. */
export const RESPONSE_MS = 300;
/** Targets of the issue. */
export const TARGETS = { wallRatio: 1.1, overheadP99Ms: 3 };
const API_KEY = "sk-bench-serve";
const MODEL_KEY = "sk-bench-model";

/** Starts `node dist/bin/main.js serve` on a free port. @param {string} repoRoot @param {string} db @param {Record<string, string>} env */
async function startServe(repoRoot, db, env) {
  const child = spawn(
    process.execPath,
    [
      // SERVE_BENCH_CPU_PROF=dir: each instance writes a V8 CPU profile there when it stops.
      ...(process.env.SERVE_BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVE_BENCH_CPU_PROF}`]
        : []),
      join(repoRoot, "dist/bin/main.js"),
      "serve",
      "--port",
      "0",
      "--db",
      db,
      "--api-key",
      API_KEY,
    ],
    {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  let out = "";
  const url = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  return {
    /** @type {string} */ url,
    rssBytes: () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

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
    const instances = [await startServe(ctx.repoRoot, db, env), await startServe(ctx.repoRoot, db, env)];
    const clients = instances.map((i) => new Anthropic({ apiKey: API_KEY, baseURL: i.url, maxRetries: 0 }));
    const [a] = clients;
    if (a === undefined) throw new Error("no instance");
    const skill = await a.beta.skills.create({
      files: [
        await toFile(
          Buffer.from("---\nname: bench\ndescription: A bench skill\n---\nDo it.\n"),
          "bench/SKILL.md",
        ),
      ],
    });
    const environment = await a.beta.environments.create({ name: "bench" });
    const agent = await a.beta.agents.create({
      name: "bench",
      model: "claude-sonnet-4-5",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    const rssBefore = instances.reduce((sum, i) => sum + i.rssBytes(), 0);
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, (_, n) =>
        (clients[n % 2] ?? a).beta.sessions.create({ agent: agent.id, environment_id: environment.id }),
      ),
    );
    const started = performance.now();
    const turns = await Promise.all(sessions.map((s, n) => turn(clients[(n + 1) % 2] ?? a, s.id)));
    const wallMs = performance.now() - started;
    const rssAfter = instances.reduce((sum, i) => sum + i.rssBytes(), 0);
    const overheads = turns.map(overheadMs);
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
        ],
      ),
    );
    await Promise.all(instances.map((i) => i.stop()));
    return { wallMs, wallRatio, overheadP99, perSessionKb };
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
    `engine overhead p99 ${fmtMs(f.overheadP99 ?? 0)} per request (target ≤ ${TARGETS.overheadP99Ms} ms: ${verdict(f.overheadP99 ?? 0, TARGETS.overheadP99Ms)}); ${(f.perSessionKb ?? 0).toFixed(0)} KB RSS per idle session`,
  ];
}
