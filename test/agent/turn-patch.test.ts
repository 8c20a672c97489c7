import { describe, expect, it } from "vitest";
import { applyPatch, removedToolRefusal, type TurnState } from "../../src/agent/turn-patch.js";

const START: TurnState = { model: "m", grants: [], removedTools: [] };

describe("removedToolRefusal (a fixed tools array: removed tools are refused when called)", () => {
  it("names the skill whose disallowed-tools removed the tool", () => {
    const turn = applyPatch(START, { removeTools: ["Bash", "Write(*)"], removedBy: "careful" });
    expect(turn.removedBy).toEqual({ Bash: "careful", "Write(*)": "careful" });
    expect(removedToolRefusal(turn, "Bash")).toBe(
      'The Bash tool is not available for the rest of this turn: the skill "careful" disallows it (disallowed-tools). Continue without it.',
    );
    expect(removedToolRefusal(turn, "Write")).toContain('the skill "careful"');
  });

  it("a scoped rule is not a removal; other tools and unnamed removals", () => {
    const turn = applyPatch(START, { removeTools: ["Bash(rm:*)"], removedBy: "x" });
    expect(removedToolRefusal(turn, "Bash")).toBeUndefined();
    expect(removedToolRefusal(turn, "Read")).toBeUndefined();
    const bare = applyPatch(START, { removeTools: ["Edit"] });
    expect(bare.removedBy).toBeUndefined();
    expect(removedToolRefusal(bare, "Edit")).toBe(
      "The Edit tool is not available for the rest of this turn: it is disallowed. Continue without it.",
    );
  });

  it("a later skill's removals keep the earlier ones' names", () => {
    const one = applyPatch(START, { removeTools: ["Bash"], removedBy: "a" });
    const two = applyPatch(one, { removeTools: ["Write"], removedBy: "b" });
    expect(two.removedBy).toEqual({ Bash: "a", Write: "b" });
  });
});
