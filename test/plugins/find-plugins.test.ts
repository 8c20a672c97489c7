import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { findPlugins, pluginInstallRoot } from "../../src/plugins/find-plugins.js";
import { loadPlugins } from "../../src/plugins/load-plugins.js";
import { pluginDataRoot } from "../../src/plugins/plugin-data.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const fs = createNodeFs();
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const json = (value: unknown) => JSON.stringify(value);
const manifest = (name: string) => json({ name });
const skill = "---\ndescription: s\n---\nBody\n";

/** A home with installed plugins, a project with a marketplace, and a --plugin-dir plugin. */
async function world() {
  return tmpTree({
    "home/.skillwright/plugins/installed/zeta/.claude-plugin/plugin.json": manifest("zeta"),
    "home/.skillwright/plugins/installed/alpha/.claude-plugin/plugin.json": manifest("alpha"),
    "home/.skillwright/plugins/installed/.hidden/.claude-plugin/plugin.json": manifest("hidden"),
    "home/.skillwright/plugins/installed/off/.claude-plugin/plugin.json": manifest("off"),
    "proj/.claude-plugin/marketplace.json": json({
      name: "team",
      plugins: [
        { name: "fmt", source: "./tools/fmt", description: "formatter" },
        { name: "lint", source: "./tools/lint" },
        { name: "cloud", source: { source: "github", repo: "x/cloud" } },
        { name: "unused", source: "./tools/unused" },
      ],
    }),
    "proj/tools/fmt/.claude-plugin/plugin.json": manifest("fmt"),
    "proj/tools/fmt/skills/go/SKILL.md": skill,
    "proj/tools/lint/skills/check/SKILL.md": skill,
    "proj/tools/unused/.claude-plugin/plugin.json": manifest("unused"),
    "dev/mine/.claude-plugin/plugin.json": manifest("mine"),
    "shared-market/.claude-plugin/marketplace.json": json({
      name: "shared",
      plugins: [{ name: "docs", source: "./docs" }],
    }),
    "shared-market/docs/.claude-plugin/plugin.json": manifest("docs"),
  });
}

describe("findPlugins", () => {
  it("orders --plugin-dir, enabled marketplace plugins, then installed plugins by name", async () => {
    tree = await world();
    const t = tree;
    const { candidates, diagnostics } = await findPlugins({
      fs,
      pluginDirs: [t.path("dev/mine")],
      settings: {
        enabledPlugins: {
          "lint@team": true,
          "fmt@team": true,
          "unused@team": false,
          "cloud@team": true,
          "docs@shared": true,
          "gone@team": true,
          "x@claude-plugins-official": true,
          off: false,
        },
        extraKnownMarketplaces: {
          shared: { source: { source: "directory", path: t.path("shared-market") } },
        },
      },
      home: t.path("home"),
      projectDir: t.path("proj"),
    });
    expect(candidates.map((c) => [c.root, c.origin.kind])).toEqual([
      [t.path("dev/mine"), "plugin-dir"],
      [t.path("proj/tools/fmt"), "marketplace"],
      [t.path("proj/tools/lint"), "marketplace"],
      [t.path("shared-market/docs"), "marketplace"],
      [t.path("home/.skillwright/plugins/installed/alpha"), "installed"],
      [t.path("home/.skillwright/plugins/installed/zeta"), "installed"],
    ]);
    expect(candidates[1]?.overlay).toEqual({ name: "fmt", description: "formatter" });
    expect(diagnostics.map((d) => [d.severity, d.code, d.message.split(" ")[0]])).toEqual([
      ["warning", "plugin-invalid", "cloud@team"],
      ["warning", "plugin-invalid", "enabledPlugins:"],
      ["info", "plugin-invalid", "enabledPlugins:"],
    ]);
    expect(diagnostics[1]?.message).toContain("gone@team");
    expect(diagnostics[2]?.message).toContain("x@claude-plugins-official");
  });

  it("loads nothing from a marketplace unless enabledPlugins says so", async () => {
    tree = await world();
    const { candidates, diagnostics } = await findPlugins({
      fs,
      pluginDirs: [],
      settings: {},
      home: tree.path("nobody"),
      projectDir: tree.path("proj"),
    });
    expect(candidates).toEqual([]);
    expect(diagnostics).toEqual([]);
  });

  it("reads a marketplace named by a `file` source; remote marketplaces and bad entries are reported", async () => {
    tree = await world();
    const { candidates, diagnostics } = await findPlugins({
      fs,
      pluginDirs: [],
      settings: {
        enabledPlugins: { "docs@alias": true },
        extraKnownMarketplaces: {
          alias: { source: { source: "file", path: "../shared-market/.claude-plugin/marketplace.json" } },
          remote: { source: { source: "github", repo: "org/market" } },
          broken: { nothing: true },
          missing: { source: { source: "directory", path: "./no-such-dir" } },
        },
      },
      home: tree.path("nobody"),
      projectDir: tree.path("proj"),
    });
    expect(candidates.map((c) => c.root)).toEqual([tree.path("shared-market/docs")]);
    expect(diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["info", "plugin-invalid"],
      ["warning", "settings-invalid"],
      ["warning", "plugin-invalid"],
    ]);
  });

  it("keeps a dir reached twice once, at its first place", async () => {
    tree = await tmpTree({
      "home/.skillwright/plugins/installed/mine": { symlink: "../../../../dev/mine" },
      "dev/mine/.claude-plugin/plugin.json": manifest("mine"),
    });
    const { candidates, diagnostics } = await findPlugins({
      fs,
      pluginDirs: [tree.path("dev/mine")],
      settings: {},
      home: tree.path("home"),
      projectDir: tree.path("dev"),
    });
    expect(candidates.map((c) => c.origin.kind)).toEqual(["plugin-dir"]);
    expect(diagnostics.map((d) => d.code)).toEqual(["duplicate-realpath"]);
  });
});

describe("loadPlugins", () => {
  it("loads every found plugin in order, with namespaced skills and the marketplace overlay", async () => {
    tree = await world();
    const { plugins, diagnostics } = await loadPlugins({
      fs,
      pluginDirs: [tree.path("dev/mine")],
      settings: { enabledPlugins: { "fmt@team": true, "lint@team": true } },
      home: tree.path("home"),
      projectDir: tree.path("proj"),
    });
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(plugins.map((p) => p.name)).toEqual(["mine", "fmt", "lint", "alpha", "off", "zeta"]);
    expect(plugins.map((p) => p.origin.kind)).toEqual([
      "plugin-dir",
      "marketplace",
      "marketplace",
      "installed",
      "installed",
      "installed",
    ]);
    expect(plugins[1]?.manifest.description).toBe("formatter");
    expect(plugins[2]?.skills.map((s) => s.name)).toEqual(["lint:check"]);
    // Claude Code's layout: `{name}-{marketplace}`, `inline` for a --plugin-dir plugin.
    const data = pluginDataRoot(tree.path("home"));
    expect(plugins.map((p) => p.dataDir)).toEqual(
      ["mine-inline", "fmt-team", "lint-team", "alpha-installed", "off-installed", "zeta-installed"].map(
        (dir) => `${data}/${dir}`,
      ),
    );
  });

  it("a broken plugin beside a good one: diagnostics for it, the good one loads", async () => {
    tree = await tmpTree({
      "home/.skillwright/plugins/installed/broken/.claude-plugin/plugin.json": '{"name": ',
      "home/.skillwright/plugins/installed/good/.claude-plugin/plugin.json": manifest("good"),
      "home/.skillwright/plugins/installed/good/skills/ok/SKILL.md": skill,
    });
    const { plugins, diagnostics } = await loadPlugins({
      fs,
      pluginDirs: [],
      settings: {},
      home: tree.path("home"),
      projectDir: tree.path("home"),
    });
    expect(plugins.map((p) => p.skills.map((s) => s.name))).toEqual([["good:ok"]]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "plugin-invalid",
        path: `${pluginInstallRoot(tree.path("home"))}/broken/.claude-plugin/plugin.json`,
      }),
    ]);
  });

  it("two plugins with one name: the first wins, the second is shadowed", async () => {
    tree = await tmpTree({
      "a/.claude-plugin/plugin.json": manifest("same"),
      "a/skills/from-a/SKILL.md": skill,
      "b/.claude-plugin/plugin.json": manifest("same"),
      "b/skills/from-b/SKILL.md": skill,
    });
    const { plugins, diagnostics } = await loadPlugins({
      fs,
      pluginDirs: [tree.path("a"), tree.path("b")],
      settings: {},
      home: tree.path("home"),
      projectDir: tree.path("a"),
      dataRoot: "/data",
    });
    expect(plugins.map((p) => [p.root, p.dataDir])).toEqual([[tree.path("a"), "/data/same-inline"]]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "shadowed", path: tree.path("b") })]);
  });
});
