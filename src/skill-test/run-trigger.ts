import type { AgentEvent } from "../agent/events.js";
import { isRecord } from "../is-record.js";
import { answersTo, type Skill } from "../skill/skill.js";
import type { TriggerCase } from "./cases.js";

/** One conversation turn the trigger runner can start: the prompt's events, then close. */
export interface TriggerSession {
  send(prompt: string, options: { signal: AbortSignal }): AsyncIterable<AgentEvent>;
  close(): Promise<void>;
}

/** The trigger rate of one prompt. */
export interface PromptRate {
  prompt: string;
  expected: "trigger" | "no-trigger";
  triggered: number;
  runs: number;
  /** Other skills the model called instead, in the order first called. */
  others: string[];
}

export interface TriggerResult {
  rates: PromptRate[];
  failures: string[];
  actual: string;
}

/**
 * The first Skill call of one run of `prompt` (the name as called, "" when the call named none), or undefined
 * when the model answered without one. The turn is stopped at that call (nothing of the skill needs to run to
 * know the model chose it).
 */
export async function skillCalled(
  open: () => Promise<TriggerSession>,
  prompt: string,
): Promise<string | undefined> {
  const session = await open();
  const stop = new AbortController();
  try {
    for await (const event of session.send(prompt, { signal: stop.signal })) {
      if (event.type === "tool_start" && event.name === "Skill" && event.agentId === undefined) {
        const input = event.input;
        stop.abort();
        return isRecord(input) && typeof input.skill === "string" ? input.skill.replace(/^\//, "") : "";
      }
    }
    return undefined;
  } finally {
    stop.abort();
    await session.close();
  }
}

/**
 * Runs a trigger case: each prompt `runs` times, each in a new session, and compares its rate of calls of
 * `skill` with the case's threshold. `onRun` is told after each run (for a progress bar).
 */
export async function runTriggerCase(
  skill: Skill,
  testCase: TriggerCase,
  deps: { open: () => Promise<TriggerSession>; onRun?: () => void },
): Promise<TriggerResult> {
  const rates: PromptRate[] = [];
  const prompts = [
    ...testCase.should.map((p) => ({ prompt: p, expected: "trigger" as const })),
    ...testCase.should_not.map((p) => ({ prompt: p, expected: "no-trigger" as const })),
  ];
  for (const { prompt, expected } of prompts) {
    let triggered = 0;
    const others: string[] = [];
    for (let i = 0; i < testCase.runs; i++) {
      const called = await skillCalled(deps.open, prompt);
      if (called !== undefined && answersTo(skill, called)) triggered += 1;
      else if (called !== undefined && called !== "" && !others.includes(called)) others.push(called);
      deps.onRun?.();
    }
    rates.push({ prompt, expected, triggered, runs: testCase.runs, others });
  }
  const failures: string[] = [];
  for (const r of rates) {
    const rate = r.triggered / r.runs;
    const ok = r.expected === "trigger" ? rate >= testCase.threshold : rate <= 1 - testCase.threshold;
    if (!ok) {
      const want =
        r.expected === "trigger"
          ? `≥ ${testCase.threshold}`
          : `≤ ${Number((1 - testCase.threshold).toFixed(4))}`;
      failures.push(
        `${JSON.stringify(r.prompt)}: triggered ${r.triggered}/${r.runs}, expected a rate ${want}`,
      );
    }
  }
  const actual = rates
    .map((r) => {
      const others = r.others.length === 0 ? "" : ` (called instead: ${r.others.join(", ")})`;
      return `${r.expected} ${r.triggered}/${r.runs}: ${r.prompt}${others}`;
    })
    .join("\n");
  return { rates, failures, actual };
}
