import { describe, expect, it } from "vitest";
import { DEFAULT_DESCRIPTION, firstBodyLine, normalizeMeta } from "../../src/skill/schema.js";
import type { SkillKind } from "../../src/skill/skill.js";
import { displayName } from "../../src/skill/skill.js";

const PATH = "/p/.claude/skills/demo/SKILL.md";

function normalize(data: Record<string, unknown>, options: { kind?: SkillKind; body?: string } = {}) {
  return normalizeMeta({
    data,
    kind: options.kind ?? "skill",
    dirName: "demo",
    firstBodyLine: firstBodyLine(options.body ?? ""),
    path: PATH,
  });
}

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe("firstBodyLine", () => {
  it.each([
    ["# Title\nmore", "Title"],
    ["\n\n  ## Sub heading  \n", "Sub heading"],
    ["###\n\nreal line", "real line"],
    ["#no-space", "no-space"],
    ["   indented text", "indented text"],
    ["", undefined],
    ["\n \n\t\n", undefined],
    ["#\n##\n", undefined],
  ])("%j → %j", (body, expected) => {
    expect(firstBodyLine(body)).toBe(expected);
  });
});

describe("description", () => {
  it.each([
    [{ description: "Does X" }, "", "Does X", false],
    [{ description: "line one\nline two\n\n line three" }, "", "line one line two line three", false],
    [{}, "# Heading here\nrest", "Heading here", true],
    [{ description: "" }, "\n\nfirst real\nsecond", "first real", true],
    [{ description: "   " }, "body line", "body line", true],
    [{ description: null }, "body line", "body line", true],
    [{}, "", DEFAULT_DESCRIPTION, true],
    [{ description: 42 }, "", "42", false],
    [{ description: ["a", "b"] }, "fallback", "fallback", true],
  ])("%j with body %j → %j", (data, body, expected, fromBody) => {
    const { meta } = normalize(data, { body });
    expect(meta.description).toBe(expected);
    expect(meta.descriptionFromBody).toBe(fromBody);
  });

  it("the empty-file default is `Skill`", () => {
    expect(DEFAULT_DESCRIPTION).toBe("Skill");
  });

  it("a fallback is an info diagnostic; a wrong type is a warning too", () => {
    expect(codes(normalize({}, { body: "x" }))).toEqual(["description-fallback"]);
    const r = normalize({ description: { a: 1 } }, { body: "x" });
    expect(codes(r).sort()).toEqual(["description-fallback", "field-invalid"]);
  });

  it("when_to_use is kept, newlines collapsed", () => {
    expect(normalize({ description: "d", when_to_use: "when\nasked" }).meta.whenToUse).toBe("when asked");
  });
});

describe("alias (name:)", () => {
  it.each([
    { name: "other-name", alias: "other-name", listed: "demo (other-name)", code: undefined },
    { name: "demo", alias: undefined, listed: "demo", code: undefined },
    { name: "", alias: undefined, listed: "demo", code: undefined },
    { name: "Bad Name", alias: undefined, listed: "demo", code: "alias-invalid" },
    { name: "double--hyphen", alias: undefined, listed: "demo", code: "alias-invalid" },
    { name: "a".repeat(65), alias: undefined, listed: "demo", code: "alias-invalid" },
    { name: 42, alias: "42", listed: "demo (42)", code: undefined },
  ])("name: $name", ({ name, alias, listed, code }) => {
    const r = normalize({ name, description: "d" });
    expect(r.meta.alias).toBe(alias);
    expect(displayName({ name: "demo", alias: r.meta.alias })).toBe(listed);
    expect(codes(r)).toEqual(code === undefined ? [] : [code]);
    if (code !== undefined) expect(r.diagnostics[0]?.severity).toBe("warning");
  });

  it("a mapping as name is a field-invalid warning and no alias", () => {
    const r = normalize({ name: { a: 1 }, description: "d" });
    expect(r.meta.alias).toBeUndefined();
    expect(codes(r)).toEqual(["field-invalid"]);
  });
});

describe("legacy commands", () => {
  it("ignore name and paths", () => {
    const r = normalize({ name: "other", paths: "*.ts", description: "d" }, { kind: "command" });
    expect(r.meta.alias).toBeUndefined();
    expect(r.meta.paths).toBeUndefined();
    expect(codes(r)).toEqual([]);
  });

  it("a skill keeps paths", () => {
    expect(normalize({ paths: "*.ts, src/{a,b}/**", description: "d" }).meta.paths).toEqual([
      "*.ts",
      "src/{a,b}/**",
    ]);
  });

  it("empty paths is not conditional", () => {
    expect(normalize({ paths: "", description: "d" }).meta.paths).toBeUndefined();
  });
});

describe("fields", () => {
  it("defaults", () => {
    const { meta, diagnostics } = normalize({ description: "d" });
    expect(diagnostics).toEqual([]);
    expect(meta).toEqual({
      description: "d",
      descriptionFromBody: false,
      argumentNames: [],
      allowedTools: [],
      disallowedTools: [],
      context: "inline",
      userInvocable: true,
      disableModelInvocation: false,
      shell: "bash",
      extra: {},
    });
  });

  it("every field as written", () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] };
    const { meta, diagnostics } = normalize({
      description: "d",
      "argument-hint": ["<file>", "[line]"],
      arguments: "file line",
      "allowed-tools": "Bash(git add:*), Read",
      "disallowed-tools": ["Write"],
      model: "claude-opus-4-5",
      effort: "HIGH",
      context: "Fork",
      agent: "Explore",
      "user-invocable": "no",
      "disable-model-invocation": "YES",
      hooks,
      shell: "sh",
      license: "MIT",
      compatibility: "node>=20",
      metadata: { author: "me" },
      version: 2,
    });
    expect(diagnostics).toEqual([]);
    expect(meta).toMatchObject({
      argumentHint: "<file> [line]",
      argumentNames: ["file", "line"],
      allowedTools: ["Bash(git add:*)", "Read"],
      disallowedTools: ["Write"],
      model: "claude-opus-4-5",
      effort: "high",
      context: "fork",
      agent: "Explore",
      userInvocable: false,
      disableModelInvocation: true,
      hooks,
      shell: "sh",
      license: "MIT",
      compatibility: "node>=20",
      metadata: { author: "me" },
      version: "2",
    });
  });

  it.each([
    ["effort", "extreme"],
    ["effort", 3],
    ["context", "forked"],
    ["shell", "zsh"],
    ["user-invocable", "maybe"],
    ["disable-model-invocation", 2],
    ["model", ["a"]],
    ["agent", { a: 1 }],
    ["allowed-tools", { Read: true }],
    ["arguments", { a: 1 }],
    ["argument-hint", { a: 1 }],
    ["when_to_use", ["a"]],
    ["ttl-turns", -1],
    ["ttl-turns", 1.5],
    ["ttl-turns", "soon"],
    ["ttl-turns", [1]],
  ])("invalid %s: %j → field-invalid warning, default kept", (key, value) => {
    const { meta, diagnostics } = normalize({ description: "d", [key]: value });
    expect(diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ["field-invalid", "warning", PATH],
    ]);
    expect(diagnostics[0]?.message).toContain(key);
    expect(meta.effort).toBeUndefined();
    expect(meta.context).toBe("inline");
    expect(meta.shell).toBe("bash");
    expect(meta.userInvocable).toBe(true);
    expect(meta.disableModelInvocation).toBe(false);
  });

  it.each([
    [1, 1],
    [0, 0],
    ["3", 3],
    [" 12 ", 12],
  ])("ttl-turns: %j → %j user turns, no diagnostic", (value, turns) => {
    const { meta, diagnostics } = normalize({ description: "d", "ttl-turns": value });
    expect(meta.ttlTurns).toBe(turns);
    expect(diagnostics).toEqual([]);
  });

  it("unknown keys are kept in extra with an info diagnostic each", () => {
    const { meta, diagnostics } = normalize({ description: "d", owner: "team", tags: ["a"] });
    expect(meta.extra).toEqual({ owner: "team", tags: ["a"] });
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["field-unknown", "info"],
      ["field-unknown", "info"],
    ]);
    expect(diagnostics[0]?.message).toContain("owner");
  });

  it("null values count as absent", () => {
    const { meta, diagnostics } = normalize({ description: "d", model: null, effort: null, context: null });
    expect(diagnostics).toEqual([]);
    expect(meta.model).toBeUndefined();
    expect(meta.context).toBe("inline");
  });
});
