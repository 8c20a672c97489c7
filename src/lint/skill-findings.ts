import { listingLimits } from "../listing/budget.js";
import type { CollectedSkill } from "./collect.js";
import { type LintFinding, type ListingModels, lintSkill } from "./rules.js";
import { validationFindings } from "./validation-findings.js";

/** The two listing sizes lint measures a skill's entry against (200k- and 1M-token models), as `env` sets them. */
export function lintModels(env: Readonly<Record<string, string | undefined>>): ListingModels {
  return {
    "200k": listingLimits({ env, contextWindowTokens: 200_000 }),
    "1M": listingLimits({ env, contextWindowTokens: 1_000_000 }),
  };
}

/**
 * Every finding of one collected skill file, as `lint` scores it: validation's diagnostics (both profiles)
 * first, then the lint rules' (none when the skill did not load). `fileName` is what the findings name. Pure.
 */
export function skillFindings(
  collected: CollectedSkill,
  models: ListingModels,
  fileName: string,
): LintFinding[] {
  return [
    ...validationFindings(collected.diagnostics, collected.spec, fileName),
    ...(collected.subject === undefined ? [] : lintSkill(collected.subject, models)),
  ];
}
