/**
 * Model ids, aliases and context windows. Pure data and lookups: no I/O, no SDK import.
 *
 * Aliases follow Claude Code (`sonnet`, `opus`, `haiku`) and point at the current models listed in the SDK's
 * `Model` type (`@anthropic-ai/sdk` 1.x). `inherit` is not an alias: callers replace it with the parent's model
 * before a request is built.
 */

/** The `effort` levels the Messages API accepts in `output_config.effort` (SPEC §1 `effort`). */
export const MODEL_EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type ModelEffort = (typeof MODEL_EFFORTS)[number];

/** Short names a skill or the CLI may give instead of a model id, and the concrete id each stands for. */
export const MODEL_ALIASES = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-5-5",
} as const;
export type ModelAlias = keyof typeof MODEL_ALIASES;

/** The model used when neither the CLI, the settings nor a skill names one. */
export const DEFAULT_MODEL: string = MODEL_ALIASES.sonnet;

/** The context window of a Claude model that is not in {@link MODEL_CONTEXT_WINDOWS}. */
export const DEFAULT_CLAUDE_CONTEXT_WINDOW = 200_000;

const ONE_MILLION = 1_000_000;

/**
 * Context windows in tokens, by model id without a date suffix. The 1M models are those the platform docs
 * list with a native 1M window; older Claude models (Opus 4.5, Sonnet 4.5, Haiku 4.5, …) have 200k.
 */
export const MODEL_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "claude-fable-5-2": ONE_MILLION,
  "claude-mythos-5-2": ONE_MILLION,
  "claude-opus-5-5": ONE_MILLION,
  "claude-sonnet-5-5": ONE_MILLION,
  "claude-haiku-5-5": ONE_MILLION,
  "claude-fable-5-1": ONE_MILLION,
  "claude-mythos-5-1": ONE_MILLION,
  "claude-fable-5": ONE_MILLION,
  "claude-mythos-5": ONE_MILLION,
  "claude-opus-5": ONE_MILLION,
  "claude-sonnet-5": ONE_MILLION,
  "claude-opus-4-8": ONE_MILLION,
  "claude-opus-4-7": ONE_MILLION,
  "claude-opus-4-6": ONE_MILLION,
  "claude-sonnet-4-6": ONE_MILLION,
  "claude-opus-4-5": 200_000,
  "claude-sonnet-4-5": 200_000,
  "claude-haiku-4-5": 200_000,
};

const DATE_SUFFIX = /-\d{8}$/;
const ALIAS_TO_ID: ReadonlyMap<string, string> = new Map(Object.entries(MODEL_ALIASES));

/** True when `value` is one of {@link MODEL_ALIASES} (case-insensitive, surrounding spaces ignored). */
export function isModelAlias(value: string): boolean {
  return ALIAS_TO_ID.has(value.trim().toLowerCase());
}

/**
 * The concrete model id for an alias (`sonnet` → `claude-sonnet-5-5`, case-insensitive); any other string is
 * returned trimmed and otherwise unchanged, so full ids, dated ids and third-party ids pass through.
 * `inherit` is returned as is: callers must resolve it first.
 */
export function resolveModel(idOrAlias: string): string {
  const trimmed = idOrAlias.trim();
  return ALIAS_TO_ID.get(trimmed.toLowerCase()) ?? trimmed;
}

/**
 * The context window in tokens of a model id or alias: the table entry (a `-YYYYMMDD` suffix is ignored),
 * {@link DEFAULT_CLAUDE_CONTEXT_WINDOW} for any other `claude-…` id, undefined for a model it does not know.
 */
export function contextWindowFor(model: string): number | undefined {
  const id = resolveModel(model).toLowerCase().replace(DATE_SUFFIX, "");
  const known = MODEL_CONTEXT_WINDOWS[id];
  if (known !== undefined) return known;
  return id.startsWith("claude-") ? DEFAULT_CLAUDE_CONTEXT_WINDOW : undefined;
}
