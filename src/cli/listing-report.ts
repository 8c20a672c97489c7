import { contextWindowFor, DEFAULT_MODEL, resolveModel } from "../agent/models.js";
import { loadSettings } from "../config/settings.js";
import type { Engine } from "../engine.js";
import { buildListing, type Listing, listingBudget } from "../listing.js";
import { createFileUsageStore, defaultUsagePath } from "../usage.js";

/** The listing the model would see at the start of a session, with its budget. */
export interface ListingReport {
  model: string;
  contextWindow: number | undefined;
  budget: number;
  listing: Listing;
}

/**
 * Builds the start-of-session listing for `model` (default: settings `model`, else the default model) as a
 * session would: un-activated conditional skills left out, usage scores from `~/.skillwright/usage.json`.
 */
export async function listingReport(
  engine: Engine,
  model: string | undefined,
  now: number,
): Promise<ListingReport> {
  const [{ skills }, { projectDir }] = await Promise.all([engine.discover(), engine.roots()]);
  const settings = await loadSettings({ fs: engine.fs, home: engine.home, projectDir });
  const resolved = resolveModel(model ?? settings.settings.model ?? DEFAULT_MODEL);
  const contextWindow = contextWindowFor(resolved);
  const budget = listingBudget({
    env: engine.env,
    ...(settings.settings.skillListingBudget === undefined
      ? {}
      : { configured: settings.settings.skillListingBudget }),
    ...(contextWindow === undefined ? {} : { contextWindowTokens: contextWindow }),
  });
  const usage = await createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) }).load();
  const listing = buildListing(skills, { budget, usage, now, isListable: (s) => s.paths === undefined });
  return { model: resolved, contextWindow, budget, listing };
}
