import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { loadPlugins } from "../../src/plugins/load-plugins.js";
import { readMarketplace } from "../../src/plugins/marketplace.js";
import { validatePlugins } from "../../src/plugins/validate-plugin.js";

const CORPUS = join(import.meta.dirname, "..", "..", "..", "shared", "corpus", "claude-plugins-official");
const MARKETPLACE = join(CORPUS, ".claude-plugin", "marketplace.json");
const DATA = "/nonexistent/data";
const fs = createNodeFs();

const pluginDirs = ["plugins", "external_plugins"].flatMap((group) =>
  readdirSync(join(CORPUS, group))
    .sort()
    .map((dir) => join(CORPUS, group, dir)),
);

describe("claude-plugins-official corpus", () => {
  it("has plugins to test", () => {
    expect(pluginDirs.length).toBeGreaterThan(40);
  });

  it.each(pluginDirs.map((dir) => [dir.slice(CORPUS.length + 1), dir]))(
    "%s loads as a --plugin-dir with no error diagnostic",
    async (_label, root) => {
      const { plugin, diagnostics } = await loadPlugin({ fs, root, dataRoot: DATA });
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(plugin?.root).toBe(root);
    },
  );

  it("loads every local plugin of the marketplace through enabledPlugins, with no error diagnostic", async () => {
    const read = await readMarketplace(fs, MARKETPLACE);
    const market = read.marketplace;
    expect(read.diagnostics).toEqual([]);
    if (market === undefined) return;
    const local = market.plugins.filter((p) => p.root !== undefined);
    const present = local.filter((p) => pluginDirs.includes(p.root ?? ""));
    const enabledPlugins = Object.fromEntries(present.map((p) => [`${p.name}@${market.name}`, true]));
    const { plugins, diagnostics } = await loadPlugins({
      fs,
      pluginDirs: [],
      settings: { enabledPlugins },
      home: "/nonexistent/home",
      projectDir: CORPUS,
    });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plugins.map((p) => p.name)).toEqual(present.map((p) => p.name));
    // Marketplace-only manifests (LSP plugins, no plugin.json) take their metadata from the entry.
    expect(plugins.find((p) => p.name === "gopls-lsp")?.manifest.version).toBe("1.0.0");
    const names = plugins.flatMap((p) => p.skills.map((s) => s.name));
    expect(names).toContain("plugin-dev:plugin-structure");
    expect(names).toContain("commit-commands:commit");
    const hooks = plugins.find((p) => p.name === "ralph-loop")?.hooks.Stop?.[0]?.hooks[0]?.command;
    expect(hooks).toBe(`bash "${join(CORPUS, "plugins", "ralph-loop")}/hooks/stop-hook.sh"`);
  });

  it("validates as a marketplace: only listed plugins missing from this snapshot fail", async () => {
    const report = await validatePlugins({ fs, dir: CORPUS, dataRoot: DATA });
    const failing = report.plugins.filter((p) => !p.ok);
    expect(failing.map((p) => p.root)).toEqual([join(CORPUS, "plugins", "claude-security")]);
    expect(failing[0]?.diagnostics.map((d) => d.message)).toEqual(["plugin directory does not exist"]);
    const checked = report.plugins.filter((p) => p.ok).map((p) => p.root);
    // example-plugin is the one dir the marketplace does not list.
    expect(pluginDirs.filter((dir) => !checked.includes(dir))).toEqual([
      join(CORPUS, "plugins", "example-plugin"),
    ]);
    expect(report.ok).toBe(false);
  });
});
