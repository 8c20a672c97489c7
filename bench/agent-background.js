// Agent bench, part (c): how long a background fork takes to end once the turn that started it is aborted
// (issue #27 item 7), in-process through openSession against the scripted server, whose fork response stalls
// until the client goes away. Floor: aborting one stalled model request through the same client (the least the
// fork's end can cost: its one request in flight must be torn down); an AbortController round trip is shown too.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createModelClient } from "../dist/agent/model-client.js";
import { startModelServer } from "../dist/dev/model-server.js";
import { createEngine } from "../dist/engine/engine.js";
import { openSession } from "../dist/session/open.js";
import { writeProject } from "./agent-project.js";
import { fmtMs, fmtRatio, formatTable, median, stats, withTempDir } from "./lib.js";

/** Target: the fork's end after the abort over the floor (one stalled request aborted). */
export const TARGET_BACKGROUND_ABORT_RATIO = 3;
/** Timed aborts at least. */
const MIN_RUNS = 10;
/** Untimed rounds first (module loading, JIT, the first TCP connections). */
const WARMUP = 2;
const API_KEY = "sk-bench-background";
const MODEL = "claude-sonnet-4-6";

/** @type {import("../dist/dev/model-script.js").ModelScriptInput} */
const SCRIPT = {
  turns: [
    {
      label: "main: start the background fork",
      match: { agentId: null, lastUserTextIncludes: "bench-background-prompt" },
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "watch" } }] },
      repeat: true,
    },
    {
      label: "fork: stalls until aborted",
      match: { agentId: "*", lastUserTextIncludes: "WATCH-TASK" },
      response: { content: [{ type: "text", text: "never" }] },
      fault: { kind: "stall", afterEvents: 0 },
      repeat: true,
    },
    {
      label: "main: answer",
      match: { agentId: null, hasToolResultFor: "Skill" },
      response: { content: [{ type: "text", text: "Started." }] },
      repeat: true,
    },
    {
      label: "main: the aborted fork's answer",
      match: { agentId: null, lastUserTextIncludes: "was aborted" },
      response: { content: [{ type: "text", text: "Noted." }] },
      repeat: true,
    },
    {
      label: "floor: stalls until aborted",
      match: { lastUserTextIncludes: "bench-floor-stall" },
      response: { content: [{ type: "text", text: "never" }] },
      fault: { kind: "stall", afterEvents: 0 },
      repeat: true,
    },
  ],
};

/**
 * @typedef {object} BackgroundFigures
 * @property {import("./lib.js").Stats} abortToEnd ms from the turn's abort to the fork's `background_result`
 * @property {import("./lib.js").Stats} floor ms from aborting one stalled request to its rejection
 * @property {number} controllerMs median AbortController round trip (abort → listener), ms
 * @property {number} ratio
 * @property {boolean} met
 */

/**
 * Resolves once `check` holds, looking again on each turn of the event loop (the server records each request
 * as it arrives).
 * @param {() => boolean} check
 */
async function until(check) {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs part (c) and prints its table. Rejects when the fork does not end aborted or the session does not
 * bring its answer.
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<BackgroundFigures>}
 */
export function runBackgroundPart(ctx) {
  return withTempDir("skillwright-agent-background-", async (dir) => {
    const home = join(dir, "home");
    const managed = join(dir, "managed");
    mkdirSync(home);
    mkdirSync(managed);
    const project = writeProject(join(dir, "project"), 10, {
      watch:
        "---\ndescription: Watches in the background\ncontext: fork\nbackground: true\n---\nWATCH-TASK\n",
    });
    const server = await startModelServer({ script: SCRIPT, apiKey: API_KEY });
    const engine = createEngine({ cwd: project, home, env: { SKILLWRIGHT_MANAGED_DIR: managed } });
    const client = createModelClient({ apiKey: API_KEY, baseURL: server.url });
    try {
      const runs = Math.max(ctx.runs, MIN_RUNS);
      /** @type {number[]} */
      const samples = [];
      /** @type {number[]} */
      const floors = [];
      /** @type {number[]} */
      const controllers = [];
      for (let round = 0; round < WARMUP + runs; round++) {
        const ms = await abortOnce(engine, client, server);
        const floor = await floorOnce(client, server);
        const controller = controllerRoundTrip();
        if (round < WARMUP) continue;
        samples.push(ms);
        floors.push(floor);
        controllers.push(controller);
      }
      const abortToEnd = stats(samples);
      const floor = stats(floors);
      const controllerMs = median(controllers);
      const ratio = abortToEnd.median / floor.median;
      const met = ratio <= TARGET_BACKGROUND_ABORT_RATIO;
      ctx.log(
        `\n${formatTable(
          ["(c) background fork: turn aborted → fork ended (ms)", "ms", "target"],
          [
            ["measured: abort → background_result (median)", fmtMs(abortToEnd.median), ""],
            ["  min / max", `${fmtMs(abortToEnd.min)} / ${fmtMs(abortToEnd.max)}`, ""],
            ["floor: one stalled request aborted → rejected", fmtMs(floor.median), ""],
            ["  AbortController round trip (reference)", fmtMs(controllerMs), ""],
            ["measured / floor", fmtRatio(ratio), `≤ ${TARGET_BACKGROUND_ABORT_RATIO}×${met ? "" : " ✗"}`],
          ],
        )}`,
      );
      ctx.log(
        `(${samples.length} timed aborts after ${WARMUP} warm-up; the fork's one request is held open by the ` +
          "script until the client goes away)\n",
      );
      return { abortToEnd, floor, controllerMs, ratio, met };
    } finally {
      await engine.close();
      await server.close();
    }
  });
}

/**
 * One round: a turn starts the background fork and ends; once the fork's request is held, the turn's signal is
 * aborted; resolves with the ms until the fork's `background_result` arrives (on a drain stream opened first, so
 * the event is live).
 * @param {import("../dist/engine/engine.js").Engine} engine
 * @param {import("../dist/agent/model-client.js").ModelClient} client
 * @param {import("../dist/dev/model-server.js").ModelServer} server
 */
async function abortOnce(engine, client, server) {
  const { session } = await openSession(engine, { client, allowedTools: ["Skill"] });
  try {
    const turn = new AbortController();
    const before = server.requests.length;
    for await (const _event of session.send("bench-background-prompt", { signal: turn.signal })) {
      // drained
    }
    await until(() => server.requests.slice(before).some((r) => r.stalled === true));
    /** @type {number | undefined} */
    let ended;
    let started = 0;
    /** @type {import("../dist/agent/events.js").AgentEvent | undefined} */
    let result;
    const drained = (async () => {
      for await (const event of session.drainBackground()) {
        if (event.type === "background_result" && ended === undefined) {
          ended = performance.now();
          result = event;
        }
      }
    })();
    // The drain stream is open (its wait began): abort the turn that started the fork.
    await new Promise((resolve) => setImmediate(resolve));
    started = performance.now();
    turn.abort();
    await drained;
    if (ended === undefined || result?.type !== "background_result" || result.ok) {
      throw new Error(`background fork did not end aborted: ${JSON.stringify(result)}`);
    }
    return ended - started;
  } finally {
    await session.close();
  }
}

/**
 * The floor: one model request through the same client, held by the server; ms from its abort to its rejection.
 * @param {import("../dist/agent/model-client.js").ModelClient} client
 * @param {import("../dist/dev/model-server.js").ModelServer} server
 */
async function floorOnce(client, server) {
  const controller = new AbortController();
  const before = server.requests.length;
  const request = client
    .stream(
      {
        model: MODEL,
        system: "floor",
        messages: [{ role: "user", content: "bench-floor-stall" }],
        tools: [],
        maxTokens: 16,
      },
      { signal: controller.signal },
    )
    .then(
      () => false,
      () => true,
    );
  await until(() => server.requests.slice(before).some((r) => r.stalled === true));
  const start = performance.now();
  controller.abort();
  const rejected = await request;
  const ms = performance.now() - start;
  if (!rejected) throw new Error("the floor's stalled request did not reject on abort");
  return ms;
}

/** One AbortController round trip: `abort()` until its listener ran, in ms. */
function controllerRoundTrip() {
  const controller = new AbortController();
  let heard = 0;
  controller.signal.addEventListener("abort", () => {
    heard = performance.now();
  });
  const start = performance.now();
  controller.abort();
  return heard - start;
}
