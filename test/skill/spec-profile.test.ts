import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { checkSpecProfile, SPEC_DESCRIPTION_MAX, SPEC_RULES } from "../../src/skill/spec-profile.js";
import { parseSpecText } from "../../src/skill/spec-read.js";
import { validatePath } from "../../src/skill/validate-path.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

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
      case: "name a list, not text",
      data: { name: ["demo"], description: "d" },
      expected: [["error", "spec-field-invalid"]],
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
      case: "description over the limit is an error",
      data: { name: "demo", description: "x".repeat(SPEC_DESCRIPTION_MAX + 1) },
      expected: [["error", "spec-description-length"]],
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

/**
 * Issue 16.9: `validate --spec` agrees with the reference validator (`skills-ref`) on each rule of the
 * specification. One table per rule, headed by the rule as the specification words it (`SPEC_RULES`); each
 * row is a SKILL.md in dir `demo` run through `validatePath` and the codes of the spec profile's errors.
 */
const RULE_CASES: Record<keyof typeof SPEC_RULES, Array<[string, string, string[]]>> = {
  frontmatter: [
    ["valid YAML", "name: demo\ndescription: d", []],
    ["an unquoted colon in a value", "name: demo\ndescription: use it: now", ["spec-yaml-invalid"]],
    ["tab indentation", "name: demo\ndescription: d\nmetadata:\n\tauthor: me", ["spec-yaml-invalid"]],
    ["a duplicate key", "name: demo\ndescription: d\ndescription: e", ["spec-yaml-invalid"]],
  ],
  name: [
    ["equal to the dir", "name: demo\ndescription: d", []],
    // Every scalar is text to the reference (strictyaml): `123` is the name "123", judged like any other.
    ["a number is the text 123: only the dir differs", "name: 123\ndescription: d", ["spec-name-mismatch"]],
    ["Unicode lowercase letters, as the reference", "name: démo\ndescription: d", ["spec-name-mismatch"]],
    ["uppercase", "name: Demo\ndescription: d", ["name-invalid", "spec-name-mismatch"]],
    ["missing", "description: d", ["spec-name-missing"]],
    ["differs from the dir", "name: other\ndescription: d", ["spec-name-mismatch"]],
  ],
  description: [
    ["1,024 chars", `name: demo\ndescription: ${"x".repeat(1_024)}`, []],
    [
      "1,025 chars is an error, not a warning",
      `name: demo\ndescription: ${"x".repeat(1_025)}`,
      ["spec-description-length"],
    ],
    ["1,024 code points of astral chars", `name: demo\ndescription: ${"😀".repeat(1_024)}`, []],
    ["missing", "name: demo", ["spec-description-length"]],
  ],
  compatibility: [
    ["500 chars", `name: demo\ndescription: d\ncompatibility: ${"c".repeat(500)}`, []],
    [
      "501 chars",
      `name: demo\ndescription: d\ncompatibility: ${"c".repeat(501)}`,
      ["spec-compatibility-length"],
    ],
    ["a list", "name: demo\ndescription: d\ncompatibility: [a, b]", ["spec-field-invalid"]],
  ],
  metadata: [
    ["string values", 'name: demo\ndescription: d\nmetadata:\n  author: me\n  version: "1.0"', []],
    // The reference reads `1.0` as the text "1.0" (both implementations make every value a string).
    ["an unquoted number value is text", "name: demo\ndescription: d\nmetadata:\n  version: 1.0", []],
    ["a nested map", "name: demo\ndescription: d\nmetadata:\n  a:\n    b: c", ["spec-field-invalid"]],
    ["not a map", "name: demo\ndescription: d\nmetadata: text", ["spec-field-invalid"]],
  ],
  allowedTools: [
    ["a string", "name: demo\ndescription: d\nallowed-tools: Read Grep", []],
    ["a list of strings", "name: demo\ndescription: d\nallowed-tools: [Read, Grep]", []],
    ["a map", "name: demo\ndescription: d\nallowed-tools:\n  Read: true", ["spec-field-invalid"]],
  ],
};

describe("validate --spec agrees with skills-ref, rule by rule (issue 16.9)", () => {
  let tree: TmpTree | undefined;
  afterEach(async () => {
    await tree?.cleanup();
    tree = undefined;
  });

  for (const [rule, cases] of Object.entries(RULE_CASES)) {
    const quote = SPEC_RULES[rule as keyof typeof SPEC_RULES];
    describe(`${rule}: "${quote}"`, () => {
      it.each(cases)("%s", async (_, head, expected) => {
        tree = await tmpTree({ "demo/SKILL.md": `---\n${head}\n---\nBody\n` });
        const [result] = await validatePath(createNodeFs(), tree.path("demo"), true);
        const errors = (result?.spec ?? []).filter((d) => d.severity === "error").map((d) => d.code);
        expect(errors).toEqual(expected);
        // The engine profile never blocks on these: the skill still loads.
        expect(result?.skill?.name).toBe("demo");
      });
    });
  }

  it("a file with no frontmatter at all", async () => {
    tree = await tmpTree({ "demo/SKILL.md": "Just a body\n" });
    const [result] = await validatePath(createNodeFs(), tree.path("demo"), true);
    expect(result?.spec?.map((d) => [d.code, d.message])).toEqual([
      ["spec-yaml-invalid", "SKILL.md must start with YAML frontmatter (---)"],
    ]);
  });
});

describe("parseSpecText: the file as the reference validator reads it", () => {
  const codes = (text: string, invalidUtf8 = false) => {
    const { data, parse } = parseSpecText(text, invalidUtf8);
    return checkSpecProfile(data, "demo", PATH, parse).map((d) => d.code);
  };
  it.each([
    ["a clean file", "---\nname: demo\ndescription: d\n---\nb\n", []],
    [
      "a BOM: refused, the fields still judged",
      "\uFEFF---\nname: demo\ndescription: d\n---\nb\n",
      ["spec-bom"],
    ],
    ["a NUL in a value", '---\nname: demo\ndescription: "a\u0000b"\n---\n', ["spec-yaml-invalid"]],
    ["DEL in a value", "---\nname: demo\ndescription: a\u007Fb\n---\n", ["spec-yaml-invalid"]],
    ["a tab inside a value is fine", "---\nname: demo\ndescription: a\tb\n---\n", []],
    ["an empty block", "---\n---\nb\n", ["spec-name-missing", "spec-description-length"]],
    ["a list, not a mapping", "---\n- a\n---\n", ["spec-yaml-invalid"]],
    ["an unresolved alias", "---\nname: *x\ndescription: d\n---\n", ["spec-yaml-invalid"]],
  ])("%s", (_, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it("every scalar is text: numbers, booleans, dates", () => {
    const { data } = parseSpecText("---\nname: 123\ndescription: true\nmetadata:\n  at: 2024-01-01\n---\n");
    expect(data).toEqual({ name: "123", description: "true", metadata: { at: "2024-01-01" } });
  });

  it("bytes that are not UTF-8 are spec-encoding", () => {
    expect(codes("---\nname: demo\ndescription: d\n---\n", true)).toEqual(["spec-encoding"]);
  });
});
