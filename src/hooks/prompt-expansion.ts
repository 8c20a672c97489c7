import type { Skill } from "../skill/skill.js";
import type { HookPayload } from "./dispatch.js";

/** Where a typed command came from, in Claude Code's `command_source` words. Pure. */
export function commandSource(skill: Pick<Skill, "source">): "plugin" | "mcp" | "skill" {
  if (skill.source === "plugin") return "plugin";
  if (skill.source === "mcp") return "mcp";
  return "skill";
}

/**
 * The UserPromptExpansion payload (Claude Code's field names) for a typed `/name args` that expanded to
 * `prompt`: `expansion_type` (`mcp_prompt` for an MCP prompt, else `slash_command`), `command_name`,
 * `command_args`, `command_source` and `prompt`. Matchers match `command_name`. Pure.
 */
export function userPromptExpansionPayload(
  skill: Pick<Skill, "name" | "source" | "kind">,
  args: string,
  prompt: string,
): HookPayload {
  return {
    expansion_type: skill.source === "mcp" && skill.kind === "command" ? "mcp_prompt" : "slash_command",
    command_name: skill.name,
    command_args: args,
    command_source: commandSource(skill),
    prompt,
  };
}
