import { inScope, MAIN_SCOPE, skillsInScope } from "../agent-types/skill-scope.js";
import type { Discovery } from "../catalog/catalog.js";
import { loadSettings } from "../config/settings.js";
import type { Engine } from "../engine/engine.js";
import { listingLimits, listingSettingsOf } from "../listing/budget.js";
import { cutDescription } from "../listing/description.js";
import { catalogCanCut } from "../listing/overflow.js";
import { type Listing, placementsOf } from "../listing/packing.js";
import { catalogVisibility, type SkillVisibility, switchedOffReason } from "../listing/visibility.js";
import { contextWindowFor, DEFAULT_MODEL, resolveModel } from "../models.js";
import { listingFocus } from "../session/listing-focus.js";
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
  /** The first prompt the listing was packed for ("" when none was given). */
  firstPrompt: string;
  listing: Listing;
  /** What the model sees of each skill (`skillVisibility`), every skill of the catalog in catalog order. */
  visibility: SkillVisibility[];
}

/** A session's opening skills and the view they come from (see {@link openingSkills}). */
interface Opening {
  discovery: Discovery;
  /** What the main agent may see now: the view's visible skills in its scope. */
  skills: Skill[];
}

/** The discovery and the session's own view of it (`createSkillView`, as `openSession` builds it). */
async function opening(engine: Engine): Promise<Opening> {
  const [discovery, filter] = await Promise.all([engine.discover(), engine.skillFilter()]);
  const view = createSkillView({
    cwd: engine.cwd,
    skills: discovery.skills,
    disabled: discovery.disabled ?? [],
    filter: () => filter,
    builtinCommands: true,
  });
  return { discovery, skills: view.visible() };
}

/**
 * The skills a session opens with, through the session's own view (`createSkillView`, as `openSession` builds
 * it): the discovered skills, then the built-in prompt commands (`init`) unless a skill takes the name or the
 * skill filter switches them off; conditional skills wait for a matching path.
 */
export async function openingSkills(engine: Engine): Promise<Skill[]> {
  return (await opening(engine)).skills;
}

/**
 * Builds the start-of-session listing for `model` (default: settings `model`, else the default model) as a
 * session whose first prompt is `firstPrompt` would: the main agent's opening skills, packed by the session's
 * own listing state into its first block, with the same budget and cap (`listingLimits`), the same skill-search
 * decision, the same focus (`listingFocus`) and usage scores from `~/.skillwright/usage.json`; and what the
 * model sees of every skill of the catalog (`catalogVisibility`).
 */
export async function listingReport(
  engine: Engine,
  model: string | undefined,
  now: number,
  firstPrompt = "",
): Promise<ListingReport> {
  const [{ projectDir, environment }, { discovery, skills: visible }] = await Promise.all([
    engine.roots(),
    opening(engine),
  ]);
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
  const skillSearch = catalogCanCut(discovery.skills, budget, maxDescChars);
  const usage = createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) });
  const main = skillsInScope(visible, MAIN_SCOPE);
  const listing = await createListingState().next(
    MAIN_AGENT,
    main,
    { budget, maxDescChars, searchable: skillSearch, focus: () => listingFocus(main, firstPrompt) },
    () => usage.load(),
    now,
  );
  const visibleNames = new Set(visible.map((s) => s.name));
  const discovered = new Set(discovery.skills.map((s) => s.name));
  const disabled = discovery.disabled ?? [];
  const visibility = catalogVisibility({
    skills: [
      ...discovery.skills,
      ...visible.filter((s) => !discovered.has(s.name)),
      ...disabled.map((d) => d.skill),
    ],
    switchedOff: new Map(disabled.map((d) => [d.skill.name, switchedOffReason(d.by)])),
    unmetNeeds: new Map(disabled.flatMap((d) => (d.by.kind === "unmet" ? [[d.skill.name, d.by.why]] : []))),
    inScope: (skill) => inScope(skill, MAIN_SCOPE),
    active: (skill) => visibleNames.has(skill.name),
    placements: placementsOf(listing),
    description: (skill) => cutDescription(skill, maxDescChars),
  });
  return {
    model: resolved,
    contextWindow,
    budget,
    maxDescChars,
    skillSearch,
    firstPrompt,
    listing,
    visibility,
  };
}
