import { LISTING_DESCRIPTION_CAP } from "./description.js";
import type { ListingFocus } from "./focus.js";

/** Listing budget in chars when the context window is unknown (SPEC §3). */
export const DEFAULT_LISTING_BUDGET = 8_000;
/** Share of the context window the listing may take by default (settings `skillListingBudgetFraction`). */
export const DEFAULT_LISTING_FRACTION = 0.01;
/** Chars per token for a model with a window of at least {@link LARGE_CONTEXT_WINDOW} tokens (SPEC §3). */
export const CHARS_PER_TOKEN_LARGE_WINDOW = 3;
/** Chars per token for a smaller window (200k-token models). */
export const CHARS_PER_TOKEN = 4;
/** Windows of this many tokens or more count as 1M-token windows for {@link charsPerToken}. */
export const LARGE_CONTEXT_WINDOW = 1_000_000;
/** Env vars that set the budget in chars, first valid one wins. */
export const LISTING_BUDGET_ENV_VARS = [
  "SKILLWRIGHT_LISTING_BUDGET",
  "SLASH_COMMAND_TOOL_CHAR_BUDGET",
] as const;

/** A non-negative integer written in decimal, or undefined. */
function parseBudget(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Chars per token for a context window: 3 for 1M-token windows (and larger), else 4 (SPEC §3). Pure. */
export function charsPerToken(contextWindowTokens: number): number {
  return contextWindowTokens >= LARGE_CONTEXT_WINDOW ? CHARS_PER_TOKEN_LARGE_WINDOW : CHARS_PER_TOKEN;
}

/**
 * The listing budget in chars (SPEC §3): `$SKILLWRIGHT_LISTING_BUDGET`, else `$SLASH_COMMAND_TOOL_CHAR_BUDGET`,
 * else `configured` (the settings' `skillListingBudget`), else `floor(contextWindowTokens × charsPerToken ×
 * fraction)` (fraction default 0.01: 30,000 for a 1M-token window, 8,000 for 200k), else 8,000. Env values
 * that are not non-negative integers, and fractions outside (0, 1], are ignored. Pure.
 */
export function listingBudget(options: {
  env: Readonly<Record<string, string | undefined>>;
  configured?: number | undefined;
  contextWindowTokens?: number | undefined;
  fraction?: number | undefined;
}): number {
  for (const name of LISTING_BUDGET_ENV_VARS) {
    const budget = parseBudget(options.env[name]);
    if (budget !== undefined) return budget;
  }
  if (options.configured !== undefined && Number.isFinite(options.configured) && options.configured >= 0) {
    return Math.floor(options.configured);
  }
  const window = options.contextWindowTokens;
  if (window !== undefined && Number.isFinite(window) && window > 0) {
    const f = options.fraction;
    const fraction = f !== undefined && Number.isFinite(f) && f > 0 && f <= 1 ? f : DEFAULT_LISTING_FRACTION;
    return Math.floor(window * charsPerToken(window) * fraction);
  }
  return DEFAULT_LISTING_BUDGET;
}

/** The listing settings (user/project settings files), each optional. */
export interface ListingSettings {
  /** `skillListingBudget`: the budget in chars (beaten only by the env vars). */
  budget?: number | undefined;
  /** `skillListingBudgetFraction`: the share of the context window. */
  fraction?: number | undefined;
  /** `skillListingMaxDescChars`: the per-description cap. */
  maxDescChars?: number | undefined;
}

/** The listing settings out of a settings object (`skillListingBudget`, `…BudgetFraction`, `…MaxDescChars`). Pure. */
export function listingSettingsOf(settings: {
  skillListingBudget?: number | undefined;
  skillListingBudgetFraction?: number | undefined;
  skillListingMaxDescChars?: number | undefined;
}): ListingSettings {
  return {
    budget: settings.skillListingBudget,
    fraction: settings.skillListingBudgetFraction,
    maxDescChars: settings.skillListingMaxDescChars,
  };
}

/** What a listing is packed with: its budget and per-description cap. */
export interface ListingLimits {
  budget: number;
  maxDescChars: number;
}

/**
 * The budget and description cap for a model with `contextWindowTokens` (undefined: unknown), from the env vars
 * and settings as SPEC §3 orders them. The one place every listing (session, forks, `doctor`) gets them. Pure.
 */
export function listingLimits(options: {
  env: Readonly<Record<string, string | undefined>>;
  settings?: ListingSettings | undefined;
  contextWindowTokens: number | undefined;
}): ListingLimits {
  const settings = options.settings ?? {};
  const cap = settings.maxDescChars;
  return {
    budget: listingBudget({
      env: options.env,
      configured: settings.budget,
      contextWindowTokens: options.contextWindowTokens,
      fraction: settings.fraction,
    }),
    maxDescChars: cap !== undefined && Number.isSafeInteger(cap) && cap >= 1 ? cap : LISTING_DESCRIPTION_CAP,
  };
}

/** How one agent's listing is packed: the limits for its model, and whether it has the skill search. */
export interface ListingPack extends ListingLimits {
  /** The agent has the `SkillSearch` tool (the omitted-skills line points to it). */
  searchable: boolean;
  /** The session's focus (first prompt's relevant skills, rotation seed), asked for when the listing cuts; see `buildListing`. */
  focus?: (() => ListingFocus) | undefined;
}
