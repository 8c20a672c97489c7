import { availableSkillsXml } from "../listing/available-skills.js";
import type { PromptPart, PromptText } from "./prompt-part.js";

/** The heading of the MCP server instructions section (Claude Code's wording). */
export const MCP_INSTRUCTIONS_HEADING = "# MCP Server Instructions";

/** The engine's own base prompt, used unless the host or a `SYSTEM.md` replaces it. */
export const DEFAULT_BASE_PROMPT = [
  "You are an AI agent working in the user's project through tools. Be direct and precise, and finish the task.",
  "",
  "Skills: packaged instructions for specific tasks, listed in <available_skills> below or in a <system-reminder>",
  "in the messages. When a listed skill fits the request, call the Skill tool with its name before doing the work",
  "yourself. A reminder may announce skills that become available later; they can be used from then on.",
].join("\n");

/** The guideline every prompt with tools ends its guidelines with. */
export const TOOL_ERROR_GUIDELINE =
  "When a tool result is an error, read it and adapt instead of repeating the same call.";

/** The line that introduces the skill listing in the system prompt (system mode). */
export const SKILL_CATALOG_INTRO =
  "The following skills provide specialized instructions for specific tasks. When a task matches a skill's description, call the Skill tool with its name first, then follow what it returns.";

/** A tool as the prompt lists it. */
export interface PromptTool {
  name: string;
  snippet?: string | undefined;
  guidelines?: readonly string[] | undefined;
}

/** A context file (`AGENTS.md`, `CLAUDE.md`) and its text. */
export interface ContextFile {
  path: string;
  text: string;
}

/**
 * Inputs of the system prompt: fixed for a session so the prompt cache holds (SPEC §3). `date` is
 * `YYYY-MM-DD`, taken once at session start.
 */
export interface SystemPromptInput {
  cwd: string;
  platform: string;
  date: string;
  /** Replaces {@link DEFAULT_BASE_PROMPT} (the `systemPrompt` option, or a `SYSTEM.md`). */
  base?: PromptText | undefined;
  /** The tools offered, in order: those with a snippet are listed, with their guidelines. */
  tools?: readonly PromptTool[];
  /** Appended texts (`APPEND_SYSTEM.md`, then `--append-system-prompt`), in order; a plain string is an option. */
  append?: string | readonly PromptText[] | undefined;
  /** Context files, in order (user dir first, then from the git root down to the cwd). */
  contextFiles?: readonly ContextFile[];
  /** The `instructions` of the connected MCP servers, in config order (taken once, when the session opens). */
  mcpInstructions?: ReadonlyArray<{ server: string; text: string }>;
  /** The skill listing, in system mode: each skill's name and description (the same bytes all session). */
  skillListing?: ReadonlyArray<{ name: string; description: string }> | undefined;
  /** False when the session's tools use no file system: then no working directory, platform or date. */
  filesystem?: boolean;
}

/** The MCP servers' instructions as one system-prompt section, servers in the given order; "" for none. Pure. */
export function mcpInstructionsSection(items: ReadonlyArray<{ server: string; text: string }>): string {
  const given = items.filter((i) => i.text.trim() !== "");
  if (given.length === 0) return "";
  return [
    MCP_INSTRUCTIONS_HEADING,
    "",
    "The following MCP servers have provided instructions for how to use their tools and resources:",
    ...given.flatMap((i) => ["", `## ${i.server}`, i.text.trim()]),
  ].join("\n");
}

/** The tools section: one `- {name}: {snippet}` line per tool with a snippet, then the guidelines; "" for none. Pure. */
export function toolsSection(tools: readonly PromptTool[]): string {
  const listed = tools.filter((t) => t.snippet !== undefined && t.snippet.trim() !== "");
  if (listed.length === 0) return "";
  const guidelines = [...new Set([...tools.flatMap((t) => t.guidelines ?? []), TOOL_ERROR_GUIDELINE])];
  return [
    "Available tools:",
    ...listed.map((t) => `- ${t.name}: ${t.snippet?.trim() ?? ""}`),
    "",
    "Guidelines:",
    ...guidelines.map((g) => `- ${g}`),
  ].join("\n");
}

/** The skill listing in the system prompt (SPEC §16): an intro, then `<available_skills>`; "" for none. Pure. */
export function skillListingSection(skills: ReadonlyArray<{ name: string; description: string }>): string {
  if (skills.length === 0) return "";
  return `${SKILL_CATALOG_INTRO}\n\n${availableSkillsXml(skills)}`;
}

/** One context file as a prompt section. Pure. */
export function contextFileSection(file: ContextFile): string {
  return `Instructions from ${file.path}:\n\n${file.text.trim()}`;
}

function appendTexts(append: SystemPromptInput["append"]): readonly PromptText[] {
  if (append === undefined) return [];
  return typeof append === "string" ? [{ text: append, origin: "option" }] : append;
}

/**
 * The system prompt's parts, in this order: base prompt, tools (snippets and guidelines), appended texts,
 * context files, MCP server instructions, the skill listing in the system prompt, then working directory, platform
 * and date (left out without a file system). Empty parts are left out. Pure.
 */
export function systemPromptParts(input: SystemPromptInput): PromptPart[] {
  const parts: PromptPart[] = [];
  const add = (kind: PromptPart["kind"], origin: string, text: string) => {
    if (text.trim() !== "") parts.push({ kind, origin, text: text.trim() });
  };
  add("base", input.base?.origin ?? "built-in", input.base?.text ?? DEFAULT_BASE_PROMPT);
  add("tools", "tools", toolsSection(input.tools ?? []));
  for (const a of appendTexts(input.append)) add("append", a.origin, a.text);
  for (const file of input.contextFiles ?? []) add("context", file.path, contextFileSection(file));
  add("mcp", "mcp", mcpInstructionsSection(input.mcpInstructions ?? []));
  add("skills", "skills", skillListingSection(input.skillListing ?? []));
  if (input.filesystem !== false) {
    add(
      "environment",
      "built-in",
      `Working directory: ${input.cwd}\nPlatform: ${input.platform}\nDate: ${input.date}`,
    );
  }
  return parts;
}

/** The parts joined into the prompt sent to the model (a blank line between parts). Pure. */
export function joinPromptParts(parts: readonly PromptPart[]): string {
  return parts.map((p) => p.text).join("\n\n");
}

/**
 * The main agent's system prompt (see {@link systemPromptParts}). The skill listing travels in the messages
 * unless the listing is in the system prompt, and the inputs are fixed at session open, so it stays byte-identical
 * for the whole session. Pure.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  return joinPromptParts(systemPromptParts(input));
}

/** The parts with their origins, as `doctor --prompt` prints them: a `── {kind} ({origin})` line before each. Pure. */
export function describePromptParts(parts: readonly PromptPart[]): string {
  return parts.map((p) => `── ${p.kind} (${p.origin})\n${p.text}`).join("\n\n");
}
