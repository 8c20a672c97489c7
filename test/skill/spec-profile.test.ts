import { describe, expect, it } from "vitest";
import { checkSpecProfile, SPEC_DESCRIPTION_MAX } from "../../src/skill/spec-profile.js";

const PATH = "/s/demo/SKILL.md";

describe("checkSpecProfile", () => {
  it.each([
    { case: "valid", data: { name: "demo", description: "d" }, expected: [] },
    {
      case: "all spec keys",
      data: {
        name: "demo",
        description: "d",
        license: "MIT",
        compatibility: "x",
        metadata: { a: "b" },
        "allowed-tools": "Read",
      },
      expected: [],
    },
    { case: "name missing", data: { description: "d" }, expected: [["error", "spec-name-missing"]] },
    { case: "name empty", data: { name: "", description: "d" }, expected: [["error", "spec-name-missing"]] },
    {
      case: "name not a string",
      data: { name: 7, description: "d" },
      expected: [["error", "spec-name-missing"]],
    },
    {
      case: "name differs",
      data: { name: "other", description: "d" },
      expected: [["error", "spec-name-mismatch"]],
    },
    { case: "description missing", data: { name: "demo" }, expected: [["error", "spec-description-length"]] },
    {
      case: "description blank",
      data: { name: "demo", description: "  " },
      expected: [["error", "spec-description-length"]],
    },
    {
      case: "description exactly at the limit",
      data: { name: "demo", description: "x".repeat(SPEC_DESCRIPTION_MAX) },
      expected: [],
    },
    {
      case: "description over the limit is a warning",
      data: { name: "demo", description: "x".repeat(SPEC_DESCRIPTION_MAX + 1) },
      expected: [["warning", "spec-description-length"]],
    },
    {
      case: "engine-only keys are unknown to the spec",
      data: { name: "demo", description: "d", context: "fork", "user-invocable": false },
      expected: [
        ["error", "spec-unknown-key"],
        ["error", "spec-unknown-key"],
      ],
    },
  ])("$case", ({ data, expected }) => {
    const out = checkSpecProfile(data, "demo", PATH);
    expect(out.map((d) => [d.severity, d.code])).toEqual(expected);
    for (const d of out) expect(d.path).toBe(PATH);
  });

  it("an invalid dir name with a matching name is name-invalid", () => {
    const out = checkSpecProfile({ name: "Bad_Dir", description: "d" }, "Bad_Dir", PATH);
    expect(out.map((d) => d.code)).toEqual(["name-invalid"]);
  });

  it("the limit is 1,024", () => {
    expect(SPEC_DESCRIPTION_MAX).toBe(1_024);
  });
});
