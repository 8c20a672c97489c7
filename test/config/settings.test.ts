import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  loadSettings,
  mergeSettings,
  parseSettings,
  permissionRules,
  settingsFiles,
} from "../../src/config/settings.js";
import type { Settings } from "../../src/config/settings-schema.js";
import { createNodeFs } from "../../src/io/fs.js";

describe("settingsFiles", () => {
  it("lists user files then project files, lowest precedence first", () => {
    expect(settingsFiles({ home: "/h", projectDir: "/p" })).toEqual([
      "/h/.claude/settings.json",
      "/h/.skillwright/settings.json",
      "/p/.claude/settings.json",
      "/p/.claude/settings.local.json",
      "/p/.skillwright/settings.json",
      "/p/.skillwright/settings.local.json",
    ]);
  });
});

describe("parseSettings", () => {
  it("keeps valid and unknown keys", async () => {
    const json = {
      permissions: { allow: ["Read"], defaultMode: "plan" },
      theme: "dark",
      skillListingBudget: 500,
    };
    expect(await parseSettings(json, "/f")).toEqual({ settings: json, diagnostics: [] });
  });

  it.each([
    {
      case: "a rule that is not a string",
      json: { permissions: { allow: ["Read", 3, "Edit"] } },
      want: { permissions: { allow: ["Read", "Edit"] } },
    },
    {
      case: "a rule list that is not a list",
      json: { permissions: { deny: "Bash", allow: ["Read"] } },
      want: { permissions: { allow: ["Read"] } },
    },
    { case: "an env value that is not a string", json: { env: { A: "1", B: 2 } }, want: { env: { A: "1" } } },
    { case: "a negative budget", json: { skillListingBudget: -1, model: "opus" }, want: { model: "opus" } },
    {
      case: "a rule that does not parse",
      json: { permissions: { deny: ["Bash(rm:*)", "not a rule"] } },
      want: { permissions: { deny: ["Bash(rm:*)"] } },
    },
  ])("drops $case with a settings-invalid warning", async ({ json, want }) => {
    const got = await parseSettings(json, "/f");
    expect(got.settings).toEqual(want);
    expect(got.diagnostics.length).toBeGreaterThan(0);
    expect(
      got.diagnostics.every(
        (d) => d.code === "settings-invalid" && d.severity === "warning" && d.path === "/f",
      ),
    ).toBe(true);
  });

  it.each([[[]], ["text"], [null], [3]])("rejects %j as a whole", async (json) => {
    const got = await parseSettings(json, "/f");
    expect(got.settings).toBeUndefined();
    expect(got.diagnostics.map((d) => [d.code, d.severity])).toEqual([["settings-invalid", "error"]]);
  });

  it("does not modify its input", async () => {
    const json = { env: { A: 1 } };
    await parseSettings(json, "/f");
    expect(json).toEqual({ env: { A: 1 } });
  });
});

describe("mergeSettings", () => {
  it.each<{ case: string; layers: Settings[]; want: Settings }>([
    {
      case: "arrays concatenate, duplicates once",
      layers: [
        { permissions: { allow: ["Read", "Edit"] } },
        { permissions: { allow: ["Edit", "Bash(ls:*)"], deny: ["Write"] } },
      ],
      want: { permissions: { allow: ["Read", "Edit", "Bash(ls:*)"], deny: ["Write"] } },
    },
    {
      case: "later scalars override",
      layers: [{ model: "a", skillListingBudget: 1 }, { model: "b" }],
      want: { model: "b", skillListingBudget: 1 },
    },
    {
      case: "records merge by key",
      layers: [{ env: { A: "1", B: "1" } }, { env: { B: "2" } }],
      want: { env: { A: "1", B: "2" } },
    },
    {
      case: "hooks concatenate per event",
      layers: [
        { hooks: { Stop: [{ hooks: [{ type: "command", command: "a" }] }] } },
        { hooks: { Stop: [{ hooks: [{ type: "command", command: "b" }] }] } },
      ],
      want: {
        hooks: {
          Stop: [
            { hooks: [{ type: "command", command: "a" }] },
            { hooks: [{ type: "command", command: "b" }] },
          ],
        },
      },
    },
    {
      case: "unknown keys survive",
      layers: [{ theme: "dark" }, { other: { x: 1 } }],
      want: { theme: "dark", other: { x: 1 } },
    },
    { case: "nothing", layers: [], want: {} },
  ])("$case", ({ layers, want }) => {
    expect(mergeSettings(layers)).toEqual(want);
  });

  it("ignores a __proto__ key", () => {
    const layer = JSON.parse('{"__proto__": {"polluted": true}, "model": "x"}') as Settings;
    const merged = mergeSettings([layer]);
    expect(merged).toEqual({ model: "x" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("loadSettings", () => {
  let dir: string;
  let home: string;
  let project: string;
  const put = async (path: string, text: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-settings-"));
    home = join(dir, "home");
    project = join(dir, "project");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is empty and quiet when no file exists", async () => {
    expect(await loadSettings({ fs: createNodeFs(), home, projectDir: project })).toEqual({
      settings: {},
      diagnostics: [],
      files: [],
      layers: [],
    });
  });

  it("merges all six files in order", async () => {
    await put(
      join(home, ".claude/settings.json"),
      JSON.stringify({ model: "1", permissions: { allow: ["A"] } }),
    );
    await put(
      join(home, ".skillwright/settings.json"),
      JSON.stringify({ model: "2", permissions: { allow: ["B"] } }),
    );
    await put(
      join(project, ".claude/settings.json"),
      JSON.stringify({ model: "3", permissions: { deny: ["C"] } }),
    );
    await put(
      join(project, ".claude/settings.local.json"),
      JSON.stringify({ model: "4", permissions: { ask: ["D"] } }),
    );
    await put(
      join(project, ".skillwright/settings.json"),
      JSON.stringify({ model: "5", enabledPlugins: { p: true } }),
    );
    await put(
      join(project, ".skillwright/settings.local.json"),
      `\uFEFF${JSON.stringify({ model: "6", skillListingBudget: 9 })}`,
    );
    const got = await loadSettings({ fs: createNodeFs(), home, projectDir: project });
    expect(got.diagnostics).toEqual([]);
    expect(got.files).toEqual(settingsFiles({ home, projectDir: project }));
    expect(got.settings).toEqual({
      model: "6",
      permissions: { allow: ["A", "B"], deny: ["C"], ask: ["D"] },
      enabledPlugins: { p: true },
      skillListingBudget: 9,
    });
    expect(permissionRules(got.settings)).toEqual({ allow: ["A", "B"], deny: ["C"], ask: ["D"] });
  });

  it("reports invalid JSON with its path and keeps the other files", async () => {
    const bad = join(project, ".claude/settings.json");
    await put(bad, "{ not json");
    await put(join(home, ".claude/settings.json"), JSON.stringify({ permissions: { deny: ["Bash"] } }));
    const got = await loadSettings({ fs: createNodeFs(), home, projectDir: project });
    expect(got.diagnostics.map((d) => [d.code, d.path])).toEqual([["settings-invalid", bad]]);
    expect(got.settings).toEqual({ permissions: { deny: ["Bash"] } });
  });

  it("reads an empty file as {}", async () => {
    await put(join(project, ".claude/settings.json"), "  \n");
    const got = await loadSettings({ fs: createNodeFs(), home, projectDir: project });
    expect(got).toMatchObject({ settings: {}, diagnostics: [] });
  });

  it("reports a file it cannot read", async () => {
    const path = join(project, ".claude/settings.json");
    await mkdir(path, { recursive: true }); // a directory where the file should be
    const got = await loadSettings({ fs: createNodeFs(), home, projectDir: project });
    expect(got.diagnostics.map((d) => [d.code, d.path])).toEqual([["file-unreadable", path]]);
  });

  it("treats a file under a non-directory as missing", async () => {
    await put(join(project, ".claude"), "a file, not a dir");
    expect((await loadSettings({ fs: createNodeFs(), home, projectDir: project })).diagnostics).toEqual([]);
  });
});

describe("permissionRules", () => {
  it("fills missing lists", () => {
    expect(permissionRules({})).toEqual({ allow: [], deny: [], ask: [] });
  });
});
