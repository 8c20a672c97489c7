import type { TextBlockParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import type { SkillKind } from "../skill/skill.js";

/** The unknown-command reminder names at most this many available commands (SPEC §14.14). */
export const MAX_LISTED_COMMANDS = 13;

/** The prefix of the pi-style alias `/skill:{name}` (SPEC §6). */
export const SKILL_ALIAS_PREFIX = "skill:";

/**
 * The text the model gets for an expanded skill (SPEC §5, §7): `Base directory for this skill: {dir}⏎⏎{body}`,
 * or `{body}` alone for a legacy command or a skill with no base directory (e.g. from MCP). Wrapper tags in
 * the body (its own text, substituted args, shell output) are defused by `neutralizeMarkup`.
 */
export function skillExpansionText(kind: SkillKind, baseDir: string, body: string): string {
  const text =
    kind === "command" || baseDir === "" ? body : `Base directory for this skill: ${baseDir}\n\n${body}`;
  return neutralizeMarkup(text);
}

export interface SkillToolResultInput {
  /** The `id` of the model's `Skill` tool_use. */
  toolUseId: string;
  /** The skill name as the model invoked it. */
  name: string;
  kind: SkillKind;
  baseDir: string;
  /** The expanded body (substituted, inline shell run). */
  body: string;
}

/**
 * The content of the user message answering an inline `Skill` call (SPEC §5): the tool_result
 * `Launching skill: {name}`, then a text block with the expansion (see `skillExpansionText`).
 */
export function renderSkillToolResult(input: SkillToolResultInput): [ToolResultBlockParam, TextBlockParam] {
  return [
    { type: "tool_result", tool_use_id: input.toolUseId, content: `Launching skill: ${input.name}` },
    { type: "text", text: skillExpansionText(input.kind, input.baseDir, input.body) },
  ];
}

/**
 * The metadata block of a user slash command (SPEC §6): `<command-message>{name}</command-message>⏎
 * <command-name>/{name}</command-name>⏎<command-args>{args}</command-args>⏎` (ending with a line break after the
 * args line, as Claude Code sends it), the args line and its break left out when args are empty or blank. Wrapper
 * tags in the name or args are defused by `neutralizeMarkup`.
 */
export function commandMetadataText(name: string, args: string): string {
  const safeName = neutralizeMarkup(name);
  const head = `<command-message>${safeName}</command-message>\n<command-name>/${safeName}</command-name>`;
  return args.trim() === "" ? head : `${head}\n<command-args>${neutralizeMarkup(args)}</command-args>\n`;
}

export interface SlashCommandInput {
  name: string;
  args: string;
  kind: SkillKind;
  baseDir: string;
  /** The expanded body. */
  body: string;
}

/**
 * The content of the one user message a typed `/{name} {args}` becomes (SPEC §6): the metadata block, then the
 * expansion as a second text block. No tool_use is faked.
 */
export function renderSlashCommand(input: SlashCommandInput): [TextBlockParam, TextBlockParam] {
  return [
    { type: "text", text: commandMetadataText(input.name, input.args) },
    { type: "text", text: skillExpansionText(input.kind, input.baseDir, input.body) },
  ];
}

/**
 * The reply to a typed `/{name}` of a `user-invocable: false` skill (SPEC §14.14), `name` as typed; an answer,
 * not an error, and no model request is made.
 */
export function userInvocableRefusal(name: string): string {
  return `This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "${name}" skill for you.`;
}

/**
 * The `<system-reminder>` sent before a typed `/{name}` that names no command (SPEC §14.14): says it does not
 * exist and names the first `MAX_LISTED_COMMANDS` of `available` (in the order given, i.e. listing order), then
 * `and N more` for the rest; the sentence is left out when none are available.
 */
export function unknownCommandReminder(name: string, available: readonly string[]): string {
  const names = available.slice(0, MAX_LISTED_COMMANDS).map((n) => `/${n}`);
  const more = available.length - names.length;
  const list = more > 0 ? `${names.join(", ")} and ${more} more` : names.join(", ");
  const hint = names.length === 0 ? "" : ` Available commands: ${list}.`;
  const typed = neutralizeMarkup(name);
  return (
    `<system-reminder>\nThe user typed /${typed}, but no skill or command named "${typed}" exists.${hint}` +
    " Treat the message as ordinary text.\n</system-reminder>"
  );
}

/** The content of the user message for an unknown `/x`: the reminder, then the text exactly as typed. */
export function renderUnknownCommand(
  typed: string,
  name: string,
  available: readonly string[],
): [TextBlockParam, TextBlockParam] {
  return [
    { type: "text", text: unknownCommandReminder(name, available) },
    { type: "text", text: typed },
  ];
}

/** A parsed slash command line. */
export interface SlashCommand {
  /** The command name, `skill:` alias prefix removed. */
  name: string;
  /** The text after the name, trimmed; `""` when none. */
  args: string;
  /** The name exactly as typed (with `skill:` when the alias was used), for a host that wants to try it first. */
  typedName: string;
}

const SLASH_COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;

/**
 * Parses a typed line `/{name} {args}` (SPEC §6). The line must start with `/`; the name runs to the first
 * whitespace and holds no `/` (so `/usr/bin/x` is not a command); args are the rest, trimmed. `/skill:{name}`
 * is the alias of `/{name}`. Returns undefined for anything else (including `/`, `/skill:` alone). Pure.
 */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const match = SLASH_COMMAND.exec(line);
  const typedName = match?.[1];
  if (match === null || typedName === undefined) return undefined;
  const name = typedName.startsWith(SKILL_ALIAS_PREFIX)
    ? typedName.slice(SKILL_ALIAS_PREFIX.length)
    : typedName;
  if (name === "") return undefined;
  return { name, args: (match[2] ?? "").trim(), typedName };
}
