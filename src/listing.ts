import { displayName, type Skill } from "./skill/skill.js";
import { type UsageScores, usageScore } from "./usage.js";

/** Longest description (with ` - {when_to_use}`) kept in an entry; longer text is cut with `…` (SPEC §3). */
export const LISTING_DESCRIPTION_CAP = 1_536;
/** Listing budget in chars when the context window is unknown (200k tokens × 4 × 1%). */
export const DEFAULT_LISTING_BUDGET = 8_000;
/** Share of the context window the listing may take by default. */
export const DEFAULT_LISTING_FRACTION = 0.01;
/** Chars per token used to turn a window size into a char budget. */
export const CHARS_PER_TOKEN = 4;
/** Env vars that set the budget in chars, first valid one wins. */
export const LISTING_BUDGET_ENV_VARS = [
  "SKILLWRIGHT_LISTING_BUDGET",
  "SLASH_COMMAND_TOOL_CHAR_BUDGET",
] as const;

const ELLIPSIS = "…";
/** The line that opens the listing (SPEC §3), after `<system-reminder>`. */
export const LISTING_HEADER = "The following skills are available for use with the Skill tool:";

/** A non-negative integer written in decimal, or undefined. */
function parseBudget(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The listing budget in chars: `$SKILLWRIGHT_LISTING_BUDGET`, else `$SLASH_COMMAND_TOOL_CHAR_BUDGET`, else
 * `configured` (the settings' `skillListingBudget`), else `floor(contextWindowTokens × 4 × fraction)`, else
 * 8,000. Env values that are not non-negative integers are ignored. Pure.
 */
export function listingBudget(options: {
  env: Readonly<Record<string, string | undefined>>;
  configured?: number;
  contextWindowTokens?: number;
  fraction?: number;
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
    return Math.floor(window * CHARS_PER_TOKEN * (options.fraction ?? DEFAULT_LISTING_FRACTION));
  }
  return DEFAULT_LISTING_BUDGET;
}

interface Description {
  text: string;
  /** Chars of the collapsed text that the cap removed (0 when not capped). */
  capped: number;
}

function describe(skill: Pick<Skill, "description" | "whenToUse">): Description {
  const whenToUse = skill.whenToUse?.trim();
  const raw = whenToUse ? `${skill.description} - ${whenToUse}` : skill.description;
  const collapsed = raw.includes("\n") || raw.includes("\r") ? raw.replace(/\s*[\r\n]\s*/g, " ") : raw;
  const text = collapsed.trim();
  if (text.length <= LISTING_DESCRIPTION_CAP) return { text, capped: 0 };
  let end = LISTING_DESCRIPTION_CAP - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end) + ELLIPSIS, capped: text.length - end };
}

/**
 * The description shown for a skill: `description` plus ` - {when_to_use}`, each run of whitespace holding a
 * newline collapsed to one space, capped at 1,536 chars (first 1,535 + `…`; a surrogate pair is never split,
 * so the kept part may be one char shorter). Pure.
 */
export function listingDescription(skill: Pick<Skill, "description" | "whenToUse">): string {
  return describe(skill).text;
}

/** Why an entry shows less than the skill's whole description. */
export type ListingCutReason = "over-budget" | "description-capped";

/** One line of the listing. */
export interface ListingEntry {
  /** The skill's name (what `sentNames` holds). */
  name: string;
  /** The line as sent: `- {display}: {desc}` or `- {display}`. */
  text: string;
  nameOnly: boolean;
  reason?: ListingCutReason;
}

/** A skill whose description was shortened or left out, for `doctor`. */
export interface ListingCut {
  name: string;
  reason: ListingCutReason;
  /** Chars of description text the model does not see. */
  droppedChars: number;
}

/** A built listing. `text` is the whole `<system-reminder>` block, or "" when there is nothing to send. */
export interface Listing {
  text: string;
  entries: ListingEntry[];
  cut: ListingCut[];
  /** Chars of the sent entry lines joined with `⏎` (what the budget measures). */
  chars: number;
}

/** Options of `buildListing`. */
export interface BuildListingOptions {
  /** Chars for the entry lines joined with `⏎` (see `listingBudget`). */
  budget: number;
  usage: UsageScores;
  /** ms since the epoch, for usage decay. */
  now: number;
  /** Names already sent to this agent; only the others are returned (a delta). */
  sentNames?: ReadonlySet<string>;
  /**
   * Extra filter. Skills with `disable-model-invocation` are always left out; un-activated conditional skills
   * must be left out by the caller, here or by not passing them.
   */
  isListable?: (skill: Skill) => boolean;
}

/** The `[beyond]` last line of a block with name-only entries. */
export function nameOnlyNote(count: number): string {
  return count === 1
    ? "(1 skill above is listed by name only to fit the listing budget; the Skill tool still accepts it.)"
    : `(${count} skills above are listed by name only to fit the listing budget; the Skill tool still accepts them.)`;
}

/**
 * Wraps entry lines in the listing block: `<system-reminder>⏎{header}⏎⏎{lines}⏎</system-reminder>`, with
 * `nameOnlyNote` after a blank line when `nameOnlyCount > 0`. "" for no lines. Pure.
 */
export function formatListingBlock(
  lines: readonly string[],
  options: { nameOnlyCount?: number; header?: string } = {},
): string {
  if (lines.length === 0) return "";
  const count = options.nameOnlyCount ?? 0;
  const note = count > 0 ? `\n\n${nameOnlyNote(count)}` : "";
  return `<system-reminder>\n${options.header ?? LISTING_HEADER}\n\n${lines.join("\n")}${note}\n</system-reminder>`;
}

interface Candidate {
  skill: Skill;
  index: number;
  desc: Description;
  full: string;
  short: string;
  /** Chars the full line adds over the name-only line. */
  extra: number;
  score: number;
  fullText: boolean;
}

/**
 * Builds the skill listing (SPEC §3). Entries keep the input order (the listing order). When the full lines
 * joined with `⏎` exceed `budget`, bundled skills keep their full line, every other entry starts name-only and
 * is upgraded to its full line by descending usage score (ties in listing order); an upgrade that does not fit
 * is skipped and the next one tried. The budget is packed over every listable skill, then entries whose name
 * is in `sentNames` are dropped, so a delta shows each new skill the way the full listing would. Pure; linear
 * apart from one sort of the skills with a usage score.
 */
export function buildListing(skills: readonly Skill[], options: BuildListingOptions): Listing {
  const sent = options.sentNames;
  // A delta once every listable skill was sent (each turn of a conversation): nothing to pack or format.
  if (
    sent !== undefined &&
    sent.size > 0 &&
    skills.every((s) => s.disableModelInvocation || sent.has(s.name))
  ) {
    return { text: "", entries: [], cut: [], chars: 0 };
  }
  const candidates: Candidate[] = [];
  let fullTotal = 0;
  for (const skill of skills) {
    if (skill.disableModelInvocation) continue;
    if (options.isListable !== undefined && !options.isListable(skill)) continue;
    const desc = describe(skill);
    const short = `- ${displayName(skill)}`;
    const full = desc.text === "" ? short : `${short}: ${desc.text}`;
    const index = candidates.length;
    candidates.push({
      skill,
      index,
      desc,
      full,
      short,
      extra: full.length - short.length,
      score: 0,
      fullText: true,
    });
    fullTotal += full.length;
  }
  const separators = Math.max(0, candidates.length - 1);

  if (fullTotal + separators > options.budget) {
    let used = separators;
    // Only used skills need sorting: the unused (score 0) follow them in listing order, as a full sort would.
    const scored: Candidate[] = [];
    const unscored: Candidate[] = [];
    for (const c of candidates) {
      if (c.skill.source === "bundled") {
        used += c.full.length;
      } else {
        c.fullText = false;
        used += c.short.length;
        if (c.extra > 0) {
          const entry = options.usage.get(c.skill.name);
          c.score = entry === undefined ? 0 : usageScore(entry, options.now);
          (c.score > 0 ? scored : unscored).push(c);
        }
      }
    }
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    let remaining = options.budget - used;
    for (const c of [...scored, ...unscored]) {
      if (c.extra <= remaining) {
        c.fullText = true;
        remaining -= c.extra;
      }
    }
  }

  const entries: ListingEntry[] = [];
  const cut: ListingCut[] = [];
  const lines: string[] = [];
  let chars = 0;
  let nameOnlyCount = 0;
  for (const c of candidates) {
    const name = c.skill.name;
    if (sent?.has(name)) continue;
    const text = c.fullText ? c.full : c.short;
    const nameOnly = !c.fullText && c.extra > 0;
    const entry: ListingEntry = { name, text, nameOnly };
    if (nameOnly) {
      entry.reason = "over-budget";
      nameOnlyCount += 1;
      cut.push({ name, reason: "over-budget", droppedChars: c.desc.text.length });
    } else if (c.desc.capped > 0) {
      entry.reason = "description-capped";
      cut.push({ name, reason: "description-capped", droppedChars: c.desc.capped });
    }
    entries.push(entry);
    chars += text.length + (lines.length > 0 ? 1 : 0);
    lines.push(text);
  }
  return { text: formatListingBlock(lines, { nameOnlyCount }), entries, cut, chars };
}
