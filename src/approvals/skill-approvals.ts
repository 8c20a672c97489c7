import type { FileModeOps } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import type { ApprovalRecord, ApprovalStore } from "./approval-store.js";
import {
  type CapabilityGain,
  gainedCapabilities,
  type SkillCapability,
  skillCapabilities,
} from "./capabilities.js";
import { readSkillFiles, type SkillFiles, skillContentHash } from "./skill-files.js";

/**
 * Where a skill stands against its approval: never approved; approved (what it can do now is within what was
 * approved, whatever else changed); or held: it gained capabilities since (`gains`, never empty).
 */
export type ApprovalState =
  | { state: "unapproved" }
  | { state: "approved"; record: ApprovalRecord }
  | { state: "held"; record: ApprovalRecord; gains: CapabilityGain[] };

/** The state of a skill with `capabilities` now against its approval `record` (if any). Pure. */
export function approvalState(
  record: ApprovalRecord | undefined,
  capabilities: readonly SkillCapability[],
): ApprovalState {
  if (record === undefined) return { state: "unapproved" };
  const gains = gainedCapabilities(record.capabilities, capabilities);
  return gains.length === 0 ? { state: "approved", record } : { state: "held", record, gains };
}

/**
 * The body a skill's capabilities are read from: its text as loaded; empty for a literal body (an MCP prompt's,
 * which runs no inline shell) or one that cannot be loaded. Never rejects.
 */
export async function capabilityBody(skill: Skill, signal?: AbortSignal): Promise<string> {
  if (skill.literalBody === true) return "";
  return skill.loadBody(signal).catch(() => "");
}

/** What a skill is made of and can do now: its files (identity, scripts) and its capabilities with `body`. */
export async function inspectSkill(
  fs: FsOps,
  skill: Skill,
  body: string,
  modes?: FileModeOps,
): Promise<{ files: SkillFiles; capabilities: SkillCapability[] }> {
  const files = await readSkillFiles(fs, skill, modes);
  return { files, capabilities: skillCapabilities(skill, body, files.scripts) };
}

/** A skill checked against the approvals: its state, its capabilities now, and its identity. */
export interface ApprovalCheck {
  state: ApprovalState;
  capabilities: SkillCapability[];
  identity: string;
}

/** Approvals of skills pinned to their content (see `docs/behaviour.md`, "Approvals pinned to content"). */
export interface SkillApprovals {
  /** `body` is the skill's body as loaded (its inline shell is a capability). Rejects when the store is unreadable. */
  check(skill: Skill, body: string): Promise<ApprovalCheck>;
  /** Records the approval of the skill as it is now. Rejects, recording nothing, when the store cannot be written. */
  approve(skill: Skill, body: string): Promise<ApprovalRecord>;
}

/**
 * Approvals over a store: a check reads the skill's scripts (not its other files) and the store; an approval
 * also hashes every file of the skill. `modes` (host file systems) makes executable files scripts too; `now`
 * stamps approvals.
 */
export function createSkillApprovals(options: {
  fs: FsOps;
  store: ApprovalStore;
  modes?: FileModeOps;
  now: () => number;
}): SkillApprovals {
  const { fs, store, modes } = options;
  const inspect = (skill: Skill, body: string) => inspectSkill(fs, skill, body, modes);
  return {
    async check(skill, body) {
      const [{ files, capabilities }, loaded] = await Promise.all([inspect(skill, body), store.load()]);
      const record = loaded.records.get(files.identity);
      return { state: approvalState(record, capabilities), capabilities, identity: files.identity };
    },
    async approve(skill, body) {
      const { files, capabilities } = await inspect(skill, body);
      const { description, allowedTools, context, agent } = skill;
      const text = JSON.stringify({
        description,
        allowedTools,
        hooks: skill.hooks ?? null,
        context,
        agent,
        body,
      });
      const record: ApprovalRecord = {
        name: skill.name,
        source: skill.source,
        path:
          skill.filePath === "" ? skill.baseDir : skill.kind === "command" ? skill.filePath : skill.baseDir,
        hash: await skillContentHash(fs, skill, files.files, text),
        capabilities,
        approvedAt: new Date(options.now()).toISOString(),
      };
      await store.save(files.identity, record);
      return record;
    },
  };
}
