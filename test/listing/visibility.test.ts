/** Issue #25 item 5b: one pure function decides what the model sees of each skill. */
import { describe, expect, it } from "vitest";
import { cutDescription } from "../../src/listing/description.js";
import { buildListing, placementsOf } from "../../src/listing/packing.js";
import {
  catalogVisibility,
  describeVisibility,
  skillVisibility,
  switchedOffReason,
  type VisibilityFacts,
  visibilityCounts,
} from "../../src/listing/visibility.js";
import { makeSkill } from "../support/make-skill.js";

const DESC = { text: "Does things", capped: 0 };
const LISTED: VisibilityFacts = {
  disableModelInvocation: false,
  inScope: true,
  active: true,
  placement: "full",
  description: DESC,
};

describe("skillVisibility", () => {
  it("full, cut, name-only, and absent for the budget", () => {
    expect(skillVisibility(LISTED)).toEqual({ state: "full" });
    expect(skillVisibility({ ...LISTED, description: { text: "Does…", capped: 40 } })).toEqual({
      state: "cut",
      droppedChars: 40,
    });
    expect(skillVisibility({ ...LISTED, placement: "name-only" })).toEqual({
      state: "name-only",
      reason: "budget",
      droppedChars: DESC.text.length,
    });
    expect(skillVisibility({ ...LISTED, placement: "omitted" })).toEqual({
      state: "absent",
      reason: "budget",
    });
    expect(skillVisibility({ ...LISTED, placement: undefined })).toEqual({
      state: "absent",
      reason: "unlisted",
    });
    // An empty description hides nothing: its name-only line is all there is.
    expect(
      skillVisibility({ ...LISTED, placement: "name-only", description: { text: "", capped: 0 } }),
    ).toEqual({ state: "full" });
  });

  it("reasons to see nothing come first, in a fixed order", () => {
    const all: VisibilityFacts = {
      ...LISTED,
      switchedOff: "filtered",
      disableModelInvocation: true,
      inScope: false,
      active: false,
    };
    expect(skillVisibility(all)).toEqual({ state: "absent", reason: "filtered" });
    expect(skillVisibility({ ...all, switchedOff: undefined })).toEqual({
      state: "absent",
      reason: "model-invocation-disabled",
    });
    expect(skillVisibility({ ...all, switchedOff: undefined, disableModelInvocation: false })).toEqual({
      state: "absent",
      reason: "scope",
    });
    expect(
      skillVisibility({ ...all, switchedOff: undefined, disableModelInvocation: false, inScope: true }),
    ).toEqual({ state: "absent", reason: "conditional" });
  });

  it("a settings entry or /skills off disables; a flag filters", () => {
    expect(switchedOffReason({ kind: "setting", path: "/s.json", pattern: "a" })).toBe("disabled");
    expect(switchedOffReason({ kind: "session", pattern: "a" })).toBe("disabled");
    expect(switchedOffReason({ kind: "flag", flag: "--no-skills", pattern: "a" })).toBe("filtered");
    expect(switchedOffReason({ kind: "flag", flag: "--skills", only: ["b"] })).toBe("filtered");
  });

  it("describes each state for doctor", () => {
    expect(describeVisibility({ state: "full" })).toBe("full");
    expect(describeVisibility({ state: "name-only", reason: "budget", droppedChars: 9 })).toBe(
      "name-only (budget, 9 chars dropped)",
    );
    expect(describeVisibility({ state: "absent", reason: "conditional" })).toBe("absent (conditional)");
  });
});

describe("the listing's entries carry their visibility, and the catalog's agrees", () => {
  const skills = [
    makeSkill({ name: "a", description: "A".repeat(300) }),
    makeSkill({ name: "b", description: "B".repeat(40) }),
    makeSkill({ name: "c", description: "C".repeat(40) }),
    makeSkill({ name: "d", description: "D".repeat(40) }),
    makeSkill({ name: "hidden", disableModelInvocation: true }),
    makeSkill({ name: "py", paths: ["*.py"] }),
    makeSkill({ name: "ops", availableTo: ["ops-agent"] }),
    makeSkill({ name: "off" }),
  ];
  const cap = 100;
  const listable = skills.filter((s) => !["py", "ops", "off"].includes(s.name));
  const listing = buildListing(listable, { budget: 200, maxDescChars: cap, usage: new Map(), now: 0 });

  it("each entry's text is what its visibility says", () => {
    for (const entry of listing.entries) {
      if (entry.visibility.state === "name-only") expect(entry.text).toBe(`- ${entry.name}`);
      else expect(entry.text.startsWith(`- ${entry.name}: `)).toBe(true);
      if (entry.visibility.state === "cut") expect(entry.text.endsWith("…")).toBe(true);
    }
    expect(listing.entries.map((e) => e.visibility.state)).toContain("name-only");
  });

  it("catalogVisibility gives every skill one state, counts add up, and agrees with the entries", () => {
    const visible = new Set(listable.map((s) => s.name));
    const list = catalogVisibility({
      skills,
      switchedOff: new Map([["off", "disabled"]]),
      inScope: (s) => s.availableTo === undefined,
      active: (s) => visible.has(s.name) || s.name === "ops" || s.name === "off",
      placements: placementsOf(listing),
      description: (s) => cutDescription(s, cap),
    });
    const by = new Map(list.map((v) => [v.name, v.visibility]));
    expect(by.get("hidden")).toEqual({ state: "absent", reason: "model-invocation-disabled" });
    expect(by.get("py")).toEqual({ state: "absent", reason: "conditional" });
    expect(by.get("ops")).toEqual({ state: "absent", reason: "scope" });
    expect(by.get("off")).toEqual({ state: "absent", reason: "disabled" });
    for (const entry of listing.entries) expect(by.get(entry.name)).toEqual(entry.visibility);
    const counts = visibilityCounts(list);
    expect(counts.full + counts.cut + counts["name-only"] + counts.absent).toBe(skills.length);
    expect(counts.absent).toBe(4);
  });
});
