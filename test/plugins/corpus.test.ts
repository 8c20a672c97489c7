import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { loadPlugins } from "../../src/plugins/load-plugins.js";
import { readMarketplace } from "../../src/plugins/read-marketplace.js";
import { validatePlugins } from "../../src/plugins/validate-plugin.js";
import { corpusPath, describeWithCorpus } from "../support/corpus.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const DATA = "/nonexistent/data";
const fs = createNodeFs();

/** A marketplace repository in claude-plugins-official's layout, and what the tests expect of it. */
interface MarketplaceRepo {
  /** The repository: `.claude-plugin/marketplace.json`, `plugins/`, `external_plugins/`. */
  dir: () => string;
  /** At least this many plugin dirs. */
  atLeast: number;
  /** Skill names (commands count) that loading the marketplace must yield. */
  skills: string[];
  /** A marketplace-only plugin (no plugin.json) and the version its entry gives it. */
  entryOnly: [name: string, version: string];
  /** A plugin with a Stop hook, and the script its command runs (under the plugin root). */
  stopHook: [name: string, script: string];
  /** A plugin the marketplace lists whose dir is not there. */
  missing: string;
  /** The one plugin dir the marketplace does not list. */
  unlisted: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A marketplace written for the tests in the shapes of claude-plugins-official (not a copy of it). */
const FIXTURE_TREE = {
  ".claude-plugin/marketplace.json": json({
    $schema: "https://anthropic.com/claude-code/marketplace.schema.json",
    name: "house-plugins",
    description: "Plugins written for skillwright's tests",
    owner: { name: "Tests", email: "tests@example.com" },
    renames: { "git-tools": "git-helpers" },
    plugins: [
      { name: "docs-kit", description: "Docs helpers", source: "./plugins/docs-kit", category: "writing" },
      {
        name: "git-helpers",
        description: "Commit and push commands",
        author: { name: "Tests" },
        source: "./plugins/git-helpers",
        homepage: "https://example.com/git-helpers",
      },
      { name: "gone-plugin", description: "Listed, not in this snapshot", source: "./plugins/gone-plugin" },
      { name: "loop-guard", description: "A Stop hook", source: "./plugins/loop-guard" },
      {
        name: "notes-remote",
        description: "Lives in another repository",
        source: {
          source: "url",
          url: "https://example.com/notes.git",
          sha: "0123456789abcdef0123456789abcdef01234567",
        },
      },
      { name: "tracker", description: "An MCP server", source: "./external_plugins/tracker" },
      {
        name: "zig-lsp",
        description: "Zig language server",
        version: "1.0.0",
        source: "./plugins/zig-lsp",
        strict: false,
        lspServers: { zls: { command: "zls", extensionToLanguage: { ".zig": "zig" } } },
      },
    ],
  }),
  "plugins/docs-kit/.claude-plugin/plugin.json": json({ name: "docs-kit", description: "Docs helpers" }),
  "plugins/docs-kit/skills/doc-structure/SKILL.md":
    '---\nname: doc-structure\ndescription: This skill should be used when the user asks to "outline a doc" or "fix headings".\nversion: 0.1.0\n---\n\nPut the summary first, then one heading per task.\n',
  "plugins/docs-kit/agents/doc-checker.md":
    '---\nname: doc-checker\ndescription: Use this agent when: a document is finished and needs a review\nmodel: inherit\ncolor: green\ntools: ["Read", "Grep"]\n---\n\nCheck the headings, the links and the spelling.\n',
  "plugins/git-helpers/.claude-plugin/plugin.json": json({
    name: "git-helpers",
    description: "Commit and push commands",
    author: { name: "Tests" },
  }),
  "plugins/git-helpers/LICENSE": "Written for skillwright's tests.\n",
  "plugins/git-helpers/commands/commit.md":
    "---\nallowed-tools: Bash(git add:*), Bash(git status:*), Bash(git commit:*)\ndescription: Create a git commit\n---\n\nStage the change and commit it with a message that says why.\n",
  "plugins/loop-guard/hooks/hooks.json": json({
    description: "Stops a loop when its task is done",
    hooks: {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a plugin variable, substituted by the engine
      Stop: [{ hooks: [{ type: "command", command: 'bash "${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh"' }] }],
    },
  }),
  "plugins/loop-guard/hooks/stop.sh": "#!/bin/sh\nexit 0\n",
  "plugins/loop-guard/commands/start-loop.md":
    '---\ndescription: "Start a loop"\nargument-hint: "PROMPT"\n---\n\nLoop.\n',
  "plugins/zig-lsp/README.md": "Configures zls for .zig files.\n",
  "plugins/sample-plugin/.claude-plugin/plugin.json": json({ name: "sample-plugin", version: "0.1.0" }),
  "external_plugins/tracker/.claude-plugin/plugin.json": json({ name: "tracker" }),
  "external_plugins/tracker/.mcp.json": json({ tracker: { command: "npx", args: ["-y", "tracker-mcp"] } }),
};

/** The checks over a marketplace repository `repo` (its dirs listed once the tree exists). */
function marketplaceRepo(repo: MarketplaceRepo) {
  let pluginDirs: string[] = [];
  beforeAll(() => {
    const dir = repo.dir();
    pluginDirs = ["plugins", "external_plugins"].flatMap((group) =>
      readdirSync(join(dir, group))
        .sort()
        .map((name) => join(dir, group, name)),
    );
  });

  it("every plugin dir loads as a --plugin-dir with no error diagnostic", async () => {
    expect(pluginDirs.length).toBeGreaterThanOrEqual(repo.atLeast);
    for (const root of pluginDirs) {
      const { plugin, diagnostics } = await loadPlugin({ fs, root, dataRoot: DATA });
      expect({ root, errors: diagnostics.filter((d) => d.severity === "error") }).toEqual({
        root,
        errors: [],
      });
      expect(plugin?.root).toBe(root);
    }
  });

  it("loads every local plugin of the marketplace through enabledPlugins, with no error diagnostic", async () => {
    const dir = repo.dir();
    const read = await readMarketplace(fs, join(dir, ".claude-plugin", "marketplace.json"));
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
      projectDir: dir,
    });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plugins.map((p) => p.name)).toEqual(present.map((p) => p.name));
    // Marketplace-only manifests (LSP plugins, no plugin.json) take their metadata from the entry.
    const [entryOnly, version] = repo.entryOnly;
    expect(plugins.find((p) => p.name === entryOnly)?.manifest.version).toBe(version);
    const names = plugins.flatMap((p) => p.skills.map((s) => s.name));
    expect(names).toEqual(expect.arrayContaining(repo.skills));
    const [hooked, script] = repo.stopHook;
    const stop = plugins.find((p) => p.name === hooked)?.hooks.Stop?.[0]?.hooks[0];
    const hooks = stop?.type === "command" ? stop.command : undefined;
    expect(hooks).toBe(`bash "${join(dir, "plugins", hooked)}/${script}"`);
  });

  it("validates as a marketplace: only listed plugins missing from this snapshot fail", async () => {
    const dir = repo.dir();
    const report = await validatePlugins({ fs, dir, dataRoot: DATA });
    const failing = report.plugins.filter((p) => !p.ok);
    expect(failing.map((p) => p.root)).toEqual([join(dir, "plugins", repo.missing)]);
    expect(failing[0]?.diagnostics.map((d) => d.message)).toEqual(["plugin directory does not exist"]);
    const checked = report.plugins.filter((p) => p.ok).map((p) => p.root);
    expect(pluginDirs.filter((d) => !checked.includes(d))).toEqual([join(dir, "plugins", repo.unlisted)]);
    expect(report.ok).toBe(false);
  });
}

describe("a marketplace in claude-plugins-official's shapes, written for the tests", () => {
  let tree: TmpTree;
  beforeAll(async () => {
    tree = await tmpTree(FIXTURE_TREE);
  });
  afterAll(() => tree?.cleanup());
  marketplaceRepo({
    dir: () => tree.root,
    atLeast: 6,
    skills: ["docs-kit:doc-structure", "git-helpers:commit"],
    entryOnly: ["zig-lsp", "1.0.0"],
    stopHook: ["loop-guard", "hooks/stop.sh"],
    missing: "gone-plugin",
    unlisted: "sample-plugin",
  });
});

describeWithCorpus("the claude-plugins-official corpus", () => {
  marketplaceRepo({
    dir: () => corpusPath("claude-plugins-official"),
    atLeast: 41,
    skills: ["plugin-dev:plugin-structure", "commit-commands:commit"],
    entryOnly: ["gopls-lsp", "1.0.0"],
    stopHook: ["ralph-loop", "hooks/stop-hook.sh"],
    missing: "claude-security",
    // example-plugin is the one dir the marketplace does not list.
    unlisted: "example-plugin",
  });
});
