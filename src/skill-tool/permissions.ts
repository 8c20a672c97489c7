import { decide } from "../permissions/decide.js";
import type { PermissionDecision, PermissionRules } from "../permissions/decision.js";
import type { Skill } from "../skill/skill.js";
import { SKILL_TOOL_NAME } from "./prompt.js";

/** A property that makes a skill need permission before it runs (SPEC §4). */
export type UnsafeSkillProperty = "allowed-tools" | "hooks" | "fork" | "inline-shell";

const PROPERTY_TEXT: Record<UnsafeSkillProperty, string> = {
  "allowed-tools": "grants tools without asking",
  hooks: "registers hooks",
  fork: "runs as a forked sub-agent",
  "inline-shell": "runs shell commands while loading",
};

/**
 * The properties of `skill` that are not safe: `allowed-tools`, `hooks`, `context: fork`, and inline shell in
 * the body (`bodyHasInlineShell`, judged by the caller; ignored for MCP skills, which never run it). Pure.
 */
export function unsafeSkillProperties(
  skill: Pick<Skill, "allowedTools" | "hooks" | "context" | "mcpServer">,
  options: { bodyHasInlineShell: boolean },
): UnsafeSkillProperty[] {
  const found: UnsafeSkillProperty[] = [];
  if (skill.allowedTools.length > 0) found.push("allowed-tools");
  if (skill.hooks !== undefined && skill.hooks !== null) found.push("hooks");
  if (skill.context === "fork") found.push("fork");
  if (options.bodyHasInlineShell && skill.mcpServer === undefined) found.push("inline-shell");
  return found;
}

/** True when the skill has only safe properties and may run without asking. Pure. */
export function isSafeSkill(
  skill: Pick<Skill, "allowedTools" | "hooks" | "context" | "mcpServer">,
  options: { bodyHasInlineShell: boolean },
): boolean {
  return unsafeSkillProperties(skill, options).length === 0;
}

/**
 * Sources whose skills the user (or an admin, or this package) put in place: invoking one needs no question.
 * Project skills (and `--add-dir` ones) are not among them: a cloned repository names them, and their hooks,
 * granted tools and inline shell must not run before the user approves (a rule, `--allowedTools`, or a
 * question). Plugin and MCP skills come from someone else too.
 */
const PLACED_BY_USER: ReadonlySet<Skill["source"]> = new Set(["managed", "user", "app", "bundled"]);

/**
 * The permission decision for invoking `skill` (SPEC §4), through the shared `decide`: `Skill(name)` /
 * `Skill(prefix:*)` deny rules first (matched against the name and the alias), then ask and allow rules, then
 * allow when the skill is safe or comes from a source the user put there (managed, user, bundled), else ask with a prompt that says why. Allowing the skill grants nothing more: its
 * inline shell still goes through the Bash check. Headless policy (deny instead of ask) is the caller's. Pure.
 */
export function decideSkill(options: {
  rules: PermissionRules;
  skill: Skill;
  cwd: string;
  bodyHasInlineShell: boolean;
  /** Rules granted for the current turn (an earlier skill's `allowed-tools`). */
  grants?: readonly string[];
}): PermissionDecision {
  const { skill } = options;
  const unsafe = unsafeSkillProperties(skill, options);
  const subject =
    skill.alias === undefined
      ? { kind: "skill" as const, name: skill.name }
      : { kind: "skill" as const, name: skill.name, alias: skill.alias };
  const decision = decide({
    rules: options.rules,
    tool: SKILL_TOOL_NAME,
    subject,
    cwd: options.cwd,
    grants: options.grants ?? [],
    safe: unsafe.length === 0 || PLACED_BY_USER.has(skill.source),
  });
  if (decision.behavior !== "ask" || unsafe.length === 0) return decision;
  const why = unsafe.map((p) => PROPERTY_TEXT[p]).join(", ");
  return { behavior: "ask", prompt: `${decision.prompt} The skill ${why}.` };
}
