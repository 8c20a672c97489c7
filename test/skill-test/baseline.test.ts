import { describe, expect, it } from "vitest";
import {
  compareSides,
  pinFailure,
  type RunMeasure,
  spread,
  totalBaseline,
} from "../../src/skill-test/baseline.js";
import { parseCasesFile } from "../../src/skill-test/cases.js";

const run = (passed: boolean, requests = 2, wallMs = 100): RunMeasure => ({
  passed,
  requests,
  inputTokens: requests * 100,
  outputTokens: requests * 10,
  cacheReadTokens: 0,
  wallMs,
  failures: passed ? [] : ["no"],
});

describe("baseline stats", () => {
  it("a mean and the sample standard deviation, 0 for one value", () => {
    expect(spread([1, 0, 1])).toEqual({ mean: 0.6667, sd: 0.5774 });
    expect(spread([5])).toEqual({ mean: 5, sd: 0 });
    expect(spread([])).toEqual({ mean: 0, sd: 0 });
  });

  it("compares the sides: each measure's difference, and a pin that holds or not", () => {
    const withRuns = [run(true, 3, 120), run(false, 3, 80), run(true, 3, 100)];
    const withoutRuns = [run(false), run(true), run(false)];
    const result = compareSides(withRuns, withoutRuns, { wins: "with", passRate: 0.2 });
    expect(result.delta).toEqual({
      passRate: 0.3333,
      requests: 1,
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 0,
      wallMs: 0,
    });
    expect(result.pinHeld).toBe(true);
    expect(result.failures).toEqual([]);
    const strict = compareSides(withRuns, withoutRuns, { wins: "with", passRate: 0.5 });
    expect(strict.pinHeld).toBe(false);
    expect(strict.failures[0]).toContain("by at least 0.5, it leads by 0.3333");
    const reversed = compareSides(withRuns, withoutRuns, { wins: "without" });
    expect(reversed.failures[0]).toContain(
      "the without-skill pass rate (0.3333) must beat the with-skill one",
    );
  });

  it("without a margin the winner must be strictly ahead; a tie is not a win", () => {
    expect(pinFailure({ wins: "with" }, { mean: 0.5, sd: 0 }, { mean: 0.5, sd: 0 }, 0)).toBeDefined();
    expect(
      pinFailure({ wins: "with", passRate: 0 }, { mean: 0.5, sd: 0 }, { mean: 0.5, sd: 0 }, 0),
    ).toBeUndefined();
  });

  it("totals per run index: the share of cases that passed, costs summed", () => {
    const a = compareSides([run(true), run(false)], [run(false), run(false)]);
    const b = compareSides([run(true), run(true)], [run(true), run(false)]);
    const total = totalBaseline([a, b]);
    expect(total.runs).toBe(2);
    expect(total.with.passRate).toEqual({ mean: 0.75, sd: 0.3536 });
    expect(total.without.passRate).toEqual({ mean: 0.25, sd: 0.3536 });
    expect(total.delta.passRate).toBe(0.5);
    expect(total.with.requests).toEqual({ mean: 4, sd: 0 });
  });
});

describe("baseline pins in tests files", () => {
  it('"+0.2" and 0.2 are the same margin; a file-level pin applies to cases without their own', () => {
    const parsed = parseCasesFile(
      "t.yaml",
      `baseline: { passRate: "+0.2" }
cases:
  - { name: a, kind: session, prompt: hi, turns: [{ response: { content: [] } }], expect: { reply: { contains: x } } }
  - name: b
    kind: session
    prompt: hi
    turns: [{ response: { content: [] } }]
    expect: { reply: { contains: x } }
    baseline: { wins: without, passRate: 0.1 }
  - { name: c, kind: listing, expect: full }
`,
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.cases.map((c) => c.baseline)).toEqual([
      { wins: "with", passRate: 0.2 },
      { wins: "without", passRate: 0.1 },
      undefined,
    ]);
  });

  it("a margin that is not one is an error with its line", () => {
    const parsed = parseCasesFile("t.yaml", `baseline: { passRate: "lots" }\ncases: []\n`);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors[0]?.line).toBe(1);
    expect(parsed.errors[0]?.message).toContain('as "+0.2" or 0.2');
  });
});
