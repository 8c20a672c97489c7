import { displayName, type Skill } from "../skill/skill.js";
import { type UsageScores, usageScore } from "../usage.js";
import { formatListingBlock, nameOnlyNote } from "./block.js";
import { cutDescription, type Description, LISTING_DESCRIPTION_CAP, withheldChars } from "./description.js";
import { DISCOVERY_SHARE, type ListingFocus, rotationKey } from "./focus.js";
import { omittedCost, omittedNote } from "./overflow.js";
import { type Placement, skillVisibility, type Visibility } from "./visibility.js";

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
  /** What the model sees of the skill (`skillVisibility`): `full`, `cut` or `name-only`. */
  visibility: Visibility;
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
  /**
   * Names left out of the listing altogether because even their name-only lines did not fit (listing order).
   * In a delta, only those not sent before. The model finds them with the skill search (SPEC §14.15).
   */
  omitted: string[];
  /**
   * What the budget measures: chars of the sent entry lines joined with `⏎`, plus the omitted-skills line
   * (with the blank line before it) when names were left out. The name-only note is not counted (SPEC §3's
   * arithmetic is Claude Code's, which has no such line).
   */
  chars: number;
}

/** Options of `buildListing`. */
export interface BuildListingOptions {
  /** Chars for the entry lines joined with `⏎` (see `listingBudget`). */
  budget: number;
  /** The per-description cap (default {@link LISTING_DESCRIPTION_CAP}). */
  maxDescChars?: number;
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
  /** The agent has the `SkillSearch` tool: the omitted-skills line points to it. Default false. */
  searchable?: boolean;
  /**
   * The session's focus (issue #25 item 4): its first prompt's relevant skills come first, and a share of the
   * description room goes to them and to a seeded rotation of the unused skills before usage order. Without
   * it, SPEC §3's usage order alone (ties in listing order). Asked for only when the listing cuts: one that
   * fits needs none, and deciding a focus costs a search over every skill.
   */
  focus?: (() => ListingFocus) | undefined;
}

const OMITTED = 0;
const NAME_ONLY = 1;
const FULL = 2;
/** The cheapest upgrade of a name-only entry: `: ` plus one char of description. */
const MIN_UPGRADE_COST = 3;

/** Length of the name-only line `- {display}`. */
function shortLength(skill: Skill): number {
  const alias = skill.alias;
  return 2 + skill.name.length + (alias === undefined ? 0 : alias.length + 3);
}

/**
 * Chars of the name-only lines (`- {display}`) of the listable skills among `skills` joined with `⏎`: what
 * listing every one of them by name costs against the budget (0 when none is listable). Pure.
 */
export function nameLinesChars(skills: readonly Skill[]): number {
  let chars = -1;
  for (const skill of skills) if (!skill.disableModelInvocation) chars += shortLength(skill) + 1;
  return Math.max(0, chars);
}

/**
 * Orders `items` by `compare` (a strict total order) far enough that its first `k` are the `k` smallest, in
 * order; the rest follow in no particular order. In place; a quickselect, then a sort of the first `k` only.
 */
function sortTop(items: number[], compare: (a: number, b: number) => number, k: number): void {
  if (k >= items.length) {
    items.sort(compare);
    return;
  }
  const at = (i: number) => items[i] as number;
  let lo = 0;
  let hi = items.length - 1;
  while (hi > lo) {
    const pivot = at((lo + hi) >> 1);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (compare(at(i), pivot) < 0) i++;
      while (compare(at(j), pivot) > 0) j--;
      if (i <= j) {
        const swap = at(i);
        items[i] = at(j);
        items[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  const top = items.slice(0, k).sort(compare);
  for (let i = 0; i < k; i++) items[i] = top[i] as number;
}

/** Top bits of a 32-bit key that pick its bucket in {@link smallestKeys}. */
const KEY_BUCKET_BITS = 12;
/** Indexes below this pack with their key into one double (key × 2^21 + index < 2^53). */
const PACKED_INDEX_LIMIT = 2 ** 21;

/**
 * The `k` of `items` (indexes into `keys`, ascending) with the smallest keys, in key order (ties by index), and
 * maybe a few more after them in that order; all of them when `k` reaches their count. Keys are 32-bit hashes,
 * spread evenly: a count of their top bits finds the bucket the k-th falls in, and only the items up to that
 * bucket are sorted, each packed with its key into one double for the typed array's own sort (a comparator over
 * 80,000 indexes cost as much as the rest of the rotation). Pure.
 */
function smallestKeys(items: Int32Array, keys: Uint32Array, k: number): number[] {
  if (items.length === 0 || k <= 0) return [];
  if ((items[items.length - 1] as number) >= PACKED_INDEX_LIMIT) {
    const all = Array.from(items);
    sortTop(all, (a, b) => (keys[a] as number) - (keys[b] as number) || a - b, k);
    return all.slice(0, k);
  }
  const shift = 32 - KEY_BUCKET_BITS;
  let last = (1 << KEY_BUCKET_BITS) - 1;
  if (k < items.length) {
    const counts = new Uint32Array(1 << KEY_BUCKET_BITS);
    for (const i of items) {
      const bucket = (keys[i] as number) >>> shift;
      counts[bucket] = (counts[bucket] as number) + 1;
    }
    let seen = 0;
    for (last = 0; last < counts.length; last++) {
      seen += counts[last] as number;
      if (seen >= k) break;
    }
  }
  const head: number[] = [];
  for (const i of items) {
    const key = keys[i] as number;
    if (key >>> shift <= last) head.push(key * PACKED_INDEX_LIMIT + i);
  }
  return Array.from(Float64Array.from(head).sort(), (packed) => packed % PACKED_INDEX_LIMIT);
}

/**
 * Builds the skill listing (SPEC §3). Entries keep the input order (the listing order).
 *
 * When the full lines joined with `⏎` exceed `budget`: bundled skills keep their full line and every other
 * entry starts name-only. When those lines still exceed the budget, the lowest-priority names (usage score,
 * then listing order) are left out until the rest plus the omitted-skills line fit ([beyond]; bundled entries
 * are never left out, and when they alone exceed the budget they are still sent whole). Then entries are
 * upgraded to their full line by descending usage score (ties in listing order), each costing `len(desc) + 2`;
 * an upgrade that does not fit is skipped and the next one tried.
 *
 * With a `focus` (a session's, issue #25 item 4; a deviation from SPEC §3) the priority order is: the focus's
 * relevant skills (best first), then the scored ones by usage score, then the unscored ones in the focus's
 * rotation (`rotationKey`); names are kept in that order, and before the upgrades in that order a share
 * ({@link DISCOVERY_SHARE}) of the room left after the names goes to the relevant and the unscored skills only,
 * so a never-used skill is not always the first to lose its description.
 *
 * The budget is packed over every listable skill, then entries (and omitted names) in `sentNames` are dropped,
 * so a delta shows each new skill the way the full listing would and is never larger than the budget. Pure.
 * Work is linear in the skills plus one sort of those with a usage score; descriptions are only read for the
 * entries that can be shown in full, so a catalog far over budget costs little more than one that fits.
 */
export function buildListing(skills: readonly Skill[], options: BuildListingOptions): Listing {
  const sent = options.sentNames;
  const empty: Listing = { text: "", entries: [], cut: [], omitted: [], chars: 0 };
  // A delta once every listable skill was sent (each turn of a conversation): nothing to pack or format.
  if (
    sent !== undefined &&
    sent.size > 0 &&
    skills.every((s) => s.disableModelInvocation || sent.has(s.name))
  ) {
    return empty;
  }
  const { budget, usage } = options;
  const cap = options.maxDescChars ?? LISTING_DESCRIPTION_CAP;
  const searchable = options.searchable ?? false;

  // Arrays indexed by position among the listable skills (no object per skill: catalogs reach 100k).
  // One pass reads what packing needs from each skill, so later passes stay in these compact arrays.
  const listed: Skill[] = [];
  const listedNames: string[] = [];
  const shortLengths = new Int32Array(skills.length);
  const isBundled = new Uint8Array(skills.length);
  for (const skill of skills) {
    if (skill.disableModelInvocation) continue;
    if (options.isListable !== undefined && !options.isListable(skill)) continue;
    const i = listed.length;
    shortLengths[i] = shortLength(skill);
    if (skill.source === "bundled") isBundled[i] = 1;
    listed.push(skill);
    listedNames.push(skill.name);
  }
  const count = listed.length;
  if (count === 0) return empty;
  /** Descriptions, computed on first need: most skills of a large catalog never need theirs. */
  const descs: (Description | undefined)[] = new Array(count);
  const descOf = (i: number): Description => {
    let desc = descs[i];
    if (desc === undefined) {
      desc = cutDescription(listed[i] as Skill, cap);
      descs[i] = desc;
    }
    return desc;
  };
  /** Chars the full line adds over the name-only one (0 for an empty description). */
  const extraOf = (i: number): number => {
    const text = descOf(i).text;
    return text === "" ? 0 : text.length + 2;
  };
  const state = new Uint8Array(count);

  // Do the full lines fit? Stop adding up at the first char over: a large catalog is decided in a few entries.
  let total = count - 1;
  for (let i = 0; i < count && total <= budget; i++) total += (shortLengths[i] as number) + extraOf(i);

  if (total <= budget) {
    state.fill(FULL);
  } else {
    let bundledChars = 0;
    let bundledCount = 0;
    let names = 0;
    const scores = new Float64Array(count);
    const scored: number[] = [];
    const hasUsage = usage.size > 0;
    let minShort = Number.POSITIVE_INFINITY;
    const focus = options.focus?.();
    // The first prompt's relevant skills (best first), then the scored ones by usage, then the unscored ones:
    // in listing order (SPEC §3), or with a focus in its rotation (issue #25 item 4). One pass sorts the names
    // into the three (a pass over 100,000 names costs milliseconds in memory reads alone); the rotation keys are
    // hashed after it, for the unscored ones only.
    const position =
      focus === undefined || focus.relevant.length === 0
        ? undefined
        : new Map(focus.relevant.map((name, at) => [name, at]));
    const relevance = new Int32Array(count).fill(-1);
    const relevant: number[] = [];
    const rotation = focus === undefined ? undefined : new Uint32Array(count);
    const unscored = new Int32Array(focus === undefined ? 0 : count);
    let unscoredCount = 0;
    for (let i = 0; i < count; i++) {
      const short = shortLengths[i] as number;
      if (isBundled[i] === 1) {
        state[i] = FULL;
        bundledChars += short + extraOf(i);
        bundledCount += 1;
        continue;
      }
      names += short;
      if (short < minShort) minShort = short;
      const name = listedNames[i] as string;
      const at = position?.get(name);
      if (at !== undefined) {
        relevance[i] = at;
        relevant.push(i);
        continue;
      }
      const entry = hasUsage ? usage.get(name) : undefined;
      const score = entry === undefined ? 0 : usageScore(entry, options.now);
      if (score > 0) {
        scores[i] = score;
        scored.push(i);
      } else if (rotation !== undefined) {
        unscored[unscoredCount++] = i;
      }
    }
    if (rotation !== undefined && focus !== undefined) {
      for (let u = 0; u < unscoredCount; u++) {
        const i = unscored[u] as number;
        rotation[i] = rotationKey(listedNames[i] as string, focus.seed);
      }
    }
    relevant.sort((a, b) => (relevance[a] as number) - (relevance[b] as number));
    const byPriority = (a: number, b: number) => (scores[b] as number) - (scores[a] as number) || a - b;
    const namesFit = bundledChars + names + count - 1 <= budget;
    // When names must be left out, at most this many are kept (each costs its line and a newline): only that
    // many of the scored skills need to be in order.
    const keepable = namesFit ? count : Math.floor(Math.max(0, budget - bundledChars) / (minShort + 1)) + 1;
    sortTop(scored, byPriority, keepable);
    const usedOnes = scored;
    // Only the first `keepable` of the rotation can be kept: no name is shorter than `minShort`.
    const unused =
      rotation === undefined
        ? undefined
        : smallestKeys(unscored.subarray(0, unscoredCount), rotation, keepable);
    const unusedOnes = unused;
    // Priority order; `visit` stops when told to.
    const visit = (take: (i: number) => boolean): void => {
      for (const i of relevant) if (!take(i)) return;
      for (const i of usedOnes) if (!take(i)) return;
      if (unusedOnes !== undefined) {
        for (const i of unusedOnes) if (!take(i)) return;
        return;
      }
      for (let i = 0; i < count; i++) {
        if (isBundled[i] === 0 && scores[i] === 0 && !take(i)) return;
      }
    };
    const nonBundled = count - bundledCount;
    const kept: number[] = [];
    let used = bundledChars + names + count - 1;
    if (namesFit) {
      visit((i) => kept.push(i) > 0);
    } else {
      // Keep the highest-priority names while they and the omitted-skills line fit; leave out the rest.
      let lines = bundledCount;
      used = bundledChars + Math.max(0, bundledCount - 1);
      visit((i) => {
        const add = (shortLengths[i] as number) + (lines > 0 ? 1 : 0);
        if (used + add + omittedCost(nonBundled - kept.length - 1, true, searchable) > budget) return false;
        used += add;
        lines += 1;
        kept.push(i);
        return true;
      });
      used += omittedCost(nonBundled - kept.length, lines > 0, searchable);
    }
    let remaining = budget - used;
    for (const i of kept) state[i] = NAME_ONLY;
    /** Upgrades entry `i` when its description fits `room` (and what is left); returns the chars spent. */
    const upgrade = (i: number, room: number): number => {
      if (state[i] !== NAME_ONLY) return 0;
      const extra = extraOf(i);
      if (extra === 0 || extra > room || extra > remaining) return 0;
      state[i] = FULL;
      remaining -= extra;
      return extra;
    };
    if (focus !== undefined) {
      // Discovery first: a share of the room goes to the relevant skills, then to the rotation of the unused
      // ones, so a never-used skill is not always the first to lose its description.
      let share = Math.floor(remaining * DISCOVERY_SHARE);
      for (const i of kept) {
        if (share < MIN_UPGRADE_COST) break;
        if (relevance[i] === -1 && (scores[i] as number) > 0) continue;
        share -= upgrade(i, share);
      }
    }
    for (const i of kept) {
      if (remaining < MIN_UPGRADE_COST) break;
      upgrade(i, remaining);
    }
  }

  const entries: ListingEntry[] = [];
  const cut: ListingCut[] = [];
  const lines: string[] = [];
  const omitted: string[] = [];
  let chars = 0;
  let nameOnlyCount = 0;
  for (let i = 0; i < count; i++) {
    const name = listedNames[i] as string;
    if (sent?.has(name)) continue;
    if (state[i] === OMITTED) {
      omitted.push(name);
      continue;
    }
    const skill = listed[i] as Skill;
    const short = `- ${displayName(skill)}`;
    const desc = descOf(i);
    const visibility = skillVisibility({
      disableModelInvocation: false,
      override: skill.override?.state,
      inScope: true,
      active: true,
      placement: state[i] === FULL ? "full" : "name-only",
      description: desc,
      fullDescriptionChars: withheldChars(skill),
    });
    const nameOnly = visibility.state === "name-only";
    const text = nameOnly || desc.text === "" ? short : `${short}: ${desc.text}`;
    const entry: ListingEntry = { name, text, nameOnly, visibility };
    if (visibility.state === "name-only" && visibility.reason === "budget") {
      entry.reason = "over-budget";
      nameOnlyCount += 1;
      cut.push({ name, reason: "over-budget", droppedChars: visibility.droppedChars });
    } else if (visibility.state === "cut") {
      entry.reason = "description-capped";
      cut.push({ name, reason: "description-capped", droppedChars: visibility.droppedChars });
    }
    entries.push(entry);
    chars += text.length + (lines.length > 0 ? 1 : 0);
    lines.push(text);
  }
  let footer: string | undefined;
  if (omitted.length > 0) {
    footer = omittedNote(omitted.length, searchable);
    chars += omittedCost(omitted.length, lines.length > 0, searchable);
  } else if (nameOnlyCount > 0) {
    footer = nameOnlyNote(nameOnlyCount);
  }
  const text = formatListingBlock(lines, footer === undefined ? {} : { footer });
  return { text, entries, cut, omitted, chars };
}

/** Where `listing` put each skill it packed: its entries' placements, and `omitted` for the names left out. Pure. */
export function placementsOf(listing: Pick<Listing, "entries" | "omitted">): Map<string, Placement> {
  const placements = new Map<string, Placement>();
  for (const entry of listing.entries) placements.set(entry.name, entry.nameOnly ? "name-only" : "full");
  for (const name of listing.omitted) placements.set(name, "omitted");
  return placements;
}
