import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs } from "../../src/io/fs.js";
import { claudeInstalledFile, readClaudeInstalled } from "../../src/plugins/claude-installed.js";
import { findPlugins } from "../../src/plugins/find-plugins.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const fs = createNodeFs();
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const json = (value: unknown) => JSON.stringify(value);
/** Writes a tree-relative file, creating its dir. */
async function put(t: TmpTree, relative: string, text: string): Promise<void> {
  await mkdir(dirname(t.path(relative)), { recursive: true });
  await writeFile(t.path(relative), text);
}
const INSTALLED = "home/.claude/plugins/installed_plugins.json";
const CACHE = "home/.claude/plugins/cache/official";

/** Claude Code's v2 record: one user-scope plugin, one per project, one for another project. */
function v2(t: TmpTree): string {
  return json({
    version: 2,
    plugins: {
      "notes@official": [{ scope: "user", installPath: t.path(`${CACHE}/notes/1.0.0`), version: "1.0.0" }],
      "review@official": [
        { scope: "project", projectPath: t.path("elsewhere"), installPath: t.path(`${CACHE}/review/old`) },
        { scope: "project", projectPath: t.path("proj"), installPath: t.path(`${CACHE}/review/2.0.0`) },
      ],
      "other@official": [{ scope: "local", projectPath: t.path("elsewhere"), installPath: t.path("x") }],
      "broken@official": [{ scope: "user" }],
    },
  });
}

describe("readClaudeInstalled", () => {
  it("v2: user-scope installs, and project/local ones for this project only", async () => {
    tree = await tmpTree({ "proj/.git": { dir: true } });
    const t = tree;
    await put(t, INSTALLED, v2(t));
    const { installs, diagnostics } = await readClaudeInstalled(fs, t.path("home"), t.path("proj"));
    expect(diagnostics).toEqual([]);
    expect([...installs.values()]).toEqual([
      { key: "notes@official", installPath: t.path(`${CACHE}/notes/1.0.0`) },
      { key: "review@official", installPath: t.path(`${CACHE}/review/2.0.0`) },
    ]);
  });

  it("v1 (one object per plugin, no scopes)", async () => {
    tree = await tmpTree({});
    const t = tree;
    await put(t, INSTALLED, json({ version: 1, plugins: { "a@m": { installPath: t.path("a") } } }));
    const { installs } = await readClaudeInstalled(fs, t.path("home"), t.path("proj"));
    expect([...installs.keys()]).toEqual(["a@m"]);
  });

  it.each([
    ["not JSON", "{ nope", /not valid JSON/],
    ["no plugins object", json({ version: 2 }), /no `plugins` object/],
  ])("a malformed file (%s) is a warning, never a throw", async (_label, text, message) => {
    tree = await tmpTree({});
    const t = tree;
    await put(t, INSTALLED, text);
    const { installs, diagnostics } = await readClaudeInstalled(fs, t.path("home"), t.path("proj"));
    expect(installs.size).toBe(0);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "plugin-invalid",
        path: claudeInstalledFile(t.path("home")),
      }),
    ]);
    expect(diagnostics[0]?.message).toMatch(message);
  });

  it("no file: no plugins, no diagnostics", async () => {
    tree = await tmpTree({});
    expect(await readClaudeInstalled(fs, tree.path("home"), tree.path("proj"))).toEqual({
      installs: new Map(),
      diagnostics: [],
    });
  });
});

describe("plugins Claude Code installed, through findPlugins and the engine", () => {
  async function world() {
    const t = await tmpTree({
      "proj/.git": { dir: true },
      [`${CACHE}/notes/1.0.0/.claude-plugin/plugin.json`]: json({ name: "notes" }),
      [`${CACHE}/notes/1.0.0/skills/jot/SKILL.md`]: "---\ndescription: Jot a note\n---\nJot.\n",
      [`${CACHE}/review/2.0.0/.claude-plugin/plugin.json`]: json({ name: "review" }),
      [`${CACHE}/review/2.0.0/skills/pr/SKILL.md`]: "---\ndescription: Review a PR\n---\nReview.\n",
    });
    await put(t, INSTALLED, v2(t));
    return t;
  }

  it("loads the enabled ones from their install path; disabled or missing ones stay out, with a reason", async () => {
    tree = await world();
    const t = tree;
    const { candidates, diagnostics } = await findPlugins({
      fs,
      pluginDirs: [],
      settings: {
        enabledPlugins: { "notes@official": true, "review@official": false, "ghost@official": true },
      },
      home: t.path("home"),
      projectDir: t.path("proj"),
    });
    expect(candidates).toEqual([
      {
        root: t.path(`${CACHE}/notes/1.0.0`),
        origin: { kind: "claude-code", file: claudeInstalledFile(t.path("home")) },
        marketplace: "official",
      },
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'enabledPlugins: ghost@official: "official" is not a local marketplace and Claude Code has not installed it; ignored',
    ]);
  });

  it("their skills are discovered, namespaced, when ~/.claude/settings.json enables them", async () => {
    tree = await world();
    const t = tree;
    await put(
      t,
      "home/.claude/settings.json",
      json({ enabledPlugins: { "notes@official": true, "review@official": true } }),
    );
    const engine = createEngine({
      cwd: t.path("proj"),
      home: t.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
    });
    const { skills, diagnostics } = await engine.discover();
    expect(skills.filter((s) => s.source === "plugin").map((s) => [s.name, s.description])).toEqual([
      ["notes:jot", "Jot a note"],
      ["review:pr", "Review a PR"],
    ]);
    expect(diagnostics.filter((d) => d.code === "plugin-invalid")).toEqual([]);
    await engine.close();
  });
});
