/**
 * Model ids, aliases and context windows. Pure data and lookups: no I/O, no SDK import.
 *
 * Aliases follow Claude Code (`sonnet`, `opus`, `haiku`) and point at the current models listed in the SDK's
 * `Model` type (`@anthropic-ai/sdk` 1.x). `inherit` is not an alias: callers replace it with the parent's model
 * before a request is built.
 */

/** The `effort` levels the Messages API accepts in `output_config.effort` (SPEC §1 `effort`). */
export const MODEL_EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
/** One of {@link MODEL_EFFORTS}: how hard the model thinks (`--effort`, a skill's `effort`). */
export type ModelEffort = (typeof MODEL_EFFORTS)[number];

/** The effort sent to a model that supports effort when nothing sets one (SPEC §14.2). */
export const DEFAULT_EFFORT: ModelEffort = "medium";

/**
 * The models that accept `output_config.effort`, by id without a date suffix (the platform docs' list, plus the
 * newest Fable and Mythos models of {@link MODEL_CONTEXT_WINDOWS}). Any other model gets no effort field.
 */
export const EFFORT_MODELS: ReadonlySet<string> = new Set([
  "claude-fable-5-2",
  "claude-mythos-5-2",
  "claude-fable-5-1",
  "claude-mythos-5-1",
  "claude-fable-5",
  "claude-mythos-5",
  "claude-mythos-preview",
  "claude-opus-5-5",
  "claude-opus-5",
  "claude-opus-4-8",
  "claude-opus-4-7",
  "claude-opus-4-6",
  "claude-opus-4-5",
  "claude-sonnet-5-5",
  "claude-sonnet-5",
  "claude-sonnet-4-6",
  "claude-haiku-5-5",
]);

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
 * True when a model takes deferred tools (`defer_loading` and `tool_reference`): the Claude models that take an
 * effort setting, and Sonnet 4.5; not Haiku models. Any other model gets every tool's full definition. Pure.
 */
export function supportsDeferredTools(model: string): boolean {
  const id = resolveModel(model).toLowerCase().replace(DATE_SUFFIX, "");
  if (id.startsWith("claude-haiku-")) return false;
  return EFFORT_MODELS.has(id) || id === "claude-sonnet-4-5";
}

/** True when a model id or alias accepts `output_config.effort` ({@link EFFORT_MODELS}; date suffix ignored). */
export function supportsEffort(model: string): boolean {
  return EFFORT_MODELS.has(resolveModel(model).toLowerCase().replace(DATE_SUFFIX, ""));
}

/**
 * The effort a request to `model` carries (SPEC §14.2): `effort` when set, else {@link DEFAULT_EFFORT}, for a
 * model that supports effort; undefined (no field) for any other model, even when `effort` is set. Pure.
 */
export function requestEffort(model: string, effort: ModelEffort | undefined): ModelEffort | undefined {
  if (!supportsEffort(model)) return undefined;
  return effort ?? DEFAULT_EFFORT;
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
