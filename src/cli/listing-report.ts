import { contextWindowFor, DEFAULT_MODEL, resolveModel } from "../agent/models.js";
import { loadSettings } from "../config/settings.js";
import type { Engine } from "../engine/engine.js";
import { listingLimits, listingSettingsOf } from "../listing/budget.js";
import { catalogCanOverflow } from "../listing/overflow.js";
import { buildListing, type Listing } from "../listing/packing.js";
import { createFileUsageStore, defaultUsagePath } from "../usage.js";

/** The listing the model would see at the start of a session, with its budget. */
export interface ListingReport {
  model: string;
  contextWindow: number | undefined;
  budget: number;
  /** The per-description cap. */
  maxDescChars: number;
  /** A session would offer the `SkillSearch` tool (the catalog can overflow the listing). */
  skillSearch: boolean;
  listing: Listing;
}

/**
 * Builds the start-of-session listing for `model` (default: settings `model`, else the default model) as a
 * session would: the same budget and cap (`listingLimits`), the same skill-search decision, un-activated
 * conditional skills left out, usage scores from `~/.skillwright/usage.json`.
 */
export async function listingReport(
  engine: Engine,
  model: string | undefined,
  now: number,
): Promise<ListingReport> {
  const [{ skills }, { projectDir, environment }] = await Promise.all([engine.discover(), engine.roots()]);
  const settings = await loadSettings({
    fs: engine.fs,
    home: engine.home,
    projectDir,
    ...(environment === undefined ? {} : { environmentDir: environment.dir }),
  });
  const resolved = resolveModel(model ?? settings.settings.model ?? DEFAULT_MODEL);
  const contextWindow = contextWindowFor(resolved);
  const { budget, maxDescChars } = listingLimits({
    env: engine.env,
    settings: listingSettingsOf(settings.settings),
    contextWindowTokens: contextWindow,
  });
  const skillSearch = catalogCanOverflow(skills, budget);
  const usage = await createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) }).load();
  const listing = buildListing(skills, {
    budget,
    maxDescChars,
    usage,
    now,
    searchable: skillSearch,
    isListable: (s) => s.paths === undefined,
  });
  return { model: resolved, contextWindow, budget, maxDescChars, skillSearch, listing };
}
