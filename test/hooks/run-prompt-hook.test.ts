import { describe, expect, it } from "vitest";
import { promptWithArguments, readVerdict } from "../../src/hooks/run-prompt-hook.js";

describe("promptWithArguments", () => {
  it("replaces every $ARGUMENTS, or appends the JSON after a blank line", () => {
    expect(promptWithArguments("Check $ARGUMENTS and $ARGUMENTS", "{}")).toBe("Check {} and {}");
    expect(promptWithArguments("Is it safe?", '{"a":1}')).toBe('Is it safe?\n\n{"a":1}');
  });
});

describe("readVerdict", () => {
  it.each([
    ['{"ok": true}', { ok: true }],
    ['{"ok": false, "reason": "no"}', { ok: false, reason: "no" }],
    ['```json\n{"ok": false, "reason": "fenced"}\n```', { ok: false, reason: "fenced" }],
    ['Sure: {"ok": true, "extra": 1}', { ok: true }],
  ])("%s reads as a verdict", (text, verdict) => {
    expect(readVerdict(text)).toEqual(verdict);
  });

  it.each(["yes", '{"ok": "yes"}', "{not json}", ""])("%s is an error", (text) => {
    expect(readVerdict(text)).toHaveProperty("error");
  });
});
