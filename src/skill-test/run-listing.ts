import { compareNames } from "../catalog/order.js";
import { type ListingSettings, listingLimits } from "../listing/budget.js";
import { buildListing } from "../listing/packing.js";
import { contextWindowFor, resolveModel } from "../models.js";
import type { Skill } from "../skill/skill.js";
import type { ListingCase, ListingState } from "./cases.js";

/** What a listing case found: the state, the entry line as sent (or a note), and the budget used. */
export interface ListingResult {
  state: ListingState;
  actual: string;
  failures: string[];
}

/** The neighbours a case describes, as skills beside `skill` (same source and kind, so none is favoured). Pure. */
export function neighbourSkills(skill: Skill, neighbours: ListingCase["neighbours"]): Skill[] {
  const out: Skill[] = [];
  for (const n of neighbours) {
    const base = { ...skill, alias: undefined, whenToUse: undefined, disableModelInvocation: false };
    if ("name" in n) out.push({ ...base, name: n.name, description: n.description });
    else {
      for (let i = 1; i <= n.count; i++) {
        out.push({ ...base, name: `neighbour-${i}`, description: n.description });
      }
    }
  }
  return out;
}

/**
 * Runs a listing case with the engine's own `listingLimits` and `buildListing`: the budget of the case's model
 * (its context window, the env vars and settings as a session applies them), the skill among its neighbours in
 * name order, no usage history. Pure.
 */
export function runListingCase(
  skill: Skill,
  testCase: ListingCase,
  options: { env: Readonly<Record<string, string | undefined>>; settings?: ListingSettings },
): ListingResult {
  const model = resolveModel(testCase.model);
  const limits = listingLimits({
    env: options.env,
    settings: options.settings,
    contextWindowTokens: contextWindowFor(model),
  });
  const all = [...neighbourSkills(skill, testCase.neighbours), { ...skill, paths: undefined }].sort((a, b) =>
    compareNames(a.name, b.name),
  );
  const listing = buildListing(all, { ...limits, usage: new Map(), now: 0, searchable: true });
  const entry = listing.entries.find((e) => e.name === skill.name);
  const state: ListingState = entry === undefined ? "omitted" : entry.nameOnly ? "name-only" : "full";
  const where = `${model}, budget ${limits.budget} chars, ${all.length} skill(s), listing ${listing.chars} chars`;
  const actual = `${entry?.text ?? "(not listed)"} [${where}]`;
  const failures =
    skill.disableModelInvocation && testCase.expect !== "omitted"
      ? ["the skill has disable-model-invocation: it is never listed"]
      : state === testCase.expect
        ? []
        : [`listed ${state}, expected ${testCase.expect} (${where})`];
  return { state, actual, failures };
}
