/** Issue #25 item 4: no starved skills. The session's focus reserves room for relevant and rotated skills. */
import { describe, expect, it } from "vitest";
import { DISCOVERY_SHARE, focusSeed, type ListingFocus, rotationKey } from "../../src/listing/focus.js";
import { buildListing, type Listing } from "../../src/listing/packing.js";
import type { Skill } from "../../src/skill/skill.js";
import type { UsageEntry } from "../../src/usage.js";
import { makeSkill } from "../support/make-skill.js";

const NOW = Date.UTC(2025, 0, 31);
const SKILLS = 40;
/** s-00 … s-19 were used (s-00 most), s-20 … s-39 never. */
const skills: Skill[] = Array.from({ length: SKILLS }, (_, i) =>
  makeSkill({ name: `s-${String(i).padStart(2, "0")}`, description: `Skill ${i} ${"d".repeat(60)}` }),
);
const usage = new Map<string, UsageEntry>(
  Array.from({ length: 20 }, (_, i) => [
    `s-${String(i).padStart(2, "0")}`,
    { count: 40 - i, lastUsedAt: NOW },
  ]),
);
const unused = skills.slice(20).map((s) => s.name);
/** Every name fits; about a third of the descriptions do. */
const BUDGET = 40 * 6 + 900;

function pack(focus?: ListingFocus, budget = BUDGET): Listing {
  return buildListing(skills, {
    budget,
    usage,
    now: NOW,
    ...(focus === undefined ? {} : { focus: () => focus }),
  });
}
const fullNames = (listing: Listing) => listing.entries.filter((e) => !e.nameOnly).map((e) => e.name);

describe("listing focus (issue #25 item 4)", () => {
  it("is asked for only when the listing cuts: one that fits never pays for the search a focus costs", () => {
    let asked = 0;
    const focus = () => {
      asked += 1;
      return { relevant: ["s-30"], seed: focusSeed("tidy") };
    };
    const fits = buildListing(skills, { budget: 100_000, usage, now: NOW, focus });
    expect(fits.entries.every((e) => !e.nameOnly)).toBe(true);
    expect(asked).toBe(0);
    const cuts = buildListing(skills, { budget: BUDGET, usage, now: NOW, focus });
    expect(asked).toBe(1);
    expect(fullNames(cuts)).toContain("s-30");
  });

  it("without a focus (SPEC §3 usage order) every never-used skill loses its description first", () => {
    const full = fullNames(pack());
    expect(full.length).toBeGreaterThan(3);
    expect(full.some((n) => unused.includes(n))).toBe(false);
  });

  it("with a focus, never-used skills get descriptions while some used skills are name-only", () => {
    const listing = pack({ relevant: [], seed: focusSeed("tidy the release notes") });
    const full = fullNames(listing);
    expect(full.some((n) => unused.includes(n))).toBe(true);
    const usedNameOnly = listing.entries.filter((e) => e.nameOnly && !unused.includes(e.name));
    expect(usedNameOnly.length).toBeGreaterThan(0);
    // The most used skill still keeps its description: the share is a quarter, usage order has the rest.
    expect(full).toContain("s-00");
    expect(listing.chars).toBeLessThanOrEqual(BUDGET);
  });

  it("across sessions (seeds) every never-used skill gets its description in some session", () => {
    const seen = new Set<string>();
    for (let s = 0; s < 60; s++) {
      for (const name of fullNames(pack({ relevant: [], seed: focusSeed(`prompt ${s}`) }))) seen.add(name);
    }
    for (const name of unused) expect(seen.has(name), name).toBe(true);
  });

  it("the same focus packs the same bytes; another seed packs differently", () => {
    const focus = { relevant: [], seed: focusSeed("a") };
    expect(pack(focus).text).toBe(pack({ ...focus }).text);
    const texts = new Set(Array.from({ length: 8 }, (_, s) => pack({ relevant: [], seed: s }).text));
    expect(texts.size).toBeGreaterThan(1);
  });

  it("the first prompt's relevant skills get their descriptions first, best first", () => {
    const tight = 40 * 6 + 200;
    const listing = pack({ relevant: ["s-39", "s-38", "s-37"], seed: 1 }, tight);
    const full = fullNames(listing);
    expect(full).toEqual(expect.arrayContaining(["s-39", "s-38"]));
    expect(listing.chars).toBeLessThanOrEqual(tight);
  });

  it("relevant names are kept when names must be left out, then used ones, then the rotation's", () => {
    const budget = 260;
    const listing = pack({ relevant: ["s-39"], seed: 7 }, budget);
    expect(listing.omitted.length).toBeGreaterThan(0);
    expect(listing.entries[0]?.name).not.toBe("s-39");
    expect(listing.entries.map((e) => e.name)).toContain("s-39");
    expect(listing.chars).toBeLessThanOrEqual(budget);
    // Used skills keep their names before unused ones (usage order after relevance).
    const keptUnused = listing.entries.filter((e) => unused.includes(e.name) && e.name !== "s-39");
    const omittedUsed = listing.omitted.filter((n) => !unused.includes(n));
    expect(keptUnused.length === 0 || omittedUsed.length === 0).toBe(true);
  });

  it("stays within the budget for any seed and budget", () => {
    for (let seed = 0; seed < 40; seed++) {
      // From 300: below that the omitted-skills line alone is over (as without a focus).
      const budget = 300 + seed * 53;
      const listing = pack({ relevant: [`s-${String(seed % SKILLS).padStart(2, "0")}`], seed }, budget);
      expect(listing.chars, `seed ${seed}`).toBeLessThanOrEqual(budget);
    }
  });

  it("spends at most the discovery share on unused skills before usage order", () => {
    const listing = pack({ relevant: [], seed: 3 });
    const descChars = (names: string[]) =>
      names.reduce(
        (sum, n) => sum + (listing.entries.find((e) => e.name === n)?.text.length ?? 0) - n.length - 2,
        0,
      );
    const room = BUDGET - (SKILLS * 6 - 1);
    const unusedFull = fullNames(listing).filter((n) => unused.includes(n));
    expect(descChars(unusedFull)).toBeLessThanOrEqual(Math.floor(room * DISCOVERY_SHARE));
  });
});

describe("focus seeds", () => {
  it("a prompt's seed is stable; rotation keys spread names", () => {
    expect(focusSeed("hello")).toBe(focusSeed(" hello "));
    expect(focusSeed("hello")).not.toBe(focusSeed("hello!"));
    const keys = new Set(skills.map((s) => rotationKey(s.name, 42)));
    expect(keys.size).toBe(SKILLS);
    expect(rotationKey("s-01", 42)).toBe(rotationKey("s-01", 42));
    expect(rotationKey("s-01", 42)).not.toBe(rotationKey("s-01", 43));
  });
});
