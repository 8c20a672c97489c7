/**
 * How long one call of a tool whose work follows the model's input (a regular expression, a glob, a walk of a
 * tree) may run: 10 seconds. At the deadline the call stops and the model gets `deadlineText`.
 */
export const TOOL_DEADLINE_MS = 10_000;

/** What the model reads when `tool` hit its deadline of `ms`: that it stopped, and what to narrow. Pure. */
export function deadlineText(tool: string, ms: number, narrow: string): string {
  return `${tool} stopped at its deadline of ${ms / 1000} seconds, before it finished; nothing it found is shown. ${narrow}`;
}
