import { describe, expect, it } from "vitest";
import { nameOnlyNote } from "../../src/listing/block.js";
import { DEFAULT_LISTING_BUDGET } from "../../src/listing/budget.js";
import { omittedNote } from "../../src/listing/overflow.js";
import { buildListing } from "../../src/listing/packing.js";
import type { Skill } from "../../src/skill/skill.js";
import { type UsageEntry, usageScore } from "../../src/usage.js";
import { makeSkill } from "../support/make-skill.js";
import { seededRandom } from "../support/seeded-random.js";

const NOW = Date.UTC(2025, 0, 31);
const DAY = 86_400_000;
const NO_USAGE = new Map<string, UsageEntry>();
const HEADER = "The following skills are available for use with the Skill tool:";

function listing(skills: Skill[], budget = 100_000, usage: ReadonlyMap<string, UsageEntry> = NO_USAGE) {
  return buildListing(skills, { budget, usage, now: NOW });
}

function lines(skills: Skill[], budget: number, usage: ReadonlyMap<string, UsageEntry> = NO_USAGE): string[] {
  return listing(skills, budget, usage).entries.map((e) => e.text);
}

describe("buildListing: format", () => {
  it("wraps entries in the system-reminder block", () => {
    const got = listing([
      makeSkill({ name: "a", description: "Does A" }),
      makeSkill({ name: "b", description: "Does B" }),
    ]);
    expect(got.text).toBe(`<system-reminder>\n${HEADER}\n\n- a: Does A\n- b: Does B\n</system-reminder>`);
  });

  it("lists an alias as dir (alias)", () => {
    expect(lines([makeSkill({ name: "pdf-tools", alias: "pdf", description: "PDFs" })], 1_000)).toEqual([
      "- pdf-tools (pdf): PDFs",
    ]);
  });

  it("leaves out disable-model-invocation skills and the ones isListable rejects", () => {
    const skills = [
      makeSkill({ name: "a" }),
      makeSkill({ name: "hidden", disableModelInvocation: true }),
      makeSkill({ name: "conditional", paths: ["*.ts"] }),
    ];
    const got = buildListing(skills, {
      budget: 1_000,
      usage: NO_USAGE,
      now: NOW,
      isListable: (s) => !s.paths,
    });
    expect(got.entries.map((e) => e.name)).toEqual(["a"]);
  });

  it("keeps the input order", () => {
    const names = ["zeta", "Alpha", "mid"];
    expect(listing(names.map((name) => makeSkill({ name }))).entries.map((e) => e.name)).toEqual(names);
  });

  it("gives no text for no skills", () => {
    expect(listing([])).toEqual({ text: "", entries: [], cut: [], omitted: [], chars: 0 });
  });

  it("caps each description at maxDescChars", () => {
    const got = buildListing([makeSkill({ name: "s", description: "c".repeat(150) })], {
      budget: 100_000,
      maxDescChars: 100,
      usage: NO_USAGE,
      now: NOW,
    });
    expect(got.entries.map((e) => e.text)).toEqual([`- s: ${"c".repeat(99)}…`]);
    expect(got.cut).toEqual([{ name: "s", reason: "description-capped", droppedChars: 51 }]);
  });

  it("reports a capped description in cut without making it name-only", () => {
    const got = listing([makeSkill({ name: "long", description: "y".repeat(2_000) })]);
    expect(got.entries[0]).toMatchObject({ nameOnly: false, reason: "description-capped" });
    expect(got.cut).toEqual([{ name: "long", reason: "description-capped", droppedChars: 2_000 - 1_535 }]);
  });
});

describe("buildListing: budget", () => {
  const three = [
    makeSkill({ name: "a", description: "aaaa" }),
    makeSkill({ name: "b", description: "bbbb" }),
    makeSkill({ name: "c", description: "cccc" }),
  ];
  // Each full line is 9 chars ("- a: aaaa"), each short one 3 ("- a"); 2 separators.
  const fullChars = 3 * 9 + 2;

  it("keeps every full line when they fit exactly", () => {
    const got = listing(three, fullChars);
    expect(got.entries.every((e) => !e.nameOnly)).toBe(true);
    expect(got.chars).toBe(fullChars);
    expect(got.text).not.toContain("name only");
  });

  it("starts everyone name-only and upgrades in listing order when usage ties", () => {
    // Over by one: base = 3×3 + 2 = 11, room for two upgrades of 6 chars each within 28.
    expect(lines(three, fullChars - 1)).toEqual(["- a: aaaa", "- b: bbbb", "- c"]);
  });

  it("upgrades by usage score first, output still in listing order", () => {
    const usage = new Map([["c", { count: 3, lastUsedAt: NOW }]]);
    expect(lines(three, 11 + 6, usage)).toEqual(["- a", "- b", "- c: cccc"]);
  });

  it("decays usage: an old heavy use loses to a recent light one", () => {
    const usage = new Map([
      ["a", { count: 4, lastUsedAt: NOW - 28 * DAY }], // 4 × 0.5^4 = 0.25
      ["b", { count: 1, lastUsedAt: NOW }], // 1
    ]);
    expect(lines(three, 11 + 6, usage)).toEqual(["- a", "- b: bbbb", "- c"]);
  });

  it("floors decay at 0.1 of the count", () => {
    const usage = new Map([
      ["a", { count: 20, lastUsedAt: NOW - 365 * DAY }], // 20 × 0.1 = 2
      ["b", { count: 1, lastUsedAt: NOW }], // 1
    ]);
    expect(lines(three, 11 + 6, usage)).toEqual(["- a: aaaa", "- b", "- c"]);
  });

  it("skips an upgrade that does not fit and tries the next", () => {
    const skills = [makeSkill({ name: "big", description: "x".repeat(50) }), ...three];
    const usage = new Map([["big", { count: 9, lastUsedAt: NOW }]]);
    // base = 5 + 3×3 + 3 = 17; big needs 52 more, each small one 6.
    expect(lines(skills, 17 + 12, usage)).toEqual(["- big", "- a: aaaa", "- b: bbbb", "- c"]);
  });

  it("keeps bundled skills in full even past the budget (the other names are then left out)", () => {
    const skills = [
      makeSkill({ name: "mine", description: "mine" }),
      makeSkill({ name: "tool", description: "t".repeat(40), source: "bundled" }),
    ];
    expect(lines(skills, 10)).toEqual([`- tool: ${"t".repeat(40)}`]);
    expect(listing(skills, 10).omitted).toEqual(["mine"]);
  });

  it("ends with a note when any entry is name-only", () => {
    const got = listing(three, fullChars - 1);
    expect(got.text.endsWith(`- c\n\n${nameOnlyNote(1)}\n</system-reminder>`)).toBe(true);
    expect(nameOnlyNote(1)).toContain("1 skill above is listed by name only");
    expect(nameOnlyNote(2)).toContain("2 skills above are listed by name only");
    expect(got.cut).toEqual([{ name: "c", reason: "over-budget", droppedChars: 4 }]);
    expect(got.entries[2]).toEqual({
      name: "c",
      text: "- c",
      nameOnly: true,
      reason: "over-budget",
      visibility: { state: "name-only", reason: "budget", droppedChars: 4 },
    });
  });

  it("measures chars as the sent lines joined with newlines", () => {
    const got = listing(three, fullChars - 1);
    expect(got.chars).toBe(got.entries.map((e) => e.text).join("\n").length);
    expect(got.chars).toBeLessThanOrEqual(fullChars - 1);
  });
});

describe("buildListing: deltas", () => {
  const skills = [makeSkill({ name: "a" }), makeSkill({ name: "b" }), makeSkill({ name: "c" })];

  it("sends only names not sent yet", () => {
    const got = buildListing(skills, {
      budget: 1_000,
      usage: NO_USAGE,
      now: NOW,
      sentNames: new Set(["a", "c"]),
    });
    expect(got.entries.map((e) => e.name)).toEqual(["b"]);
    expect(got.text).toBe(`<system-reminder>\n${HEADER}\n\n- b: Does b\n</system-reminder>`);
  });

  it("gives an empty text for an empty delta", () => {
    const got = buildListing(skills, {
      budget: 1_000,
      usage: NO_USAGE,
      now: NOW,
      sentNames: new Set(["a", "b", "c"]),
    });
    expect(got).toEqual({ text: "", entries: [], cut: [], omitted: [], chars: 0 });
  });
});

describe("buildListing: SPEC §3 arithmetic, exact numbers", () => {
  // Four user skills and one bundled one; name-only lines are 4 chars ("- s1"), the bundled line 15.
  const skills = [
    makeSkill({ name: "s1", description: "x".repeat(10) }), // upgrade costs 12
    makeSkill({ name: "s2", description: "y".repeat(20) }), // 22
    makeSkill({ name: "s3", description: "z".repeat(5) }), // 7
    makeSkill({ name: "s4", description: "w".repeat(30) }), // 32
    makeSkill({ name: "bb", description: "bundled", source: "bundled" }), // "- bb: bundled"
  ];
  // base = 4 × 4 + 13 + 4 separators = 33; full = 33 + 12 + 22 + 7 + 32 = 106.
  const usage = new Map([
    ["s4", { count: 5, lastUsedAt: NOW }],
    ["s2", { count: 2, lastUsedAt: NOW }],
  ]);
  it.each([
    { budget: 106, want: ["s1+", "s2+", "s3+", "s4+", "bb+"], chars: 106 },
    // Upgrade order s4 (32), s2 (22), then s1 (12), s3 (7) in listing order.
    { budget: 105, want: ["s1+", "s2+", "s3", "s4+", "bb+"], chars: 99 },
    { budget: 33 + 32 + 22 + 12, want: ["s1+", "s2+", "s3", "s4+", "bb+"], chars: 99 },
    { budget: 33 + 32 + 22 + 12 - 1, want: ["s1", "s2+", "s3+", "s4+", "bb+"], chars: 94 },
    // s4 costs 32: does not fit 31 extra chars, so it is skipped and s2 (22), then s3 (7) are tried.
    { budget: 33 + 31, want: ["s1", "s2+", "s3+", "s4", "bb+"], chars: 62 },
    { budget: 33 + 2, want: ["s1", "s2", "s3", "s4", "bb+"], chars: 33 },
    { budget: 33, want: ["s1", "s2", "s3", "s4", "bb+"], chars: 33 },
  ])("budget $budget", ({ budget, want, chars }) => {
    const got = buildListing(skills, { budget, usage, now: NOW });
    expect(got.entries.map((e) => (e.nameOnly ? e.name : `${e.name}+`))).toEqual(want);
    expect(got.chars).toBe(chars);
    expect(got.omitted).toEqual([]);
  });
});

describe("buildListing: never over budget because of names (SPEC §3 [beyond])", () => {
  // Names of 53 chars: name-only lines are 55 chars, more than the five full lines could ever leave room for.
  const long = (n: number) => `s${n}-${"n".repeat(50)}`;
  const five = [1, 2, 3, 4, 5].map((n) => makeSkill({ name: long(n), description: "d" }));
  // The omitted-skills line costs its length plus the blank line before it.
  const note = (n: number, searchable = false) => omittedNote(n, searchable).length + 2;

  it("pins the omitted-skills line", () => {
    expect(omittedNote(3, true)).toBe(
      "(3 more skills are not listed to fit the listing budget: find them with the SkillSearch tool. The Skill tool accepts every skill, listed or not.)",
    );
    expect(omittedNote(1, false)).toBe(
      "(1 more skill is not listed to fit the listing budget. The Skill tool accepts every skill, listed or not, by its exact name.)",
    );
  });

  it.each([
    { case: "two names and the line fit exactly", budget: 111 + note(3), kept: [1, 2], usage: NO_USAGE },
    { case: "one char less: one name", budget: 111 + note(3) - 1, kept: [1], usage: NO_USAGE },
    {
      case: "usage decides who stays, output in listing order",
      budget: 111 + note(3),
      kept: [1, 5],
      usage: new Map([[long(5), { count: 1, lastUsedAt: NOW }]]),
    },
    { case: "not even one name", budget: note(5), kept: [], usage: NO_USAGE },
    { case: "budget 0: only the line", budget: 0, kept: [], usage: NO_USAGE },
  ])("$case", ({ budget, kept, usage }) => {
    const got = buildListing(five, { budget, usage, now: NOW });
    expect(got.entries.map((e) => e.name)).toEqual(kept.map(long));
    const omitted = five.map((s) => s.name).filter((n) => !kept.map(long).includes(n));
    expect(got.omitted).toEqual(omitted);
    const lines = got.entries.map((e) => e.text);
    const footer = omittedNote(omitted.length, false);
    const content = lines.length === 0 ? footer : `${lines.join("\n")}\n\n${footer}`;
    expect(got.text).toBe(`<system-reminder>\n${HEADER}\n\n${content}\n</system-reminder>`);
    expect(got.chars).toBe(content.length);
    if (budget > 0) expect(got.chars).toBeLessThanOrEqual(budget);
  });

  it("spends what is left after the names on upgrades", () => {
    // s1 (55) + the line for 4 omitted + 3 chars: s2 does not fit (56 more), s1's upgrade (3) does.
    const got = buildListing(five, { budget: 55 + note(4) + 3, usage: NO_USAGE, now: NOW });
    expect(got.entries.map((e) => e.text)).toEqual([`- ${long(1)}: d`]);
    expect(got.chars).toBe(55 + note(4) + 3);
  });

  it("never leaves out bundled skills; when they alone are over, they are still sent whole", () => {
    const skills = [...five, makeSkill({ name: "tool", description: "t".repeat(40), source: "bundled" })];
    const got = buildListing(skills, { budget: 20, usage: NO_USAGE, now: NOW, searchable: true });
    expect(got.entries.map((e) => e.text)).toEqual([`- tool: ${"t".repeat(40)}`]);
    expect(got.omitted).toEqual([1, 2, 3, 4, 5].map(long));
    expect(got.text).toContain(omittedNote(5, true));
  });

  it("a delta lists only new names and counts only newly omitted ones", () => {
    const got = buildListing(five, {
      budget: 111 + note(3),
      usage: NO_USAGE,
      now: NOW,
      sentNames: new Set([long(1), long(3)]),
    });
    expect(got.entries.map((e) => e.name)).toEqual([long(2)]);
    expect(got.omitted).toEqual([long(4), long(5)]);
    expect(got.text).toContain(omittedNote(2, false));
  });

  it.each([
    [8_000, false],
    [30_000, true],
  ])("10,000 skills stay within a %i-char budget", (budget, searchable) => {
    const skills = Array.from({ length: 10_000 }, (_, i) =>
      makeSkill({ name: `skill-number-${i}`, description: `Does thing number ${i}`.repeat(4) }),
    );
    const got = buildListing(skills, { budget, usage: NO_USAGE, now: NOW, searchable });
    const content = `${got.entries.map((e) => e.text).join("\n")}\n\n${omittedNote(got.omitted.length, searchable)}`;
    expect(got.chars).toBe(content.length);
    expect(got.chars).toBeLessThanOrEqual(budget);
    // The next name would not have fit: nothing was left out that had room.
    const next = skills[got.entries.length];
    expect(got.chars + `- ${next?.name}`.length + 1).toBeGreaterThan(budget);
    expect(got.entries.length + got.omitted.length).toBe(10_000);
    expect(got.entries.map((e) => e.name)).toEqual(skills.slice(0, got.entries.length).map((s) => s.name));
    expect(got.text.endsWith(`${omittedNote(got.omitted.length, searchable)}\n</system-reminder>`)).toBe(
      true,
    );
  });
});

describe("buildListing: which names stay, against a plain reference", () => {
  // The reference: every non-bundled skill sorted by (usage score desc, listing order), the longest prefix whose
  // name-only lines and the omitted-skills line fit.
  function reference(skills: Skill[], usage: ReadonlyMap<string, UsageEntry>, budget: number): string[] {
    const order = skills
      .map((skill, index) => ({ skill, index, score: usageScore(usage.get(skill.name), NOW) }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
    const kept: string[] = [];
    let used = 0;
    for (const { skill } of order) {
      const add = `- ${skill.name}`.length + (kept.length > 0 ? 1 : 0);
      const left = skills.length - kept.length - 1;
      const note = left > 0 ? omittedNote(left, false).length + 2 : 0;
      if (used + add + note > budget) break;
      used += add;
      kept.push(skill.name);
    }
    const names = new Set(kept);
    return skills.filter((s) => names.has(s.name)).map((s) => s.name);
  }

  it.each([1, 2, 3, 4, 5])("seed %i: 3,000 skills, most with usage scores, many ties", (seed) => {
    const random = seededRandom(seed);
    const skills = Array.from({ length: 3_000 }, (_, i) =>
      makeSkill({ name: `s${i}-${"n".repeat(Math.floor(random() * 20))}`, description: "d".repeat(50) }),
    );
    const usage = new Map<string, UsageEntry>();
    for (const skill of skills) {
      if (random() < 0.7) usage.set(skill.name, { count: 1 + Math.floor(random() * 4), lastUsedAt: NOW });
    }
    const budget = 1_000 + Math.floor(random() * 8_000);
    const got = buildListing(skills, { budget, usage, now: NOW });
    expect(got.entries.map((e) => e.name)).toEqual(reference(skills, usage, budget));
  });
});

describe("buildListing: scale (timings are in bench/listing.js)", () => {
  it("lists 10,000 skills over budget: bundled in full, the rest by priority, within the budget", () => {
    const skills = Array.from({ length: 10_000 }, (_, i) =>
      makeSkill({
        name: `skill-${i}`,
        description: `Does thing number ${i} `.repeat(8),
        source: i % 100 === 0 ? "bundled" : "user",
      }),
    );
    const usage = new Map(
      skills
        .filter((_, i) => i % 7 === 0)
        .map((s, i) => [s.name, { count: i % 13, lastUsedAt: NOW - i * DAY }]),
    );
    const got = buildListing(skills, { budget: DEFAULT_LISTING_BUDGET, usage, now: NOW });
    const bundledNames = new Set(skills.filter((s) => s.source === "bundled").map((s) => s.name));
    const bundled = got.entries.filter((e) => bundledNames.has(e.name));
    expect(bundled).toHaveLength(100);
    expect(bundled.every((e) => !e.nameOnly)).toBe(true);
    expect(got.entries.length + got.omitted.length).toBe(10_000);
    // Bundled lines alone take more than 8,000 chars here, so every other skill is left out.
    expect(got.omitted).toHaveLength(9_900);
  });
});
