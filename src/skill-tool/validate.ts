import * as z from "zod";
import { lazy } from "../lazy.js";
import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import type { Skill } from "../skill/skill.js";
import { type DisabledSkill, disabledSkillText } from "../skill-filter.js";
import { formatInputError } from "../tools/define-tool.js";
import { isUiCommand } from "./builtin-commands.js";
import { closestName } from "./did-you-mean.js";

/**
 * The Skill tool's input schema, `{ skill, args? }` and nothing else (SPEC §4), built on first use: the happy
 * path (`parseSkillToolInput`) never needs it, and zod is costly at start-up.
 */
export const SkillToolInput = lazy(() =>
  z
    .object({
      skill: z.string().describe('The skill name exactly as listed, e.g. "commit" or "my-plugin:review"'),
      args: z.string().optional().describe("Optional arguments for the skill, as one string"),
    })
    .strict(),
);
export type SkillToolInput = z.infer<ReturnType<typeof SkillToolInput>>;

/**
 * The Skill tool input read without zod, or `undefined` when this fast path cannot decide. It takes only what
 * `SkillToolInput()` accepts, with the value zod would give: a non-null, non-array object whose keys (`for…in`,
 * as zod's strict check walks them) are `skill` and optionally `args`, with a string `skill` and a string or
 * `undefined` `args` (an `args` key holding `undefined` is kept, as zod keeps it). Anything else is `undefined`.
 */
export function readSkillToolInputFast(raw: unknown): SkillToolInput | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  for (const key in raw) if (key !== "skill" && key !== "args") return undefined;
  const skill: unknown = "skill" in raw ? raw.skill : undefined;
  if (typeof skill !== "string") return undefined;
  if (!("args" in raw)) return { skill };
  const args: unknown = raw.args;
  if (args !== undefined && typeof args !== "string") return undefined;
  return { skill, args };
}

/** The message for a call without `skill` (SPEC §14.7), bare: wrap it with `toolUseError`. */
export const MISSING_SKILL_MESSAGE =
  "InputValidationError: Skill failed due to the following issue:\nThe required parameter `skill` is missing";

/**
 * Parses a Skill tool call's raw input: `readSkillToolInputFast` first, then `SkillToolInput()` for whatever it
 * left undecided, so that the schema is built only for odd input. Failure message (bare, wrap it with
 * `toolUseError`): {@link MISSING_SKILL_MESSAGE} for an object without `skill`, else `Invalid input for Skill:
 * {path or (input)}: {zod issue}; …. Call it as {"skill": "<name>", "args": "<optional>"}.` Pure.
 */
export function parseSkillToolInput(
  raw: unknown,
): { ok: true; input: SkillToolInput } | { ok: false; message: string } {
  const fast = readSkillToolInputFast(raw);
  if (fast !== undefined) return { ok: true, input: fast };
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    if (!("skill" in raw) || raw.skill === undefined) return { ok: false, message: MISSING_SKILL_MESSAGE };
  }
  const parsed = SkillToolInput().safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    message: `${formatInputError("Skill", parsed.error)}. Call it as {"skill": "<name>", "args": "<optional>"}.`,
  };
}

/** The outcome of validating a Skill tool call. `name` is the name as called, after normalisation. */
export type SkillCallValidation = { ok: true; skill: Skill; name: string } | { ok: false; message: string };

/**
 * Wraps a validation message the way the Skill tool returns it: `<tool_use_error>{message}</tool_use_error>`,
 * with wrapper tags in the message (a name or shell pattern as written) defused by `neutralizeMarkup`.
 */
export function toolUseError(message: string): string {
  return `<tool_use_error>${neutralizeMarkup(message)}</tool_use_error>`;
}

/** `/deploy` and ` deploy ` → `deploy`. One leading slash is stripped; case is kept. */
export function normalizeSkillName(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.startsWith("/") ? trimmed.slice(1).trim() : trimmed;
}

/** The skill answering to `name`: a name match beats an alias match. Case-sensitive. */
export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  return skills.find((s) => s.name === name) ?? skills.find((s) => s.alias === name);
}

function unknownSkillMessage(
  name: string,
  skills: readonly Skill[],
  pluginSkillNames: readonly string[],
): string {
  const base = `Unknown skill: ${name}`;
  if (!name.includes(":")) {
    const suffix = `:${name}`;
    const namespaced = new Set<string>();
    for (const s of skills) if (!s.disableModelInvocation && s.name.endsWith(suffix)) namespaced.add(s.name);
    for (const n of pluginSkillNames) if (n.endsWith(suffix)) namespaced.add(n);
    const [only] = namespaced;
    if (namespaced.size === 1 && only !== undefined && only.length > suffix.length) {
      return `${base}. Did you mean ${only}? Invoke it by that full name.`;
    }
  }
  const candidates: string[] = [];
  for (const s of skills) {
    if (s.disableModelInvocation) continue;
    candidates.push(s.name);
    if (s.alias !== undefined) candidates.push(s.alias);
  }
  const suggestion = closestName(name, candidates);
  return suggestion === undefined ? base : `${base}. Did you mean ${suggestion}?`;
}

/** True for an MCP server's prompt exposed as a user command (`source: "mcp"`, `kind: "command"`). */
function isMcpPrompt(skill: Skill): boolean {
  return skill.source === "mcp" && skill.kind === "command";
}

/** The refusal for a UI-only command called through the Skill tool (SPEC §14.6), bare. */
export function uiCommandMessage(name: string): string {
  return `${name} is a UI command, not a skill. Ask the user to run /${name} themselves — it cannot be invoked via the Skill tool.`;
}

/** The refusal for a `disable-model-invocation` skill (SPEC §4, §14.7), bare. */
export function disabledModelInvocationMessage(name: string): string {
  return (
    `Skill ${name} cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /${name} ` +
    "themselves — it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by other means — " +
    "it is reserved for explicit user invocation."
  );
}

/**
 * Validates a Skill tool call against the skills the model may call now (SPEC §4), in order: empty name →
 * `Skill name is empty`; a leading `/` is stripped (an input of just `/` is empty too); a name no skill answers
 * to (names are case-sensitive, aliases count) → `uiCommandMessage` for a UI-only command such as `help`;
 * `Unknown skill: {n}.` (with a period, nothing more) for a skill found but skipped by an error; else
 * `Unknown skill: {n}` plus either the bare-name hint when exactly one `{x}:{n}` exists among `skills` and
 * `pluginSkillNames`, or `. Did you mean {m}?` for a callable name within two edits (`closestName`); an MCP
 * prompt (a user command only) → `Unknown skill: {n}`, and so does a skill `skillOverrides` makes `user-invocable-only`; `disable-model-invocation` →
 * `disabledModelInvocationMessage`. `skills` must already exclude un-activated
 * conditional skills. Messages are returned bare; wrap them with `toolUseError`. Pure.
 */
export function validateSkillCall(
  input: SkillToolInput,
  options: {
    /** The skills the model may call now. */
    skills: readonly Skill[];
    /** Extra namespaced names for the bare-name hint only (e.g. plugin skills not offered right now). */
    pluginSkillNames?: readonly string[];
    /** The disabled skill called `name` (settings `skills.disabled`, `--skills`, `--no-skills`), if any. */
    disabled?: (name: string) => DisabledSkill | undefined;
    /** True when a skill called `name` was found but skipped by an error at discovery. */
    skipped?: (name: string) => boolean;
    /** The refusal for a skill the session has but the calling agent's scope leaves out, else undefined. */
    outOfScope?: (name: string) => string | undefined;
  },
): SkillCallValidation {
  const name = normalizeSkillName(input.skill);
  if (name === "") return { ok: false, message: "Skill name is empty" };
  const skill = findSkill(options.skills, name);
  if (skill === undefined) {
    const hidden = options.outOfScope?.(name);
    if (hidden !== undefined) return { ok: false, message: hidden };
    const off = options.disabled?.(name);
    if (off !== undefined) return { ok: false, message: disabledSkillText(off.skill.name, off.by) };
    if (isUiCommand(name)) return { ok: false, message: uiCommandMessage(name) };
    // Found but skipped (over the size limit, unreadable, …): Claude Code's text ends with a period here.
    if (options.skipped?.(name) === true) return { ok: false, message: `Unknown skill: ${name}.` };
    return { ok: false, message: unknownSkillMessage(name, options.skills, options.pluginSkillNames ?? []) };
  }
  // An MCP prompt is for people (a typed `/name`); to the model it does not exist, as in Claude Code.
  if (isMcpPrompt(skill)) return { ok: false, message: `Unknown skill: ${name}` };
  // `skillOverrides` `user-invocable-only`: the model is never told of the skill, so it does not exist for it.
  if (skill.override?.state === "user-invocable-only")
    return { ok: false, message: `Unknown skill: ${name}` };
  if (skill.disableModelInvocation) return { ok: false, message: disabledModelInvocationMessage(name) };
  return { ok: true, skill, name };
}
