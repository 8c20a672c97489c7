import { describe, expect, it } from "vitest";
import { interpolateHeader } from "../../src/hooks/run-http-hook.js";

describe("interpolateHeader", () => {
  const variables = { TOKEN: "s3cret", OTHER: "o" };
  // The hooks' own `${VAR}` syntax, built so it is not read as a template literal typo.
  const braced = (name: string) => `$\{${name}}`;
  it.each([
    ["Bearer $TOKEN", ["TOKEN"], "Bearer s3cret"],
    [`Bearer ${braced("TOKEN")}!`, ["TOKEN"], "Bearer s3cret!"],
    ["$TOKEN-$OTHER", ["TOKEN"], "s3cret-"],
    [`${braced("MISSING")}x`, ["MISSING"], "x"],
    ["no variables", [], "no variables"],
    ["$TOKEN", [], ""],
  ])("%s with %j gives %s", (value, allowed, expected) => {
    expect(interpolateHeader(value, allowed, variables)).toBe(expected);
  });
});
