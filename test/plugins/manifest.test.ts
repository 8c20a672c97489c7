// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { describe, expect, it } from "vitest";
import { componentPaths, parseManifest, resolvePluginPath } from "../../src/plugins/manifest.js";

const PATH = "/p/.claude-plugin/plugin.json";

describe("parseManifest", () => {
  it.each([
    ["not an object", [], "error", "plugin-invalid"],
    ["null", null, "error", "plugin-invalid"],
    ["no name", { version: "1.0.0" }, "error", "plugin-invalid"],
    ["empty name", { name: " " }, "error", "plugin-invalid"],
    ["name with spaces", { name: "My Plugin" }, "error", "plugin-invalid"],
    ["name with uppercase", { name: "Deploy" }, "error", "plugin-invalid"],
    ["name with a double hyphen", { name: "a--b" }, "error", "plugin-invalid"],
    ["name not a string", { name: 3 }, "error", "plugin-invalid"],
  ])("refuses %s", (_label, json, severity, code) => {
    const result = parseManifest(json, PATH);
    expect(result.manifest).toBeUndefined();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity, code, path: PATH })]);
  });

  it("keeps every known field of a complete manifest", () => {
    const json = {
      name: "enterprise-devops",
      version: "2.3.1-beta.1",
      description: "d",
      author: { name: "Ops", email: "ops@x.org", url: "https://x.org" },
      homepage: "https://x.org/p",
      repository: { type: "git", url: "https://github.com/x/y.git" },
      license: "Apache-2.0",
      keywords: ["a", "b"],
      skills: "./more-skills",
      commands: ["./commands", "./admin"],
      agents: "./agents/reviewer.md",
      hooks: "./config/hooks.json",
      mcpServers: { db: { command: "db-mcp" } },
    };
    const result = parseManifest(json, PATH);
    expect(result.diagnostics).toEqual([]);
    expect(result.manifest).toEqual(json);
  });

  it.each([
    ["author as a string", { author: "Jane <j@x.org>" }],
    ["hooks inline", { hooks: { PreToolUse: [] } }],
    ["hooks as a list of path and object", { hooks: ["./a.json", { Stop: [] }] }],
    ["repository as a string", { repository: "https://github.com/x/y" }],
  ])("accepts %s", (_label, extra) => {
    const result = parseManifest({ name: "p", ...extra }, PATH);
    expect(result.diagnostics).toEqual([]);
    expect(result.manifest).toMatchObject(extra);
  });

  it.each([
    ["version", { version: 1 }],
    ["keywords", { keywords: "a,b" }],
    ["skills", { skills: 3 }],
    ["commands", { commands: [1] }],
    ["author", { author: { email: "x" } }],
    ["mcpServers", { mcpServers: 5 }],
  ])("drops a %s of the wrong type with a warning and keeps the rest", (key, extra) => {
    const result = parseManifest({ name: "p", description: "kept", ...extra }, PATH);
    expect(result.manifest).toEqual({ name: "p", description: "kept" });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "plugin-invalid",
        message: expect.stringContaining(key),
      }),
    ]);
  });

  it("warns about a version that is not semver but keeps it", () => {
    const result = parseManifest({ name: "p", version: "1.0" }, PATH);
    expect(result.manifest?.version).toBe("1.0");
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", "plugin-invalid"]]);
  });

  it("keeps unknown keys, and Claude Code-only ones, with an info each", () => {
    const result = parseManifest({ name: "p", lspServers: { x: {} }, flavour: "mint" }, PATH);
    expect(result.manifest).toMatchObject({ lspServers: { x: {} }, flavour: "mint" });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        code: "field-unknown",
        message: expect.stringContaining("lspServers"),
      }),
      expect.objectContaining({
        severity: "info",
        code: "field-unknown",
        message: expect.stringContaining("flavour"),
      }),
    ]);
  });
});

describe("componentPaths", () => {
  it.each([
    [undefined, []],
    ["./a", ["./a"]],
    [
      ["./a", "./b"],
      ["./a", "./b"],
    ],
  ])("%j → %j", (value, expected) => {
    expect(componentPaths(value)).toEqual(expected);
  });
});

describe("resolvePluginPath", () => {
  it.each([
    ["./skills", "/p/skills", undefined],
    ["./a/../b", "/p/b", undefined],
    [".", "/p", undefined],
    ["${CLAUDE_PLUGIN_ROOT}/extra", "/p/extra", undefined],
    ["skills", "/p/skills", "should start with ./"],
  ])("%s → %s", (raw, path, warning) => {
    const result = resolvePluginPath("/p", raw);
    expect(result).toEqual(
      warning === undefined
        ? { ok: true, path }
        : { ok: true, path, warning: expect.stringContaining(warning) },
    );
  });

  it.each([
    ["../shared", "outside"],
    ["./a/../../x", "outside"],
    ["..", "outside"],
    ["/etc/passwd", "absolute"],
    ["C:\\x", "absolute"],
    ["", "empty"],
  ])("refuses %j", (raw, reason) => {
    const result = resolvePluginPath("/p", raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});
