import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { AgentEvent } from "../../agent/events.js";
import type { ModelClient } from "../../agent/model-client.js";
import { type GradeRequest, gradeAttempt } from "../../outcome/grader.js";
import { type LoopEvaluation, runOutcomeLoop } from "../../outcome/outcome-loop.js";
import { type DefinedOutcome, evaluationResult } from "../../outcome/outcome-prompts.js";
import { ApiError } from "../errors.js";
import { newId } from "../store/ids.js";
import { primaryThreadId } from "../store/session-threads.js";
import { newEventId } from "../store/sessions.js";
import {
  type EventMapState,
  type ForkThread,
  failedSpanEnd,
  type OutEvent,
  sessionError,
  sessionEventsFor,
} from "./agent-event-map.js";
import { createEventWriter, type EventWriter } from "./event-writer.js";
import { threadEnded, threadStarted, threadTerminated } from "./fork-threads.js";
import { createHeldToolUses } from "./held-tool-uses.js";
import type { LiveSession, LiveSessions } from "./live-sessions.js";
import { callKey, createRecordedCalls } from "./recorded-calls.js";
import type { ServedSessionIo } from "./session-io.js";
import { SHUTDOWN_TURN_TEXT } from "./turn-queue.js";

/** What running served turns needs. */
export interface ServedTurnsOptions {
  io: ServedSessionIo;
  lives: LiveSessions;
  /** The model client; absent: every turn ends with a `session.error` saying no API key is set. */
  client?: ModelClient;
}

/** A call a resumed turn allows once without asking (the user allowed it, but it never ran). */
export interface AllowedCall {
  name: string;
  input: unknown;
}

/** How a turn runs besides its text. */
export interface TurnOptions {
  /** Calls allowed once without asking (a resumed turn's calls the user allowed but that never ran). */
  allowOnce?: readonly AllowedCall[];
  /** Its `session.status_running` is stored already (with the take of its message). */
  announced?: boolean;
  /** When it started (its stored `session.status_running`'s `processed_at`), to tell interrupts sent before it. */
  startedAt?: string;
  /**
   * The outcome the turn works toward (a `user.define_outcome`): `text` is ignored; the turn runs the
   * write–grade–revise loop until the grader is satisfied or the iterations are spent.
   */
  outcome?: DefinedOutcome;
}

/** What one outcome evaluation of a served turn needs (see {@link evaluate}). */
interface Evaluation extends Omit<GradeRequest, "onRequestEnd"> {
  /** 0-based: the evaluation's revision cycle. */
  iteration: number;
}

/**
 * Runs one outcome evaluation and streams it: `span.outcome_evaluation_start`, an `…_ongoing` after each of the
 * grader's model requests, then `…_end` with the result (`max_iterations_reached` when a revision is asked
 * for with no iteration left; `interrupted` when the turn was stopped), the explanation and the grader's usage.
 */
async function evaluate(writer: EventWriter, evaluation: Evaluation): Promise<LoopEvaluation> {
  const { outcome, iteration } = evaluation;
  const ids = { outcome_id: outcome.outcomeId, iteration };
  const [startId = ""] = writer.write([{ type: "span.outcome_evaluation_start", ...ids }]).ids;
  const verdict = await gradeAttempt({
    ...evaluation,
    onRequestEnd: () => writer.write([{ type: "span.outcome_evaluation_ongoing", ...ids }]),
  });
  const result = verdict.aborted
    ? "interrupted"
    : evaluationResult(verdict.result, iteration, outcome.maxIterations);
  writer.write([
    {
      type: "span.outcome_evaluation_end",
      ...ids,
      outcome_evaluation_start_id: startId,
      result,
      explanation: verdict.explanation,
      usage: verdict.usage,
    },
  ]);
  return { result, explanation: verdict.explanation };
}

/** What the `session.error` of a turn stopped because a tool call's use event could not be stored begins with. */
export const UNRECORDED_CALL_TEXT =
  "the event log could not store a tool call, so the call did not run and the turn stopped";

/** Why a turn running here is stopped before it ends. */
export type StopCause = "interrupt" | "forget" | "shutdown";

/** The engine turns of one instance's served sessions (one at a time per session: the caller queues them). */
export interface ServedTurns {
  /**
   * Runs one engine turn of `session` on `text`, appending every event it emits, and ends it with
   * `session.status_idle`. A stopped turn ends each model request span it left open as an error.
   */
  run(ws: string, session: BetaManagedAgentsSession, text: string, options?: TurnOptions): Promise<void>;
  /**
   * Stops the session's turn running here, if any: `interrupt` (`user.interrupt`) and `forget` (the session
   * was deleted or archived: its engine session is closed, not kept) end it idle with `end_turn`; `shutdown`
   * ends it with a `session.error` and `retries_exhausted`, except a turn waiting on the user, which is left
   * as it is stored (the next instance resumes it once answered). With `sentAt` (when the interrupt was
   * stored), a turn that started at or after it is not stopped: the interrupt was meant for an earlier one.
   */
  stop(sessionId: string, cause: StopCause, sentAt?: string): void;
  /** Stops every turn running here (see {@link ServedTurns.stop}). */
  stopAll(cause: StopCause): void;
  /** Resolves when every turn running here has ended or waits on the user. */
  quiet(): Promise<void>;
}

/** Whether `error` says the session is gone (deleted while its turn ran). Pure. */
export function sessionGone(error: unknown): boolean {
  return error instanceof ApiError && error.type === "not_found_error";
}

/** Served turns over `options`. */
export function createServedTurns(options: ServedTurnsOptions): ServedTurns {
  const { io, lives } = options;
  interface Running {
    abort: AbortController;
    cause?: StopCause;
    startedAt?: string;
    /** The turn's last status is an idle waiting on the user. */
    waiting: boolean;
  }
  const running = new Map<string, Running>();
  // Resolvers of `quiet()`, checked whenever a turn ends or starts or stops waiting.
  let quietWaiters: (() => void)[] = [];
  const checkQuiet = (): void => {
    if ([...running.values()].some((r) => !r.waiting)) return;
    const waiters = quietWaiters;
    quietWaiters = [];
    for (const done of waiters) done();
  };

  const run = async (
    ws: string,
    session: BetaManagedAgentsSession,
    text: string,
    turnOptions: TurnOptions = {},
  ): Promise<void> => {
    const turn: Running = {
      abort: new AbortController(),
      waiting: false,
      ...(turnOptions.startedAt === undefined ? {} : { startedAt: turnOptions.startedAt }),
    };
    const abort = turn.abort;
    // Open model request spans (their start ids), ended as errors when the turn stops before they end.
    const spans = new Set<string>();
    const inner = createEventWriter({
      append: (events, status, ids, threads, transcript) =>
        io.append(ws, session.id, events, status, ids, {
          threads,
          ...(transcript === undefined ? {} : { transcript }),
        }),
      newId: newEventId,
    });
    // Every write of the turn (its waits' too) goes through here: it follows the spans and whether the
    // turn waits on the user; once a shutdown left a waiting turn as stored, nothing more is written.
    let detached = false;
    const writer: EventWriter = {
      write(events, status, threads) {
        if (detached) return { ids: events.map(() => newEventId()), stored: Promise.resolve([]) };
        const written = inner.write(events, status, threads);
        for (const [i, e] of events.entries()) {
          const id = written.ids[i];
          if (e.type === "span.model_request_start" && id !== undefined) spans.add(id);
          if (e.type === "span.model_request_end") spans.delete(String(e.model_request_start_id));
          if (e.type === "session.status_idle" || e.type === "session.status_running") {
            turn.waiting =
              e.type === "session.status_idle" &&
              typeof e.stop_reason === "object" &&
              e.stop_reason !== null &&
              "type" in e.stop_reason &&
              e.stop_reason.type === "requires_action";
            checkQuiet();
          }
        }
        return written;
      },
      record: (rows) => (detached ? Promise.resolve() : inner.record(rows)),
      flush: () => inner.flush(),
      settled: () => inner.settled(),
    };
    running.set(session.id, turn);
    if (turnOptions.announced !== true) writer.write([{ type: "session.status_running" }], "running");
    let stopReason: OutEvent = { type: "end_turn" };
    let live: LiveSession | undefined;
    let keep = false;
    // The forks' child threads by agent id, and the agent ids of those that ended.
    const threads = new Map<string, ForkThread>();
    const ended = new Set<string>();
    const recorded = createRecordedCalls();
    // Why a call's use event could not be stored (the turn stops on it); undefined: every one was.
    let unrecorded: string | undefined;
    try {
      const client = options.client;
      if (client === undefined) {
        writer.write([
          sessionError("the server has no model API key: set ANTHROPIC_API_KEY before `skillwright serve`"),
        ]);
        stopReason = { type: "retries_exhausted" };
        return;
      }
      live = await lives.acquire(ws, session, client, writer);
      for (const call of turnOptions.allowOnce ?? []) live.confirm.allowOnce(call.name, call.input);
      const state: EventMapState = {
        requestStarts: new Map(),
        toolUses: new Map(),
        threads,
        customTools: live.customTools,
        mcpTools: live.mcp.refs,
      };
      const confirm = live.confirm;
      // Each tool use is stored once the engine decides on its call, with that decision.
      const held = createHeldToolUses({
        write(event, decision, callId) {
          const written = writer.write([confirm.annotate(event, decision)]);
          recorded.written(callKey(undefined, callId), written.stored);
          return written.ids[0];
        },
        stored(callId, id) {
          state.toolUses.set(callId, id);
          confirm.stored(callId, id);
        },
      });
      live.io.asked = (callId) => held.decide(callId, { behavior: "ask" });
      // No call runs before its use event is stored (the event log is the audit trail); one whose batch is
      // refused does not run, and the turn stops with a session.error saying why.
      live.io.beforeRun = async (call, signal) => {
        try {
          await recorded.ready(callKey(call.agentId, call.id), signal);
        } catch (error) {
          if (!signal.aborted && unrecorded === undefined) {
            unrecorded = error instanceof Error ? error.message : String(error);
            abort.abort();
          }
          throw error;
        }
      };
      const served = live.session;
      // Resources attached since the last turn are announced in this turn's message, never in the prompt.
      let announcement = await live.takeAnnouncement();
      // A background fork still running when the turn's answer is in: the turn waits for it (its thread's
      // events stream meanwhile) and the agent answers once more with its answer (docs/behaviour.md).
      const events = async function* (prompt: string) {
        yield* served.send(prompt, { signal: abort.signal });
        if (stopReason.type === "end_turn") yield* served.drainBackground({ signal: abort.signal });
      };
      // The main agent's last answer of the attempt running now (what an outcome's grader judges).
      let deliverable = "";
      const handle = (event: AgentEvent): void => {
        if (event.type === "done" && event.agentId === undefined) deliverable = event.result.text;
        if (event.type === "error" && event.agentId === undefined) stopReason = { type: "retries_exhausted" };
        if (event.type === "tool_decision" && event.agentId === undefined)
          held.decide(event.id, { behavior: event.behavior, ...(event.refused ? { refused: true } : {}) });
        if (event.type === "tool_end" && event.agentId === undefined) held.end(event.id);
        if (event.type === "tool_decision") recorded.decided(callKey(event.agentId, event.id));
        if (event.type === "fork_start") {
          const thread = { id: newId("sthr"), name: event.skill };
          const parent =
            event.parentAgentId === undefined ? undefined : state.threads.get(event.parentAgentId)?.id;
          const started = threadStarted(
            event,
            thread,
            parent ?? primaryThreadId(session.id),
            session.agent.execution_identity,
          );
          state.threads.set(event.agentId, thread);
          writer.write(started.events, undefined, [started.thread]);
        }
        if (event.type === "fork_end") {
          const thread = state.threads.get(event.agentId);
          if (thread !== undefined) writer.write(threadEnded(event, thread));
          ended.add(event.agentId);
        }
        for (const out of sessionEventsFor(event, state)) {
          // The main agent's tool uses wait for the engine's decision; a fork's are stored as they start.
          if (out.remember?.map === "toolUses" && event.agentId === undefined) {
            held.hold(out.remember.key, out.event);
            continue;
          }
          const written = writer.write([out.event]);
          const [id] = written.ids;
          if (out.remember?.map === "toolUses")
            recorded.written(callKey(event.agentId, out.remember.key), written.stored);
          if (id !== undefined && out.remember !== undefined)
            state[out.remember.map].set(out.remember.key, id);
        }
      };
      const outcome = turnOptions.outcome;
      const attempt = async (prompt: string) => {
        // The first attempt's message carries the announcement (an outcome's later attempts do not).
        const said = announcement === "" ? prompt : `${announcement}\n\n${prompt}`;
        announcement = "";
        for await (const event of events(said)) handle(event);
        return { deliverable, clean: stopReason.type === "end_turn" && !abort.signal.aborted };
      };
      // With an outcome, the turn is the write–grade–revise loop (docs/behaviour.md, "Outcomes").
      const files = live.files;
      if (outcome === undefined) await attempt(text);
      else {
        await runOutcomeLoop(outcome, {
          attempt,
          evaluate: (iteration, work) =>
            evaluate(writer, {
              client,
              model: session.agent.model.id,
              outcome,
              deliverable: work,
              files,
              signal: abort.signal,
              iteration,
            }),
        });
      }
      // Only a turn that ended cleanly, with every MCP server connected, leaves a session worth keeping;
      // anything else reopens from the database (and tries its MCP servers again) on the next turn.
      keep = stopReason.type === "end_turn" && !abort.signal.aborted && live.mcp.errors.length === 0;
    } catch (error) {
      writer.write([sessionError(error instanceof Error ? error.message : String(error))]);
      stopReason = { type: "retries_exhausted" };
    } finally {
      recorded.close();
      if (unrecorded !== undefined) {
        writer.write([sessionError(`${UNRECORDED_CALL_TEXT}: ${unrecorded}`)]);
        stopReason = { type: "retries_exhausted" };
      }
      if (turn.cause === "shutdown" && turn.waiting) detached = true;
      // A stopped turn's request never ends by itself: its span ends as an error.
      if (abort.signal.aborted && spans.size > 0) writer.write([...spans].map(failedSpanEnd));
      if (turn.cause === "shutdown") {
        writer.write([sessionError(SHUTDOWN_TURN_TEXT)]);
        stopReason = { type: "retries_exhausted" };
      }
      if (live !== undefined) {
        live.io.asked = undefined;
        live.io.beforeRun = undefined;
      }
      // A fork the turn left without an end (the turn failed under it) is over with the turn.
      for (const [agentId, thread] of threads)
        if (!ended.has(agentId)) writer.write([threadTerminated(thread)]);
      writer.write([{ type: "session.status_idle", stop_reason: stopReason, stop_details: null }], "idle");
      if (live !== undefined) {
        if (keep && turn.cause === undefined) lives.keep(session.id, live);
        else await lives.close(live).catch(() => {});
      }
      try {
        await writer.flush().catch((error: unknown) => {
          // A session deleted under its turn: nothing is left to tell.
          if (!sessionGone(error)) throw error;
        });
      } finally {
        if (running.get(session.id) === turn) running.delete(session.id);
        checkQuiet();
      }
    }
  };

  const stop = (sessionId: string, cause: StopCause, sentAt?: string): void => {
    const turn = running.get(sessionId);
    if (turn === undefined) return;
    if (sentAt !== undefined && turn.startedAt !== undefined && turn.startedAt >= sentAt) return;
    turn.cause ??= cause;
    turn.abort.abort();
  };

  return {
    run,
    stop,
    stopAll(cause) {
      for (const [sessionId, turn] of running)
        if (cause !== "shutdown" || !turn.waiting) stop(sessionId, cause);
    },
    quiet() {
      return new Promise((resolve) => {
        quietWaiters.push(resolve);
        checkQuiet();
      });
    },
  };
}
