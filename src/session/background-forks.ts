import type { AgentEvent } from "../agent/events.js";
import { backgroundAnswerReminder } from "../fork/background.js";
import type { ForkOutcome } from "../fork/fork-request.js";

/**
 * The background forks of one session: those still running, and the answers of those that finished but are not
 * yet in a request of the main agent. Each answer is taken exactly once.
 */
export interface BackgroundForks {
  /** Runs `run` as the background fork `handle` of skill `skill`; its answer waits for `take`. */
  start(handle: string, skill: string, run: () => Promise<ForkOutcome>): void;
  /** How many are still running. */
  running(): number;
  /** True when an answer waits to be taken. */
  waiting(): boolean;
  /** Resolves when none is running (at once when none is). */
  settled(): Promise<void>;
  /** The reminders of the answers that wait, in the order they finished; they are not given again. */
  take(): string[];
}

/**
 * Tracks the session's background forks. `emit` gets a `background_result` for each as its answer is ready
 * (the session routes it to the turn running then, or holds it for the next one).
 */
export function createBackgroundForks(emit: (event: AgentEvent) => void): BackgroundForks {
  const live = new Set<Promise<void>>();
  const answers: string[] = [];
  let idle: (() => void)[] = [];
  const checkIdle = () => {
    if (live.size > 0) return;
    const waiters = idle;
    idle = [];
    for (const done of waiters) done();
  };
  return {
    start(handle, skill, run) {
      const done = run().then(
        (outcome) => {
          answers.push(backgroundAnswerReminder(handle, outcome.text));
          emit({ type: "background_result", agentId: handle, skill, ok: outcome.ok, text: outcome.text });
        },
        // `run` never rejects (runFork turns failures into outcomes); a bug still leaves an answer.
        (error: unknown) => {
          const text = `Skill "${skill}" failed (forked execution): ${error instanceof Error ? error.message : String(error)}`;
          answers.push(backgroundAnswerReminder(handle, text));
          emit({ type: "background_result", agentId: handle, skill, ok: false, text });
        },
      );
      const tracked = done.finally(() => {
        live.delete(tracked);
        checkIdle();
      });
      live.add(tracked);
    },
    running: () => live.size,
    waiting: () => answers.length > 0,
    settled: () =>
      new Promise((resolve) => {
        idle.push(resolve);
        checkIdle();
      }),
    take: () => answers.splice(0),
  };
}
