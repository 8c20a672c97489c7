import { describe, expect, it } from "vitest";
import { suggestedRule } from "../../src/permissions/suggested-rule.js";

describe("suggestedRule", () => {
  it.each([
    { tool: "Bash", command: "git add src/a.ts", want: "Bash(git add:*)" },
    { tool: "Bash", command: "npm test", want: "Bash(npm test:*)" },
    { tool: "Bash", command: "touch notes.txt", want: "Bash(touch:*)" },
    { tool: "Bash", command: "rm -rf build", want: "Bash(rm:*)" },
    { tool: "Bash", command: "echo hi > out.txt", want: "Bash(echo hi:*)" },
    { tool: "Bash", command: "git add a && git push", want: undefined },
    { tool: "Bash", command: "echo $(whoami) > x", want: undefined },
    { tool: "Bash", command: "$EDITOR notes.txt", want: undefined },
    { tool: "Bash", command: "FOO=1 make", want: undefined },
    { tool: "Write", command: "x", want: undefined },
    { tool: "Skill", command: "deploy", want: undefined },
  ])("$tool $command → $want", ({ tool, command, want }) => {
    expect(suggestedRule(tool, { command })).toBe(want);
  });
});
