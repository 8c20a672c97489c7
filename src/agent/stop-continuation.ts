import type { AgentResult } from "./events.js";

/** How many times a Stop-type hook may send an agent back to work in one run. */
export const MAX_STOP_CONTINUATIONS = 3;

/**
 * Runs an agent until a stop check lets it end: after a run that ended normally, `stopCheck(round)` may return
 * a reason to keep going, which `continueWith` adds as the next user input before the agent runs again; at most
 * {@link MAX_STOP_CONTINUATIONS} times. A run that ends any other way (error, abort, turn cap) is final.
 */
export async function runWithStopChecks(steps: {
  run: () => Promise<AgentResult>;
  stopCheck: (round: number) => Promise<string | undefined>;
  continueWith: (reason: string) => Promise<void>;
}): Promise<AgentResult> {
  for (let round = 0; ; round += 1) {
    const result = await steps.run();
    if (result.cause !== "end_turn" || round === MAX_STOP_CONTINUATIONS) return result;
    const reason = await steps.stopCheck(round);
    if (reason === undefined) return result;
    await steps.continueWith(reason);
  }
}
