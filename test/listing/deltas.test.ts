import { describe, expect, it } from "vitest";
import { inActivationOrder } from "../../src/listing/deltas.js";

describe("inActivationOrder (issue #44)", () => {
  const named = (...names: string[]) => names.map((name) => ({ name }));
  it.each([
    {
      case: "nothing activated keeps the order",
      skills: ["a", "b", "c"],
      activated: [],
      want: ["a", "b", "c"],
    },
    {
      case: "activated names follow their order, after the rest",
      skills: ["a", "b", "c", "d"],
      activated: ["d", "b"],
      want: ["a", "c", "d", "b"],
    },
    {
      case: "an activated name not among the skills is ignored",
      skills: ["a", "b"],
      activated: ["x", "a"],
      want: ["b", "a"],
    },
  ])("$case", ({ skills, activated, want }) => {
    expect(inActivationOrder(named(...skills), activated).map((s) => s.name)).toEqual(want);
  });
});
