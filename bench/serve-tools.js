// Serve tools bench (issue #39): another client's `GET /v1/skills` while a session's pathological Grep runs
// (a pattern with hundreds of RE2 states live per character over three 90 kB lines: minutes of work, in the
// matcher's worker thread), against the same GETs with nothing else running, on one `serve` (the shipped bin,
// PGlite). The ratio of the worst latencies says whether the search holds the event loop that serves everyone.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Anthropic from "@anthropic-ai/sdk";
import { fmtMs, fmtRatio, formatTable } from "./lib.js";
import { startServe } from "./serve-process.js";

/** GETs in each phase: idle, then during the search. */
export const GETS = Number(process.env.SERVE_TOOLS_BENCH_GETS ?? 200);
/** Target: the worst GET during the search within this many times the worst idle GET. */
export const TARGETS = { maxRatio: 3 };
const API_KEY = "sk-bench-serve-tools";
const MODEL_KEY = "sk-bench-model";
const SLOW_PATTERN = "(.*a.*b.*c){300}$";

/** A line of `n` characters from a, b and c, from a fixed seed. @param {number} n @param {number} seed */
function abcLine(n, seed) {
  let x = seed;
  let out = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += "abc"[(x >> 16) % 3];
  }
  return out;
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const { startModelServer } = await import("../dist/dev/model-server.js");
  const model = await startModelServer({
    apiKey: MODEL_KEY,
    script: {
      turns: [
        {
          match: { lastUserTextIncludes: "go slow" },
          response: {
            content: [
              { type: "tool_use", name: "Grep", input: { pattern: SLOW_PATTERN, path: "/mnt/memory/slow" } },
            ],
          },
          repeat: true,
        },
        { response: { content: [{ type: "text", text: "Stopped." }] }, repeat: true },
      ],
    },
  });
  const dir = await mkdtemp(join(tmpdir(), "sw-bench-tools-"));
  const server = await startServe({
    bin: join(ctx.repoRoot, "dist/bin/main.js"),
    db: join(dir, "data"),
    apiKey: API_KEY,
    // Long enough that the search is still running when the GETs are done; the interrupt ends it.
    env: {
      ANTHROPIC_API_KEY: MODEL_KEY,
      ANTHROPIC_BASE_URL: model.url,
      SKILLWRIGHT_TOOL_DEADLINE_MS: "600000",
    },
  });
  const client = new Anthropic({ apiKey: API_KEY, baseURL: server.url, maxRetries: 0 });
  const other = new Anthropic({ apiKey: API_KEY, baseURL: server.url, maxRetries: 0 });
  try {
    const store = await client.beta.memoryStores.create({ name: "slow" });
    for (let i = 0; i < 3; i++) {
      await client.beta.memoryStores.memories.create(store.id, {
        path: `/${i}.txt`,
        content: abcLine(90_000, i + 1),
      });
    }
    const env = await client.beta.environments.create({ name: "bench-tools" });
    const agent = await client.beta.agents.create({
      name: "bench-tools",
      model: "claude-sonnet-5-5",
      tools: [{ type: "agent_toolset_20260401" }],
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      resources: [{ type: "memory_store", memory_store_id: store.id }],
    });
    const get = async () => {
      const started = performance.now();
      await other.beta.skills.list();
      return performance.now() - started;
    };
    for (let n = 0; n < 30; n++) await get();
    /** @type {number[]} */
    const idle = [];
    for (let n = 0; n < GETS; n++) idle.push(await get());

    const stream = await client.beta.sessions.events.stream(session.id);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.message", content: [{ type: "text", text: "go slow" }] }],
    });
    for (;;) {
      const next = await events.next();
      if (next.done) throw new Error("the stream ended before the Grep started");
      if (next.value.type === "agent.tool_use") break;
    }
    /** @type {number[]} */
    const during = [];
    for (let n = 0; n < GETS; n++) during.push(await get());
    await client.beta.sessions.events.send(session.id, { events: [{ type: "user.interrupt" }] });
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      if (next.value.type === "session.status_idle") break;
    }
    stream.controller.abort();

    const worst = (/** @type {number[]} */ xs) => Math.max(...xs);
    const figures = {
      idleMaxMs: worst(idle),
      duringMaxMs: worst(during),
      maxRatio: worst(during) / worst(idle),
    };
    ctx.log("## serve tools: GET /v1/skills while a pathological Grep runs (PGlite)\n");
    ctx.log(
      formatTable(
        ["phase", "GETs", "worst"],
        [
          ["idle", String(idle.length), fmtMs(figures.idleMaxMs)],
          ["during the Grep", String(during.length), fmtMs(figures.duringMaxMs)],
        ],
      ),
    );
    ctx.log(
      `\nworst GET during the Grep / worst idle GET: ${fmtRatio(figures.maxRatio)} (target <= ${TARGETS.maxRatio})\n`,
    );
    return figures;
  } finally {
    await server.stop();
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figure with a target and its verdict. @param {{ maxRatio: number }} figures */
export function closing(figures) {
  const verdict = figures.maxRatio <= TARGETS.maxRatio ? "met" : "MISSED";
  return [
    `worst GET /v1/skills during a pathological Grep = ${fmtRatio(figures.maxRatio)} the idle worst (target <= ${TARGETS.maxRatio}): ${verdict}`,
  ];
}
