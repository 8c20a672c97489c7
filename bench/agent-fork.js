// Agent bench, part (b): 8 `context: fork` skills called in ONE assistant message, in-process through
// openSession, against the scripted server holding every response back by RESPONSE_MS; versus the ideal.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createModelClient } from "../dist/agent/model-client.js";
import { startModelServer } from "../dist/dev/model-server.js";
import { createEngine } from "../dist/engine/engine.js";
import { openSession } from "../dist/session/open.js";
import { DEFAULT_FORK_CONCURRENCY } from "../dist/session/skill-runtime.js";
import { writeProject } from "./agent-project.js";
import { fmtMs, fmtRatio, formatTable, median, stats, withTempDir } from "./lib.js";

/** Target: the measured turn over the ideal. */
export const TARGET_FORK_RATIO = 1.15;
/** Forked skills called in the one assistant message. */
export const FORKS = 8;
/** Every scripted response is held back this long (the script's `delayMs`: headers included). */
export const RESPONSE_MS = 300;
/** Timed turns at least (the brief asks for 5). */
const MIN_RUNS = 5;
/** Untimed turns first (module loading, JIT, the first TCP connections). */
const WARMUP = 1;
/** Project skills beside the forks, so the listing and discovery are not trivial. */
const OTHER_SKILLS = 50;
const API_KEY = "sk-bench-fork";
const PROMPT = "bench-fork-prompt: run the eight forks";
const FINAL_TEXT = "All forks finished.";

/** @param {number} i */
const forkName = (i) => `fork-${i}`;

/** Turn 1 calls every fork at once; each fork answers in one response; then the main agent answers. */
/** @type {import("../dist/dev/model-script.js").ModelScriptInput} */
const SCRIPT = {
  turns: [
    {
      label: "main: call 8 forks",
      match: { agentId: null, lastUserTextIncludes: "bench-fork-prompt" },
      response: {
        content: Array.from({ length: FORKS }, (_, i) => ({
          type: "tool_use",
          name: "Skill",
          input: { skill: forkName(i) },
        })),
      },
      delayMs: RESPONSE_MS,
      repeat: true,
    },
    {
      label: "fork: answer",
      match: { agentId: "*", lastUserTextIncludes: "FORK-TASK" },
      response: { content: [{ type: "text", text: "Fork done." }] },
      delayMs: RESPONSE_MS,
      repeat: true,
    },
    {
      label: "main: final answer",
      match: { agentId: null, hasToolResultFor: "Skill" },
      response: { content: [{ type: "text", text: FINAL_TEXT }] },
      delayMs: RESPONSE_MS,
      repeat: true,
    },
  ],
};

/**
 * @typedef {object} ForkFigures
 * @property {import("./lib.js").Stats} turn wall time of the whole user turn
 * @property {number} idealMs
 * @property {number} ratio
 * @property {boolean} met
 * @property {number} concurrency
 * @property {Record<string, number>} phases medians, ms from the start of the turn: see PHASES
 */

/** Phase boundaries read from the server's request log, per turn. */
const PHASES = /** @type {const} */ ([
  "main request 1 arrives",
  "first fork request arrives",
  `fork request ${DEFAULT_FORK_CONCURRENCY + 1} arrives (wave 2)`,
  "last fork request arrives",
  "main request 2 arrives",
  "turn done",
]);

/**
 * Runs part (b) and prints its table. Rejects when a turn does not end with the scripted answer, a fork's
 * tool_result is an error, or the request count differs from 1 + FORKS + 1.
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<ForkFigures>}
 */
export function runForkPart(ctx) {
  return withTempDir("skillwright-agent-fork-", async (dir) => {
    const home = join(dir, "home");
    const managed = join(dir, "managed");
    mkdirSync(home);
    mkdirSync(managed);
    /** @type {Record<string, string>} */
    const forks = {};
    for (let i = 0; i < FORKS; i++) {
      forks[forkName(i)] =
        `---\ndescription: Forked bench task ${i}\ncontext: fork\n---\nFORK-TASK ${i}: report done.\n`;
    }
    const project = writeProject(join(dir, "project"), OTHER_SKILLS, forks);
    const server = await startModelServer({ script: SCRIPT, apiKey: API_KEY });
    const engine = createEngine({ cwd: project, home, env: { SKILLWRIGHT_MANAGED_DIR: managed } });
    const client = createModelClient({ apiKey: API_KEY, baseURL: server.url });
    try {
      const runs = Math.max(ctx.runs, MIN_RUNS);
      /** @type {number[]} */
      const samples = [];
      /** @type {number[][]} */
      const phaseSamples = PHASES.map(() => []);
      for (let round = 0; round < WARMUP + runs; round++) {
        const { session } = await openSession(engine, { client, allowedTools: ["Skill"] });
        const firstRequest = server.requests.length;
        const startedAt = Date.now();
        const start = performance.now();
        /** @type {import("../dist/agent/events.js").AgentResult | undefined} */
        let result;
        for await (const event of session.send(PROMPT)) {
          if (event.type === "done" && event.agentId === undefined) result = event.result;
        }
        const ms = performance.now() - start;
        const endedAt = Date.now();
        checkTurn(result, session.messages(), server.requests.length - firstRequest);
        await session.close();
        if (round < WARMUP) continue;
        samples.push(ms);
        const times = server.requests
          .slice(firstRequest)
          .map((r) => ({ t: r.time - startedAt, sub: r.agentId }));
        const subs = times.filter((r) => r.sub !== undefined).map((r) => r.t);
        const mains = times.filter((r) => r.sub === undefined).map((r) => r.t);
        const marks = [
          mains[0],
          subs[0],
          subs[DEFAULT_FORK_CONCURRENCY],
          subs.at(-1),
          mains[1],
          endedAt - startedAt,
        ];
        for (const [i, t] of marks.entries()) phaseSamples[i]?.push(t ?? Number.NaN);
      }
      const turn = stats(samples);
      const waves = Math.ceil(FORKS / DEFAULT_FORK_CONCURRENCY);
      const idealMs = RESPONSE_MS + waves * RESPONSE_MS + RESPONSE_MS;
      const ratio = turn.median / idealMs;
      const met = ratio <= TARGET_FORK_RATIO;
      /** @type {Record<string, number>} */
      const phases = Object.fromEntries(PHASES.map((p, i) => [p, median(phaseSamples[i] ?? [])]));
      ctx.log(
        `\n${formatTable(
          [`(b) ${FORKS} forks in one message (ms)`, "ms", "target"],
          [
            ["measured: whole turn (median)", fmtMs(turn.median), ""],
            ["  min / max", `${fmtMs(turn.min)} / ${fmtMs(turn.max)}`, ""],
            [`ideal: ${RESPONSE_MS} + ${waves} waves × ${RESPONSE_MS} + ${RESPONSE_MS}`, fmtMs(idealMs), ""],
            ["measured / ideal", fmtRatio(ratio), `≤ ${TARGET_FORK_RATIO}×${met ? "" : " ✗"}`],
          ],
        )}`,
      );
      ctx.log(
        `(${samples.length} timed turns after ${WARMUP} warm-up; fork concurrency ${DEFAULT_FORK_CONCURRENCY}; ` +
          `each response held back ${RESPONSE_MS} ms by the script; each fork answers in one response)`,
      );
      ctx.log(
        `timeline (median ms from the start of the turn): ${PHASES.map((p) => `${p} ${fmtMs(phases[p] ?? Number.NaN)}`).join(", ")}\n`,
      );
      return { turn, idealMs, ratio, met, concurrency: DEFAULT_FORK_CONCURRENCY, phases };
    } finally {
      await engine.close();
      await server.close();
    }
  });
}

/**
 * Throws unless the turn ended with the scripted answer, after 1 + FORKS + 1 requests, every fork's
 * tool_result being a completed forked execution.
 * @param {import("../dist/agent/events.js").AgentResult | undefined} result
 * @param {readonly import("../dist/agent/model-types.js").ModelMessage[]} messages
 * @param {number} requests
 */
function checkTurn(result, messages, requests) {
  if (result === undefined || result.cause !== "end_turn" || result.text !== FINAL_TEXT) {
    throw new Error(`fork turn did not finish: ${JSON.stringify(result)}`);
  }
  if (requests !== FORKS + 2) throw new Error(`fork turn made ${requests} requests, expected ${FORKS + 2}`);
  const answers = messages
    .flatMap((m) => (typeof m.content === "string" ? [] : m.content))
    .filter((b) => b.type === "tool_result");
  const ok = answers.filter(
    (b) => b.is_error !== true && JSON.stringify(b.content).includes("completed (forked execution)"),
  );
  if (answers.length !== FORKS || ok.length !== FORKS) {
    throw new Error(`fork turn: ${ok.length}/${answers.length} forks succeeded: ${JSON.stringify(answers)}`);
  }
}
