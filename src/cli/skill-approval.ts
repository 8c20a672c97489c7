import { createFileApprovalStore, defaultApprovalsPath } from "../approvals/approval-store.js";
import {
  type CapabilityGain,
  gainText,
  type SkillCapability,
  skillChangedText,
} from "../approvals/capabilities.js";
import { capabilityBody, createSkillApprovals, type SkillApprovals } from "../approvals/skill-approvals.js";
import { skillIdentity } from "../approvals/skill-files.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Engine } from "../engine/engine.js";
import { hasInlineShell } from "../inline/shell-regions.js";
import { createNodeFileModes } from "../io/atomic-write.js";
import type { Skill } from "../skill/skill.js";
import { needsApproval } from "../skill-tool/permissions.js";
import type { CliIo } from "./io.js";

/** Where a skill stands for `approve`, `show`, `list` and `doctor`. */
export type ApprovalReport =
  /** A skill the user put there, or one with only safe properties: it runs without an approval. */
  | { state: "not-needed"; capabilities: SkillCapability[] }
  | { state: "unapproved"; capabilities: SkillCapability[] }
  | { state: "approved"; capabilities: SkillCapability[] }
  | { state: "held"; capabilities: SkillCapability[]; gains: CapabilityGain[] };

/** The user's approvals (`~/.skillwright/approvals.json` under the engine's home), as the runs use them. */
export function engineApprovals(engine: Engine): SkillApprovals {
  return createSkillApprovals({
    fs: engine.fs,
    store: createFileApprovalStore({ fs: engine.fs, path: defaultApprovalsPath(engine.home) }),
    modes: createNodeFileModes(),
    now: () => Date.now(),
  });
}

/** Where `skill` stands against the user's approvals. Rejects when the approvals file cannot be read. */
export async function approvalReport(approvals: SkillApprovals, skill: Skill): Promise<ApprovalReport> {
  const body = await capabilityBody(skill);
  const { state, capabilities } = await approvals.check(skill, body);
  if (!needsApproval(skill, { bodyHasInlineShell: hasInlineShell(body) }))
    return { state: "not-needed", capabilities };
  return state.state === "held"
    ? { state: "held", capabilities, gains: state.gains }
    : { state: state.state, capabilities };
}

/**
 * The skills among `skills` held by their approval (they gained capabilities since), each with what it
 * gained. Reads only the skills that have an approval. An unreadable approvals file holds nothing here (runs
 * treat it as no approvals and ask).
 */
export async function heldSkills(
  engine: Engine,
  skills: readonly Skill[],
): Promise<Array<{ skill: Skill; gains: CapabilityGain[] }>> {
  const store = createFileApprovalStore({ fs: engine.fs, path: defaultApprovalsPath(engine.home) });
  const { records } = await store.load().catch(() => ({ records: new Map() }));
  if (records.size === 0) return [];
  const approvals = engineApprovals(engine);
  const held: Array<{ skill: Skill; gains: CapabilityGain[] }> = [];
  for (const skill of skills) {
    if (skill.source !== "project" && skill.source !== "plugin" && skill.source !== "mcp") continue;
    if (!records.has(await skillIdentity(engine.fs, skill))) continue;
    const report = await approvalReport(approvals, skill).catch(() => undefined);
    if (report?.state === "held") held.push({ skill, gains: report.gains });
  }
  return held;
}

/** The `skill-changed` warning of a held skill, naming what it gained. Pure. */
export function skillChangedDiagnostic(skill: Skill, gains: readonly CapabilityGain[]): Diagnostic {
  return diagnostic(
    "warning",
    "skill-changed",
    skillChangedText(skill.name, gains),
    skill.filePath === "" ? undefined : skill.filePath,
  );
}

/** The gains as one line: `+allowed-tools Bash, +inline shell "curl x | sh"`. Pure. */
export function gainsLine(gains: readonly CapabilityGain[]): string {
  return gains.map(gainText).join(", ");
}

/**
 * Before a run: one stderr line per skill held because it gained capabilities since it was approved, naming
 * them and the command that approves it (the `skill-changed` diagnostic says the same in `doctor`).
 */
export async function noticeHeld(engine: Engine, skills: readonly Skill[], io: CliIo): Promise<void> {
  for (const { skill, gains } of await heldSkills(engine, skills)) {
    io.stderr(
      `skillwright: skill ${skill.name} is held (skill-changed: ${gainsLine(gains)}); run \`skillwright approve ${skill.name}\` or see \`skillwright doctor\`\n`,
    );
  }
}
