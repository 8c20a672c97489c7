import { describe, expect, it } from "vitest";
import {
  buildListing,
  DEFAULT_LISTING_BUDGET,
  formatListingBlock,
  LISTING_DESCRIPTION_CAP,
  listingBudget,
  listingDescription,
  nameOnlyNote,
} from "../src/listing.js";
import type { Skill } from "../src/skill/skill.js";
import type { UsageEntry } from "../src/usage.js";
import { makeSkill } from "./support/make-skill.js";

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

describe("listingBudget", () => {
  it.each([
    { case: "own env var", env: { SKILLWRIGHT_LISTING_BUDGET: "1234" }, window: 1_000_000, want: 1234 },
    {
      case: "own env var wins over Claude's",
      env: { SKILLWRIGHT_LISTING_BUDGET: "10", SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" },
      want: 10,
    },
    { case: "Claude Code env var", env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" }, want: 20 },
    {
      case: "invalid own env var ignored",
      env: { SKILLWRIGHT_LISTING_BUDGET: "lots", SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" },
      want: 20,
    },
    { case: "negative ignored", env: { SKILLWRIGHT_LISTING_BUDGET: "-5" }, want: DEFAULT_LISTING_BUDGET },
    {
      case: "fraction text ignored",
      env: { SKILLWRIGHT_LISTING_BUDGET: "1.5" },
      want: DEFAULT_LISTING_BUDGET,
    },
    { case: "empty ignored", env: { SKILLWRIGHT_LISTING_BUDGET: "" }, want: DEFAULT_LISTING_BUDGET },
    { case: "zero is a budget", env: { SKILLWRIGHT_LISTING_BUDGET: "0" }, want: 0 },
    { case: "configured beats window", env: {}, configured: 500, window: 1_000_000, want: 500 },
    { case: "env beats configured", env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "7" }, configured: 500, want: 7 },
    { case: "window × 4 × 1%", env: {}, window: 1_000_000, want: 40_000 },
    { case: "200k window", env: {}, window: 200_000, want: 8_000 },
    { case: "custom fraction", env: {}, window: 100_000, fraction: 0.02, want: 8_000 },
    { case: "unknown window", env: {}, want: DEFAULT_LISTING_BUDGET },
    { case: "zero window is unknown", env: {}, window: 0, want: DEFAULT_LISTING_BUDGET },
  ])("$case", ({ env, window, fraction, configured, want }) => {
    expect(listingBudget({ env, contextWindowTokens: window, fraction, configured })).toBe(want);
  });
});

describe("listingDescription", () => {
  it.each([
    { case: "plain", description: "Deploys", whenToUse: undefined, want: "Deploys" },
    {
      case: "when_to_use appended",
      description: "Deploys",
      whenToUse: "on release",
      want: "Deploys - on release",
    },
    {
      case: "newlines collapse",
      description: "Line one\n  line two\r\nthree",
      whenToUse: undefined,
      want: "Line one line two three",
    },
    { case: "newline in when_to_use", description: "A", whenToUse: "b\nc", want: "A - b c" },
    { case: "blank when_to_use ignored", description: "A", whenToUse: "  ", want: "A" },
  ])("$case", ({ description, whenToUse, want }) => {
    expect(listingDescription({ description, whenToUse })).toBe(want);
  });

  it("keeps a description of exactly the cap", () => {
    const description = "x".repeat(LISTING_DESCRIPTION_CAP);
    expect(listingDescription({ description })).toBe(description);
  });

  it("cuts a longer one to the first 1,535 chars plus an ellipsis", () => {
    const description = `${"a".repeat(1_535)}bcdef`;
    const got = listingDescription({ description });
    expect(got).toHaveLength(1_536);
    expect(got).toBe(`${"a".repeat(1_535)}…`);
  });

  it("caps description and when_to_use together", () => {
    const got = listingDescription({ description: "d".repeat(1_530), whenToUse: "when it rains" });
    expect(got).toBe(`${"d".repeat(1_530)} - wh…`);
  });

  it("never splits a surrogate pair at the cut", () => {
    const got = listingDescription({ description: `${"a".repeat(1_534)}😀tail` });
    expect(got).toBe(`${"a".repeat(1_534)}…`);
  });
});

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
    expect(listing([])).toEqual({ text: "", entries: [], cut: [], chars: 0 });
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

  it("keeps bundled skills in full even past the budget", () => {
    const skills = [
      makeSkill({ name: "mine", description: "mine" }),
      makeSkill({ name: "tool", description: "t".repeat(40), source: "bundled" }),
    ];
    expect(lines(skills, 10)).toEqual(["- mine", `- tool: ${"t".repeat(40)}`]);
  });

  it("ends with a note when any entry is name-only", () => {
    const got = listing(three, fullChars - 1);
    expect(got.text.endsWith(`- c\n\n${nameOnlyNote(1)}\n</system-reminder>`)).toBe(true);
    expect(nameOnlyNote(1)).toContain("1 skill above is listed by name only");
    expect(nameOnlyNote(2)).toContain("2 skills above are listed by name only");
    expect(got.cut).toEqual([{ name: "c", reason: "over-budget", droppedChars: 4 }]);
    expect(got.entries[2]).toEqual({ name: "c", text: "- c", nameOnly: true, reason: "over-budget" });
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
    expect(got).toEqual({ text: "", entries: [], cut: [], chars: 0 });
  });
});

describe("formatListingBlock", () => {
  it("takes another header for nested-discovery announcements", () => {
    expect(formatListingBlock(["- x"], { header: "New skills:" })).toBe(
      "<system-reminder>\nNew skills:\n\n- x\n</system-reminder>",
    );
  });
});

describe("buildListing: scale", () => {
  it("lists 10,000 skills over budget in about 10 ms", () => {
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
    const run = () => buildListing(skills, { budget: DEFAULT_LISTING_BUDGET, usage, now: NOW });
    run();
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const got = run();
      best = Math.min(best, performance.now() - start);
      expect(got.entries).toHaveLength(10_000);
    }
    // 10 ms is the target on a quiet machine; the margin keeps a loaded CI box from failing it.
    expect(best).toBeLessThan(20);
  });
});
