import { skillChangedText } from "../approvals/capabilities.js";
import type { ApprovalState } from "../approvals/skill-approvals.js";
import { decide } from "../permissions/decide.js";
import type { PermissionDecision, PermissionRules } from "../permissions/decision.js";
import type { Skill } from "../skill/skill.js";
import { SKILL_TOOL_NAME } from "./prompt.js";

/** A property that makes a skill need permission before it runs (SPEC §4). */
export type UnsafeSkillProperty = "allowed-tools" | "hooks" | "fork" | "inline-shell" | "skill-tools";

const PROPERTY_TEXT: Record<UnsafeSkillProperty, string> = {
  "allowed-tools": "grants tools without asking",
  hooks: "registers hooks",
  fork: "runs as a forked sub-agent",
  "inline-shell": "runs shell commands while loading",
  "skill-tools": "declares tools that run commands",
};

/**
 * The properties of `skill` that are not safe: `allowed-tools`, `hooks`, `context: fork`, and inline shell in
 * the body (`bodyHasInlineShell`, judged by the caller; ignored for MCP skills, which never run it). Pure.
 */
export function unsafeSkillProperties(
  skill: Pick<Skill, "allowedTools" | "hooks" | "context" | "mcpServer" | "skillTools">,
  options: { bodyHasInlineShell: boolean },
): UnsafeSkillProperty[] {
  const found: UnsafeSkillProperty[] = [];
  if (skill.allowedTools.length > 0) found.push("allowed-tools");
  if (skill.hooks !== undefined && skill.hooks !== null) found.push("hooks");
  if (skill.context === "fork") found.push("fork");
  if (options.bodyHasInlineShell && skill.mcpServer === undefined) found.push("inline-shell");
  if (skill.skillTools?.some((t) => t.kind === "command") === true) found.push("skill-tools");
  return found;
}

/** True when the skill has only safe properties and may run without asking. Pure. */
export function isSafeSkill(
  skill: Pick<Skill, "allowedTools" | "hooks" | "context" | "mcpServer" | "skillTools">,
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
 * True for a skill whose unsafe properties need the user's approval before it runs (a project, `--add-dir`,
 * plugin or MCP skill with one of {@link unsafeSkillProperties}): the skills an approval pins. Pure.
 */
export function needsApproval(
  skill: Pick<Skill, "source" | "allowedTools" | "hooks" | "context" | "mcpServer" | "skillTools">,
  options: { bodyHasInlineShell: boolean },
): boolean {
  return !PLACED_BY_USER.has(skill.source) && unsafeSkillProperties(skill, options).length > 0;
}

/**
 * The permission decision for invoking `skill` (SPEC §4), through the shared `decide`: `Skill(name)` /
 * `Skill(prefix:*)` deny rules first (matched against the name and the alias), then ask and allow rules, then
 * allow when the skill is safe, comes from a source the user put there (managed, user, bundled), or is
 * `approval`-approved with nothing gained since, else ask with a prompt that says why. A skill held by its
 * approval (it gained capabilities) asks with `skill-changed: {what it gained}` as the prompt's end and as the reason
 * the model gets when no one can be asked, whatever allow rule or grant matches it (only a deny rule decides it
 * otherwise). Allowing the skill grants nothing more: its inline shell still goes
 * through the Bash check. Headless policy (deny instead of ask) is the caller's. Pure.
 */
export function decideSkill(options: {
  rules: PermissionRules;
  skill: Skill;
  cwd: string;
  bodyHasInlineShell: boolean;
  /** Rules granted for the current turn (an earlier skill's `allowed-tools`). */
  grants?: readonly string[];
  /** Where the skill stands against its content-pinned approval; absent: never approved. */
  approval?: ApprovalState;
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
    safe: unsafe.length === 0 || PLACED_BY_USER.has(skill.source) || options.approval?.state === "approved",
  });
  if (decision.behavior === "deny" || unsafe.length === 0) return decision;
  // An allow rule (or grant) never lifts a hold: approvals pinned to content decide what a changed skill may do.
  if (decision.behavior === "allow" && options.approval?.state !== "held") return decision;
  const asked = decision.behavior === "ask" ? decision.prompt : `Allow ${SKILL_TOOL_NAME}(${skill.name})?`;
  const why = unsafe.map((p) => PROPERTY_TEXT[p]).join(", ");
  const prompt = `${asked} The skill ${why}.`;
  if (options.approval?.state !== "held") return { behavior: "ask", prompt };
  const held = `skill-changed: ${skillChangedText(skill.name, options.approval.gains)}`;
  return { behavior: "ask", prompt: `${prompt} ${held}`, reason: held };
}
