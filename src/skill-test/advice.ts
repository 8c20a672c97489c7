import type { ListingLimits } from "../listing/budget.js";
import { listingDescription } from "../listing/description.js";
import { buildListing } from "../listing/packing.js";
import type { Skill } from "../skill/skill.js";
import type { UsageScores } from "../usage.js";
import { mostSimilar, type Similarity } from "./similarity.js";

/** How the skill's entry showed in the listing the trigger runs sent. */
export type EntryShown = "full" | "cut" | "name-only" | "omitted";

/** What a failed trigger case tells the author: the entry the model saw, and the skills it competes with. */
export interface TriggerAdvice {
  model: string;
  /** The listing budget in chars, and how many skills shared it. */
  budget: number;
  skills: number;
  shown: EntryShown;
  /** The entry line as sent, or a note when it was not sent. */
  entry: string;
  /** For `cut`: where the description was cut, and why. */
  cut?: { keptChars: number; totalChars: number; reason: string };
  /** Skills whose descriptions overlap most with this one (tf-idf cosine), best first, at most 3. */
  competitors: (Similarity & { description: string })[];
}

/** What the listing of a trigger run is built from. */
export interface AdviceContext {
  model: string;
  limits: ListingLimits;
  /** Every skill the session lists (before packing), the tested one among them when the project finds it. */
  listed: readonly Skill[];
  usage: UsageScores;
  now: number;
}

/**
 * The advice for a failed trigger case of `skill`: its entry in the listing a session on `context.model`
 * sends (the engine's own packing: budget, description cap, usage order), and the three listed skills whose
 * description (plus `when_to_use`) overlaps most with its own. Pure.
 */
export function triggerAdvice(skill: Skill, context: AdviceContext): TriggerAdvice {
  const listing = buildListing(context.listed, {
    ...context.limits,
    usage: context.usage,
    now: context.now,
    searchable: true,
  });
  const entry = listing.entries.find((e) => e.name === skill.name);
  const full = listingDescription(skill, Number.MAX_SAFE_INTEGER);
  const found = context.listed.some((s) => s.name === skill.name);
  let shown: EntryShown;
  let cut: TriggerAdvice["cut"];
  if (entry === undefined) shown = "omitted";
  else if (entry.nameOnly) shown = "name-only";
  else {
    const dropped = listing.cut.find((c) => c.name === skill.name);
    if (dropped === undefined) shown = "full";
    else {
      shown = "cut";
      cut = {
        keptChars: full.length - dropped.droppedChars,
        totalChars: full.length,
        reason: dropped.reason,
      };
    }
  }
  const note = !found
    ? "(not listed: the project does not discover this skill, so no session can call it)"
    : skill.disableModelInvocation
      ? "(not listed: disable-model-invocation)"
      : "(not listed: even its name did not fit the budget; only SkillSearch finds it)";
  const others = context.listed.filter((s) => s.name !== skill.name && !s.disableModelInvocation);
  const descriptions = new Map(others.map((s) => [s.name, listingDescription(s, Number.MAX_SAFE_INTEGER)]));
  const competitors = mostSimilar(
    { id: skill.name, text: full },
    others.map((s) => ({ id: s.name, text: descriptions.get(s.name) ?? "" })),
  ).map((s) => ({ ...s, description: descriptions.get(s.id) ?? "" }));
  return {
    model: context.model,
    budget: context.limits.budget,
    skills: context.listed.length,
    shown,
    entry: entry?.text ?? note,
    ...(cut === undefined ? {} : { cut }),
    competitors,
  };
}

/** The advice as report lines (no indent). Pure. */
export function adviceLines(advice: TriggerAdvice): string[] {
  const where =
    advice.cut === undefined
      ? ""
      : ` after ${advice.cut.keptChars} of ${advice.cut.totalChars} chars (${advice.cut.reason})`;
  const lines = [
    `the model saw (${advice.model}, budget ${advice.budget} chars, ${advice.skills} skill(s)): ${advice.shown}${where}`,
    `  ${advice.entry}`,
  ];
  if (advice.competitors.length === 0) lines.push("no listed skill's description overlaps with this one");
  else {
    lines.push("competing skills (description overlap, tf-idf cosine):");
    for (const c of advice.competitors) {
      lines.push(`  ${c.score.toFixed(2)} ${c.id}: shares ${c.shared.join(", ")}`);
    }
  }
  return lines;
}
