import type { ShellOps } from "../io/shell.js";
import type { Skill } from "../skill/skill.js";
import { type CheckCommand, expandInline, type InlineExpansion } from "./inline-shell.js";
import type { SubstitutionVars } from "./substitute.js";

/** What an invocation supplies beyond the skill itself. */
export interface SkillInvocation {
  args: string;
  sessionId: string;
  /** The project dir: `${CLAUDE_PROJECT_DIR}` and the cwd of inline commands. */
  projectDir: string;
  shellOps: ShellOps;
  checkCommand: CheckCommand;
  signal?: AbortSignal;
  timeoutMs?: number;
}

type ExpandableSkill = Pick<
  Skill,
  "name" | "kind" | "source" | "baseDir" | "plugin" | "mcpServer" | "argumentNames" | "shell" | "loadBody"
>;

/**
 * The variables a skill's body may use: `${CLAUDE_SKILL_DIR}`/`${SKILL_DIR}` for directory skills only (legacy
 * commands and dir-less skills leave them as written, as Claude Code does), session id and project dir always,
 * `${CLAUDE_PLUGIN_ROOT}`/`${CLAUDE_PLUGIN_DATA}` for plugin skills only. Pure.
 */
export function skillVars(
  skill: Pick<Skill, "kind" | "baseDir" | "plugin">,
  invocation: Pick<SkillInvocation, "sessionId" | "projectDir">,
): SubstitutionVars {
  return {
    skillDir: skill.kind === "skill" && skill.baseDir !== "" ? skill.baseDir : undefined,
    sessionId: invocation.sessionId,
    projectDir: invocation.projectDir,
    pluginRoot: skill.plugin?.root,
    pluginData: skill.plugin?.dataDir,
    userConfig: skill.plugin?.userConfig,
  };
}

/** False for skills from MCP (SPEC §12): their inline shell markers stay literal. */
export function mayRunInlineShell(skill: Pick<Skill, "source" | "mcpServer">): boolean {
  return skill.source !== "mcp" && skill.mcpServer === undefined;
}

/**
 * Loads a skill's body and expands it (`expandInline`) with the skill's argument names, `shell`, variables and
 * shell permission. Returns the expanded body without the `Base directory` line (see `skillExpansionText`).
 * Never rejects: an unreadable body is `{ ok: false, message: "Could not read skill {name}: {reason}" }`.
 * Creating `${CLAUDE_PLUGIN_DATA}` on first use is the caller's job.
 */
export async function expandSkill(
  skill: ExpandableSkill,
  invocation: SkillInvocation,
): Promise<InlineExpansion> {
  let body: string;
  try {
    body = await skill.loadBody(invocation.signal);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Could not read skill ${skill.name}: ${reason}` };
  }
  return expandInline(body, {
    args: invocation.args,
    argumentNames: skill.argumentNames,
    vars: skillVars(skill, invocation),
    allowShell: mayRunInlineShell(skill),
    shell: skill.shell,
    cwd: invocation.projectDir,
    shellOps: invocation.shellOps,
    checkCommand: invocation.checkCommand,
    signal: invocation.signal,
    timeoutMs: invocation.timeoutMs,
  });
}
