import type { Skill } from "../skill/skill.js";
import type { DisabledBy } from "../skill-filter.js";
import { type Description, withheldChars } from "./description.js";

// What the model sees of each skill (issue #25 item 5): one decision, made by `skillVisibility`, that the
// listing formats its entries from, `doctor` and `skillwright search` print, and telemetry counts.

/** Why the model sees nothing of a skill in the listing. */
export type AbsentReason =
  /** Left out because even its name did not fit the budget (found with `SkillSearch`). */
  | "budget"
  /** Switched off by a settings file's `skills.disabled` or by `/skills off` in the session. */
  | "disabled"
  /** Switched off by this run's `--skills` / `--no-skills`. */
  | "filtered"
  /** A need it declares is not met (a command not on PATH, a variable unset, an MCP server or skill missing). */
  | "unmet"
  /** A settings file's `skillOverrides` says `user-invocable-only`: a typed `/name` runs it, the model is not told. */
  | "override"
  /** Its `available-to` (or the agent type's allowed/disallowed skills) keeps it from this agent. */
  | "scope"
  /** A conditional skill (`paths:`) that no touched file has activated yet. */
  | "conditional"
  /** `disable-model-invocation: true`: only a person's `/name` runs it. */
  | "model-invocation-disabled"
  /** Not in this listing for another reason (the catalog went in the system prompt, say). */
  | "unlisted";

/** Every absent reason, in the order `skillVisibility` checks them. */
export const ABSENT_REASONS: readonly AbsentReason[] = [
  "disabled",
  "filtered",
  "unmet",
  "override",
  "model-invocation-disabled",
  "scope",
  "conditional",
  "budget",
  "unlisted",
];

/** What the model sees of one skill in the listing. */
export type Visibility =
  /** Its whole description. */
  | { state: "full" }
  /** Its description shortened by the per-description cap: `droppedChars` are not shown. */
  | { state: "cut"; droppedChars: number }
  /**
   * Its name only, to fit the budget or by a `skillOverrides` `name-only`: its `droppedChars` chars of description
   * are not shown.
   */
  | { state: "name-only"; reason: "budget" | "override"; droppedChars: number }
  /** Nothing, and why (`detail`: the unmet need, for `unmet`). */
  | { state: "absent"; reason: AbsentReason; detail?: string };

/** The visibility states, most shown first. */
export type VisibilityState = Visibility["state"];

/** Where the packing put a listable skill (SPEC §3). */
export type Placement = "full" | "name-only" | "omitted";

/** Everything `skillVisibility` decides from, for one skill. */
export interface VisibilityFacts {
  /** Switched off, and how (see {@link switchedOffReason}); undefined when enabled. */
  switchedOff?: SwitchedOff | undefined;
  /** For `unmet`: which need, in words (`missing command gh on PATH`). */
  switchedOffDetail?: string | undefined;
  disableModelInvocation: boolean;
  /** The `skillOverrides` state the catalog gave the skill, if any. */
  override?: "name-only" | "user-invocable-only" | undefined;
  /** The agent's scope lets it see the skill (`inScope`). */
  inScope: boolean;
  /** False for a conditional skill not activated yet. */
  active: boolean;
  /** Where the packing put it; undefined when it was not packed into this listing. */
  placement: Placement | undefined;
  /** Its listing description, as `cutDescription` gives it with the listing's cap. */
  description: Description;
  /** For a `name-only` override: the chars of description (before the cap) the model does not see. */
  fullDescriptionChars?: number;
}

/**
 * THE decision of what the model sees of a skill in the listing. Reasons to see nothing come first, in the order
 * of {@link ABSENT_REASONS}; then the packing's placement: left out (`budget`), name-only (`budget`, with the
 * description chars the model does not see), or listed with its description, `cut` when the per-description
 * cap shortened it, else `full` (an empty description is `full`: nothing is hidden). Pure.
 */
export function skillVisibility(facts: VisibilityFacts): Visibility {
  if (facts.switchedOff !== undefined) {
    return facts.switchedOffDetail === undefined
      ? { state: "absent", reason: facts.switchedOff }
      : { state: "absent", reason: facts.switchedOff, detail: facts.switchedOffDetail };
  }
  if (facts.override === "user-invocable-only") return { state: "absent", reason: "override" };
  if (facts.disableModelInvocation) return { state: "absent", reason: "model-invocation-disabled" };
  if (!facts.inScope) return { state: "absent", reason: "scope" };
  if (!facts.active) return { state: "absent", reason: "conditional" };
  const { placement, description } = facts;
  if (placement === undefined) return { state: "absent", reason: "unlisted" };
  if (placement === "omitted") return { state: "absent", reason: "budget" };
  if (facts.override === "name-only") {
    return { state: "name-only", reason: "override", droppedChars: facts.fullDescriptionChars ?? 0 };
  }
  if (placement === "name-only" && description.text !== "") {
    return { state: "name-only", reason: "budget", droppedChars: description.text.length };
  }
  return description.capped > 0 ? { state: "cut", droppedChars: description.capped } : { state: "full" };
}

/** How a skill was switched off, as a visibility reason. */
export type SwitchedOff = "disabled" | "filtered" | "unmet";

/** `disabled` for a settings file's entry or `/skills off`, `filtered` for this run's flags, `unmet` for a need. Pure. */
export function switchedOffReason(by: DisabledBy): SwitchedOff {
  if (by.kind === "unmet") return "unmet";
  return by.kind === "flag" ? "filtered" : "disabled";
}

/** One skill's name and what the model sees of it. */
export interface SkillVisibility {
  name: string;
  visibility: Visibility;
}

/** How many skills are in each state (what `doctor` heads its table with, and telemetry counts). */
export type VisibilityCounts = Record<VisibilityState, number>;

/** The number of skills in each state. Pure. */
export function visibilityCounts(list: readonly { visibility: Visibility }[]): VisibilityCounts {
  const counts: VisibilityCounts = { full: 0, cut: 0, "name-only": 0, absent: 0 };
  for (const { visibility } of list) counts[visibility.state] += 1;
  return counts;
}

/** `full`, `cut (120 chars dropped)`, `name-only (budget, 80 chars dropped)`, `absent (scope)`. Pure. */
export function describeVisibility(visibility: Visibility): string {
  switch (visibility.state) {
    case "full":
      return "full";
    case "cut":
      return `cut (${visibility.droppedChars} chars dropped by the description cap)`;
    case "name-only":
      return `name-only (${visibility.reason}, ${visibility.droppedChars} chars dropped)`;
    case "absent":
      return visibility.detail === undefined
        ? `absent (${visibility.reason})`
        : `absent (${visibility.reason}: ${visibility.detail})`;
  }
}

/** What {@link catalogVisibility} reads: a catalog, what took skills out of it, and its listing's placements. */
export interface CatalogVisibilityInput {
  /** Every skill the agent's session has, switched-off ones and waiting conditional ones included. */
  skills: readonly Skill[];
  /** Switched-off skills and what switched them off. */
  switchedOff: ReadonlyMap<string, SwitchedOff>;
  /** The unmet need of each skill left out for one, in words. */
  unmetNeeds?: ReadonlyMap<string, string>;
  inScope: (skill: Skill) => boolean;
  active: (skill: Skill) => boolean;
  /** Placement of each skill the listing packed (its entries and omitted names). */
  placements: ReadonlyMap<string, Placement>;
  description: (skill: Skill) => Description;
}

/**
 * What the model sees of each skill of a catalog, in catalog order, each by {@link skillVisibility}: for
 * `doctor`, `skillwright search` and telemetry. Pure; linear in the skills.
 */
export function catalogVisibility(input: CatalogVisibilityInput): SkillVisibility[] {
  return input.skills.map((skill) => ({
    name: skill.name,
    visibility: skillVisibility({
      switchedOff: input.switchedOff.get(skill.name),
      switchedOffDetail: input.unmetNeeds?.get(skill.name),
      disableModelInvocation: skill.disableModelInvocation,
      override: skill.override?.state,
      inScope: input.inScope(skill),
      active: input.active(skill),
      placement: input.placements.get(skill.name),
      description: input.description(skill),
      fullDescriptionChars: withheldChars(skill),
    }),
  }));
}
