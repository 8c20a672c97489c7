import { describe, expect, it } from "vitest";
import { createListingState } from "../../src/session/listing-state.js";
import type { UsageScores } from "../../src/usage.js";
import { makeSkill } from "../support/make-skill.js";

const BUDGET = { budget: 8_000, maxDescChars: 1_536, searchable: false };
const NOW = 1_800_000_000_000;

/** A usage loader that counts its calls. */
function countingUsage() {
  const calls = { count: 0 };
  const load = async (): Promise<UsageScores> => {
    calls.count += 1;
    return new Map();
  };
  return { calls, load };
}

describe("createListingState", () => {
  it("lists everything once, then nothing, without loading usage again when nothing is new", async () => {
    const state = createListingState();
    const usage = countingUsage();
    const skills = [
      makeSkill({ name: "alpha", description: "A" }),
      makeSkill({ name: "beta", description: "B" }),
    ];

    const first = await state.next("main", skills, BUDGET, usage.load, NOW);
    expect(first.entries.map((e) => e.name)).toEqual(["alpha", "beta"]);
    expect(first.text).toContain("- alpha: A");
    expect(usage.calls.count).toBe(1);

    const again = await state.next("main", skills, BUDGET, usage.load, NOW);
    expect(again.text).toBe("");
    expect(usage.calls.count).toBe(1);

    const grown = [...skills, makeSkill({ name: "gamma", description: "G" })];
    const delta = await state.next("main", grown, BUDGET, usage.load, NOW);
    expect(delta.entries.map((e) => e.name)).toEqual(["gamma"]);
    expect(usage.calls.count).toBe(2);
  });

  it("skills the model may not invoke never count as new", async () => {
    const state = createListingState();
    const usage = countingUsage();
    const hidden = [makeSkill({ name: "manual", description: "M", disableModelInvocation: true })];
    expect((await state.next("main", hidden, BUDGET, usage.load, NOW)).text).toBe("");
    expect(usage.calls.count).toBe(0);
  });

  it("keeps agents apart, and reset makes the next listing full again", async () => {
    const state = createListingState();
    const usage = countingUsage();
    const skills = [makeSkill({ name: "alpha", description: "A" })];
    await state.next("main", skills, BUDGET, usage.load, NOW);
    expect((await state.next("fork-1", skills, BUDGET, usage.load, NOW)).entries).toHaveLength(1);
    state.markSent("main", ["beta"]);
    expect(state.sent("main")).toEqual(new Set(["alpha", "beta"]));
    state.reset("main");
    expect((await state.next("main", skills, BUDGET, usage.load, NOW)).entries).toHaveLength(1);
  });

  it("budgets a delta: a burst of new skills stays within the budget, and omitted names are not re-sent", async () => {
    const state = createListingState();
    const usage = countingUsage();
    const first = [makeSkill({ name: "alpha", description: "A" })];
    await state.next("main", first, BUDGET, usage.load, NOW);
    const burst = Array.from({ length: 5_000 }, (_, i) =>
      makeSkill({ name: `new-skill-${String(i).padStart(4, "0")}`, description: "x".repeat(100) }),
    );
    const grown = [...first, ...burst];
    const delta = await state.next("main", grown, { ...BUDGET, searchable: true }, usage.load, NOW);
    // Every name sent so far and the one the delta lists fit 8,000 chars; the rest are counted, not listed.
    expect(delta.chars).toBeLessThanOrEqual(BUDGET.budget);
    expect(delta.entries.length + delta.omitted.length).toBe(5_000);
    expect(delta.omitted.length).toBeGreaterThan(4_000);
    expect(delta.text).toContain(`(${delta.omitted.length} more skills are not listed`);
    expect(delta.text).toContain("SkillSearch");
    // The omitted names count as handled: the next request sends nothing and packs nothing.
    const again = await state.next("main", grown, BUDGET, usage.load, NOW);
    expect(again.text).toBe("");
    expect(usage.calls.count).toBe(2);
  });
});
