// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics.js";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const fs = createNodeFs();
const DATA = "/home/u/.skillwright/plugins/data";
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const skill = (description: string, extra = "") =>
  `---\ndescription: ${description}\n${extra}---\nBody of ${description}\n`;
const json = (value: unknown) => JSON.stringify(value, null, 2);
const codes = (diagnostics: readonly Diagnostic[], severity?: Diagnostic["severity"]) =>
  diagnostics.filter((d) => severity === undefined || d.severity === severity).map((d) => d.code);

describe("loadPlugin: the default layout", () => {
  it("loads skills, commands, agents, hooks and MCP servers, namespaced and substituted", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({ name: "tools", version: "1.2.0" }),
      "p/skills/lint/SKILL.md": skill("Lints things"),
      "p/skills/lint/reference.md": "extra file",
      "p/commands/build.md": skill("Builds"),
      "p/commands/db/migrate.md": skill("Migrates"),
      "p/agents/reviewer.md":
        "---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\n---\nYou review.\n",
      "p/hooks/hooks.json": json({
        description: "d",
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: 'node "${CLAUDE_PLUGIN_ROOT}/guard.mjs"' }],
            },
          ],
        },
      }),
      "p/.mcp.json": json({
        mcpServers: {
          db: {
            command: "${CLAUDE_PLUGIN_ROOT}/bin/db",
            args: ["--data", "${CLAUDE_PLUGIN_DATA}/db.sqlite"],
            env: { TOKEN: "${DB_TOKEN}" },
          },
        },
      }),
    });
    const root = tree.path("p");
    const { plugin, diagnostics } = await loadPlugin({ fs, root, dataRoot: DATA });
    expect(codes(diagnostics, "error")).toEqual([]);
    expect(codes(diagnostics, "warning")).toEqual([]);
    expect(plugin).toBeDefined();
    if (plugin === undefined) return;
    expect(plugin.name).toBe("tools");
    expect(plugin.root).toBe(root);
    expect(plugin.dataDir).toBe(`${DATA}/tools-inline`);
    expect(plugin.manifest.version).toBe("1.2.0");
    expect(plugin.skills.map((s) => [s.name, s.kind, s.source])).toEqual([
      ["tools:lint", "skill", "plugin"],
      ["tools:build", "command", "plugin"],
      ["tools:db:migrate", "command", "plugin"],
    ]);
    const lint = plugin.skills[0];
    expect(lint?.plugin).toEqual({ name: "tools", root, dataDir: `${DATA}/tools-inline` });
    expect(lint?.baseDir).toBe(`${root}/skills/lint`);
    expect(lint?.description).toBe("Lints things");
    expect(await lint?.loadBody()).toBe("Body of Lints things\n");
    expect(plugin.agents).toEqual([
      expect.objectContaining({
        name: "tools:reviewer",
        source: "plugin",
        description: "Reviews",
        tools: ["Read", "Grep"],
        systemPrompt: "You review.",
        path: `${root}/agents/reviewer.md`,
      }),
    ]);
    expect(plugin.hooks).toEqual({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `node "${root}/guard.mjs"` }] }],
    });
    expect(plugin.mcpServers).toEqual({
      db: {
        command: `${root}/bin/db`,
        args: ["--data", `${DATA}/tools-inline/db.sqlite`],
        env: { TOKEN: "${DB_TOKEN}" },
      },
    });
  });

  it("namespaces a skill's name: alias too", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({ name: "ns" }),
      "p/skills/pdf-tools/SKILL.md": skill("PDF", "name: pdf\n"),
    });
    const { plugin } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(plugin?.skills.map((s) => [s.name, s.alias])).toEqual([["ns:pdf-tools", "ns:pdf"]]);
  });

  it("a skill dir beats a command of the same name (the command is shadowed)", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({ name: "p" }),
      "p/skills/deploy/SKILL.md": skill("skill"),
      "p/commands/deploy.md": skill("command"),
    });
    const { plugin, diagnostics } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(plugin?.skills.map((s) => [s.name, s.kind])).toEqual([["p:deploy", "skill"]]);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ code: "shadowed", path: tree.path("p/commands/deploy.md") }),
    );
  });

  it("without a manifest the plugin is named after its dir (info); an invalid dir name is an error", async () => {
    tree = await tmpTree({
      "bare-plugin/skills/x/SKILL.md": skill("x"),
      "Bad Name/skills/x/SKILL.md": skill("x"),
    });
    const bare = await loadPlugin({ fs, root: tree.path("bare-plugin"), dataRoot: DATA });
    expect(bare.plugin?.skills.map((s) => s.name)).toEqual(["bare-plugin:x"]);
    expect(bare.diagnostics.map((d) => [d.severity, d.code])).toEqual([["info", "plugin-invalid"]]);
    const bad = await loadPlugin({ fs, root: tree.path("Bad Name"), dataRoot: DATA });
    expect(bad.plugin).toBeUndefined();
    expect(codes(bad.diagnostics, "error")).toEqual(["plugin-invalid"]);
  });
});

describe("loadPlugin: manifest paths", () => {
  it("custom paths add to the default dirs; a default named again loads once", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({
        name: "p",
        skills: ["./skills", "./extra-skills", "./single/solo"],
        commands: ["./more/release.md", "./admin"],
        agents: ["./special/auditor.md", "./agents"],
      }),
      "p/skills/base/SKILL.md": skill("base"),
      "p/extra-skills/extra/SKILL.md": skill("extra"),
      "p/single/solo/SKILL.md": skill("solo"),
      "p/commands/default-cmd.md": skill("default command"),
      "p/more/release.md": skill("release"),
      "p/admin/reset.md": skill("reset"),
      "p/agents/helper.md": "---\ndescription: helps\n---\nHelp.",
      "p/special/auditor.md": "---\ndescription: audits\n---\nAudit.",
    });
    const { plugin, diagnostics } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(codes(diagnostics, "warning")).toEqual([]);
    expect(codes(diagnostics, "error")).toEqual([]);
    expect(plugin?.skills.map((s) => s.name)).toEqual([
      "p:base",
      "p:extra",
      "p:solo",
      "p:default-cmd",
      "p:release",
      "p:reset",
    ]);
    expect(plugin?.skills.find((s) => s.name === "p:solo")?.baseDir).toBe(tree.path("p/single/solo"));
    expect(plugin?.agents.map((a) => a.name)).toEqual(["p:helper", "p:auditor"]);
  });

  it("refuses paths that leave the plugin root, and loads nothing from there", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({
        name: "p",
        skills: "../outside",
        commands: ["/etc"],
        agents: "./a/../../outside-agents",
        hooks: "../hooks.json",
        mcpServers: "./../mcp.json",
      }),
      "outside/evil/SKILL.md": skill("evil"),
      "outside-agents/evil.md": "---\ndescription: evil\n---\n",
      "hooks.json": json({ hooks: { Stop: [{ hooks: [{ type: "command", command: "evil" }] }] } }),
      "mcp.json": json({ evil: { command: "evil" } }),
    });
    const { plugin, diagnostics } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(plugin?.skills).toEqual([]);
    expect(plugin?.agents).toEqual([]);
    expect(plugin?.hooks).toEqual({});
    expect(plugin?.mcpServers).toEqual({});
    const refused = diagnostics.filter((d) => d.severity === "error");
    expect(refused.map((d) => d.code)).toEqual(Array(5).fill("plugin-invalid"));
    expect(refused.map((d) => d.message.split(":")[0])).toEqual([
      "skills",
      "commands",
      "agents",
      "hooks",
      "mcpServers",
    ]);
  });

  it("warns about manifest paths that do not exist and about paths without ./", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({
        name: "p",
        skills: "./nope",
        agents: "more-agents",
        hooks: "./h.json",
      }),
      "p/more-agents/a.md": "---\ndescription: a\n---\n",
    });
    const { plugin, diagnostics } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(plugin?.agents.map((a) => a.name)).toEqual(["p:a"]);
    expect(diagnostics.filter((d) => d.severity === "warning").map((d) => d.path)).toEqual([
      tree.path("p/.claude-plugin/plugin.json"),
      tree.path("p/nope"),
      tree.path("p/h.json"),
    ]);
  });

  it("merges hooks from hooks/hooks.json, a manifest file and an inline object, in that order", async () => {
    const hook = (command: string) => ({ hooks: [{ type: "command", command }] });
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({
        name: "p",
        hooks: ["./config/more.json", { Stop: [hook("${CLAUDE_PLUGIN_DATA}/inline")] }, "./hooks/hooks.json"],
      }),
      "p/hooks/hooks.json": json({ hooks: { Stop: [hook("default")], SessionStart: [hook("start")] } }),
      "p/config/more.json": json({ Stop: [hook("${CLAUDE_PLUGIN_ROOT}/more")] }),
    });
    const root = tree.path("p");
    const { plugin, diagnostics } = await loadPlugin({ fs, root, dataRoot: DATA });
    expect(diagnostics).toEqual([]);
    expect(plugin?.hooks).toEqual({
      Stop: [hook("default"), hook(`${root}/more`), hook(`${DATA}/p-inline/inline`)],
      SessionStart: [hook("start")],
    });
  });

  it("merges MCP servers from .mcp.json (flat form) and the manifest; a repeated name is shadowed", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({
        name: "p",
        mcpServers: { inline: { type: "http", url: "https://x/mcp" }, files: { command: "other" } },
      }),
      "p/.mcp.json": json({ files: { command: "npx", args: ["-y", "files-mcp", "${CLAUDE_PLUGIN_ROOT}"] } }),
    });
    const root = tree.path("p");
    const { plugin, diagnostics } = await loadPlugin({ fs, root, dataRoot: DATA });
    expect(plugin?.mcpServers).toEqual({
      files: { command: "npx", args: ["-y", "files-mcp", root] },
      inline: { type: "http", url: "https://x/mcp" },
    });
    expect(codes(diagnostics)).toEqual(["shadowed"]);
  });
});

describe("loadPlugin: broken plugins", () => {
  it("an unparsable manifest yields no plugin and an error", async () => {
    tree = await tmpTree({ "p/.claude-plugin/plugin.json": "{ name: p", "p/skills/x/SKILL.md": skill("x") });
    const result = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(result.plugin).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "plugin-invalid",
        path: tree.path("p/.claude-plugin/plugin.json"),
      }),
    ]);
  });

  it("a missing dir is an error, not an exception", async () => {
    tree = await tmpTree({});
    const result = await loadPlugin({ fs, root: tree.path("nope"), dataRoot: DATA });
    expect(result.plugin).toBeUndefined();
    expect(codes(result.diagnostics, "error")).toEqual(["plugin-invalid"]);
  });

  it("bad components are diagnostics; the rest of the plugin still loads", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({ name: "p" }),
      "p/skills/good/SKILL.md": skill("good"),
      "p/skills/empty-dir/notes.txt": "no SKILL.md here",
      "p/hooks/hooks.json": "{ not json",
      "p/.mcp.json": json({ mcpServers: { s: "node server.js", t: { command: "t" } } }),
    });
    const { plugin, diagnostics } = await loadPlugin({ fs, root: tree.path("p"), dataRoot: DATA });
    expect(plugin?.skills.map((s) => s.name)).toEqual(["p:good"]);
    expect(plugin?.mcpServers).toEqual({ t: { command: "t" } });
    expect(diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["info", "ignored-file"],
      ["error", "hooks-invalid"],
      ["warning", "plugin-invalid"],
    ]);
  });
});

describe("loadPlugin: marketplace overlay", () => {
  it("is the whole manifest when there is no plugin.json", async () => {
    tree = await tmpTree({ "dir/skills/solo/SKILL.md": skill("solo"), "dir/custom/c/SKILL.md": skill("c") });
    const { plugin, diagnostics } = await loadPlugin({
      fs,
      root: tree.path("dir"),
      dataRoot: DATA,
      overlay: { name: "listed", version: "2.0.0", skills: ["./custom"] },
    });
    expect(diagnostics).toEqual([]);
    expect(plugin?.name).toBe("listed");
    expect(plugin?.manifest.version).toBe("2.0.0");
    expect(plugin?.skills.map((s) => s.name)).toEqual(["listed:solo", "listed:c"]);
  });

  it("fills fields plugin.json lacks and adds its component paths to the manifest's", async () => {
    tree = await tmpTree({
      "p/.claude-plugin/plugin.json": json({ name: "p", description: "own", skills: "./a" }),
      "p/a/x/SKILL.md": skill("x"),
      "p/b/y/SKILL.md": skill("y"),
    });
    const { plugin, diagnostics } = await loadPlugin({
      fs,
      root: tree.path("p"),
      dataRoot: DATA,
      overlay: { name: "other", description: "listed", version: "3.0.0", skills: "./b" },
    });
    expect(plugin?.name).toBe("p");
    expect(plugin?.manifest).toMatchObject({ description: "own", version: "3.0.0", skills: ["./a", "./b"] });
    expect(plugin?.skills.map((s) => s.name)).toEqual(["p:x", "p:y"]);
    expect(diagnostics.map((d) => [d.severity, d.code])).toEqual([["warning", "plugin-invalid"]]);
  });
});
