import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { availableSkillEntries } from "../listing/available-skills.js";
import type { Skill } from "../skill/skill.js";
import { loadPromptFiles, type PromptFileDirs, type PromptFiles } from "./load-prompt-files.js";
import type { PromptPart, PromptText } from "./prompt-part.js";
import { joinPromptParts, type PromptTool, systemPromptParts } from "./system-prompt.js";

/** Where the skill listing goes: a `<system-reminder>` listing in the messages (default), or the system prompt. */
export type SkillListingPlacement = "messages" | "system";

/** What a session's system prompt is assembled from. */
export interface SessionPromptOptions extends PromptFileDirs {
  fs: FsOps;
  platform: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Replaces the base prompt (wins over `SYSTEM.md`). */
  systemPrompt?: string | undefined;
  /** Appended after `APPEND_SYSTEM.md` (`--append-system-prompt`). */
  appendSystemPrompt?: string | undefined;
  tools: readonly PromptTool[];
  mcpInstructions?: ReadonlyArray<{ server: string; text: string }>;
  /** The skills listed in the system prompt (`skillListing: "system"`); undefined: the listing is in the messages. */
  systemListing?: readonly Skill[] | undefined;
  /** False when the session's tools use no file system (no working directory, platform, date). */
  filesystem?: boolean | undefined;
}

/** The assembled system prompt, its parts with their origins, and what was wrong with the prompt files. */
export interface SessionPrompt {
  text: string;
  parts: PromptPart[];
  /** The names listed in the system prompt: the listing deltas in the messages leave them out. */
  systemListingNames: string[];
  diagnostics: Diagnostic[];
}

/**
 * Reads the prompt files and assembles a session's system prompt (see `systemPromptParts` for the order): the
 * `systemPrompt` option wins over `SYSTEM.md`; `APPEND_SYSTEM.md` then `appendSystemPrompt` are appended. Never
 * rejects for a missing or unreadable file.
 */
export async function assembleSessionPrompt(options: SessionPromptOptions): Promise<SessionPrompt> {
  return sessionPromptFrom(await loadPromptFiles(options.fs, options), options);
}

/**
 * Assembles a session's system prompt from prompt files already read (see {@link assembleSessionPrompt}); the
 * files' diagnostics come back with it. Pure.
 */
export function sessionPromptFrom(
  files: PromptFiles,
  options: Omit<SessionPromptOptions, "fs" | "home" | "projectDir" | "gitRoot">,
): SessionPrompt {
  const base: PromptText | undefined =
    options.systemPrompt === undefined ? files.system : { text: options.systemPrompt, origin: "option" };
  const append: PromptText[] = [
    ...(files.append === undefined ? [] : [files.append]),
    ...(options.appendSystemPrompt === undefined
      ? []
      : [{ text: options.appendSystemPrompt, origin: "option" }]),
  ];
  const listed =
    options.systemListing === undefined ? undefined : availableSkillEntries(options.systemListing);
  const parts = systemPromptParts({
    cwd: options.cwd,
    platform: options.platform,
    date: options.date,
    base,
    tools: options.tools,
    append,
    contextFiles: files.contextFiles,
    mcpInstructions: options.mcpInstructions ?? [],
    skillListing: listed,
    filesystem: options.filesystem !== false,
  });
  return {
    text: joinPromptParts(parts),
    parts,
    systemListingNames: (listed ?? []).map((c) => c.name),
    diagnostics: files.diagnostics,
  };
}
