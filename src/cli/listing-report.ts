import { loadSettings } from "../config/settings.js";
import type { Engine } from "../engine/engine.js";
import { listingLimits, listingSettingsOf } from "../listing/budget.js";
import { catalogCanCut } from "../listing/overflow.js";
import type { Listing } from "../listing/packing.js";
import { contextWindowFor, DEFAULT_MODEL, resolveModel } from "../models.js";
import { createListingState, MAIN_AGENT } from "../session/listing-state.js";
import { createSkillView } from "../session/view.js";
import type { Skill } from "../skill/skill.js";
import { createFileUsageStore, defaultUsagePath } from "../usage.js";

/** The listing the model would see at the start of a session, with its budget. */
export interface ListingReport {
  model: string;
  contextWindow: number | undefined;
  budget: number;
  /** The per-description cap. */
  maxDescChars: number;
  /** A session would offer the `SkillSearch` tool (the listing can cut anything). */
  skillSearch: boolean;
  listing: Listing;
}

/**
 * The skills a session opens with, through the session's own view (`createSkillView`, as `openSession` builds
 * it): the discovered skills, then the built-in prompt commands (`init`) unless a skill takes the name or the
 * skill filter switches them off; conditional skills wait for a matching path.
 */
export async function openingSkills(engine: Engine): Promise<Skill[]> {
  const [discovery, filter] = await Promise.all([engine.discover(), engine.skillFilter()]);
  const view = createSkillView({
    cwd: engine.cwd,
    skills: discovery.skills,
    disabled: discovery.disabled ?? [],
    filter: () => filter,
    builtinCommands: true,
  });
  return view.visible();
}

/**
 * Builds the start-of-session listing for `model` (default: settings `model`, else the default model) as a
 * session would: its opening skills (`openingSkills`), packed by the session's own listing state into its
 * first block, with the same budget and cap (`listingLimits`), the same skill-search decision and usage scores
 * from `~/.skillwright/usage.json`.
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
  const skillSearch = catalogCanCut(skills, budget, maxDescChars);
  const usage = createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) });
  const listing = await createListingState().next(
    MAIN_AGENT,
    await openingSkills(engine),
    { budget, maxDescChars, searchable: skillSearch },
    () => usage.load(),
    now,
  );
  return { model: resolved, contextWindow, budget, maxDescChars, skillSearch, listing };
}
