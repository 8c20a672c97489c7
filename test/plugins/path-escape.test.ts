import { rm, symlink } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics.js";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { INIT_ENTRY, lastUser, listingBlock, startHarness, textBlocks } from "../support/harness.js";
import { textTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

/** Issue 16.2: a plugin may not reach a file outside its root through a symlink. */
const fs = createNodeFs();
const DATA = "/home/u/.skillwright/plugins/data";
const SECRET = "---\ndescription: TOP SECRET outside text\n---\nSecret body\n";
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const json = (value: unknown) => JSON.stringify(value);
const escapes = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => d.code === "plugin-path-escape").map((d) => d.path);

/** A plugin `p` with one honest skill, plus `files`; `outside/` holds files the plugin must not reach. */
async function plugin(files: Record<string, TreeEntry>) {
  tree = await tmpTree({
    "p/.claude-plugin/plugin.json": json({ name: "p" }),
    "p/skills/ok/SKILL.md": "---\ndescription: Honest skill\n---\nOk\n",
    "outside/SKILL.md": SECRET,
    "outside/skill-dir/SKILL.md": SECRET,
    "outside/cmd.md": SECRET,
    "outside/agent.md": "---\nname: spy\ndescription: outside agent\n---\nSpy.\n",
    "outside/hooks.json": json({ hooks: { Stop: [{ hooks: [{ type: "command", command: "touch x" }] }] } }),
    "outside/mcp.json": json({ mcpServers: { evil: { command: "touch", args: ["x"] } } }),
    ...files,
  });
  const root = tree.path("p");
  const result = await loadPlugin({ fs, root, dataRoot: DATA });
  return { ...result, t: tree, root };
}

describe("loadPlugin refuses files whose real path leaves the plugin root", () => {
  it("skills/pw/SKILL.md → a file outside: refused, never read; the other skill loads", async () => {
    const {
      plugin: p,
      diagnostics,
      t,
    } = await plugin({
      "p/skills/pw/SKILL.md": { symlink: "../../../outside/SKILL.md" },
    });
    expect(escapes(diagnostics)).toEqual([t.path("p/skills/pw/SKILL.md")]);
    expect(diagnostics.find((d) => d.code === "plugin-path-escape")?.severity).toBe("error");
    expect(p?.skills.map((s) => s.name)).toEqual(["p:ok"]);
    expect(JSON.stringify(p)).not.toContain("TOP SECRET");
  });

  it("a skill dir, the skills dir itself, a command, an agent, hooks and MCP configs linked outside", async () => {
    const {
      plugin: p,
      diagnostics,
      t,
    } = await plugin({
      "p/skills/linked": { symlink: "../../outside/skill-dir" },
      "p/more-skills": { symlink: "../outside" },
      "p/.claude-plugin/plugin.json": json({ name: "p", skills: "./more-skills" }),
      "p/commands/c.md": { symlink: "../../outside/cmd.md" },
      "p/agents/spy.md": { symlink: "../../outside/agent.md" },
      "p/hooks/hooks.json": { symlink: "../../outside/hooks.json" },
      "p/.mcp.json": { symlink: "../outside/mcp.json" },
    });
    expect(escapes(diagnostics).sort()).toEqual(
      [
        "p/.mcp.json",
        "p/agents/spy.md",
        "p/commands/c.md",
        "p/hooks/hooks.json",
        "p/more-skills/SKILL.md",
        "p/skills/linked/SKILL.md",
      ].map((r) => t.path(r)),
    );
    expect(p?.skills.map((s) => s.name)).toEqual(["p:ok"]);
    expect(p?.agents).toEqual([]);
    expect(p?.hooks).toEqual({});
    expect(p?.mcpServers).toEqual({});
    expect(JSON.stringify(p)).not.toContain("TOP SECRET");
  });

  it("a manifest linked outside refuses the whole plugin", async () => {
    const {
      plugin: p,
      diagnostics,
      t,
    } = await plugin({
      "p/.claude-plugin/plugin.json": { symlink: "../../outside/mcp.json" },
    });
    expect(p).toBeUndefined();
    expect(escapes(diagnostics)).toEqual([t.path("p/.claude-plugin/plugin.json")]);
  });

  it("links that stay inside the plugin, and a plugin root that is itself a link, are fine", async () => {
    tree = await tmpTree({
      "real/.claude-plugin/plugin.json": json({ name: "p" }),
      "real/shared/SKILL.md": "---\ndescription: Shared inside\n---\nShared\n",
      "real/skills/a/SKILL.md": { symlink: "../../shared/SKILL.md" },
      link: { symlink: "real" },
    });
    const { plugin: p, diagnostics } = await loadPlugin({ fs, root: tree.path("link"), dataRoot: DATA });
    expect(escapes(diagnostics)).toEqual([]);
    expect(p?.skills.map((s) => [s.name, s.description])).toEqual([["p:a", "Shared inside"]]);
  });

  it("a link swapped to point outside after loading: the body is not read", async () => {
    const { plugin: p, t } = await plugin({
      "p/inside.md": "---\ndescription: Inside\n---\nInside body\n",
      "p/skills/swap/SKILL.md": { symlink: "../../inside.md" },
    });
    const skill = p?.skills.find((s) => s.name === "p:swap");
    expect(await skill?.loadBody()).toBe("Inside body\n");
    await rm(t.path("p/skills/swap/SKILL.md"));
    await symlink("../../../outside/SKILL.md", t.path("p/skills/swap/SKILL.md"));
    await expect(skill?.loadBody()).rejects.toThrow(/outside/);
  });
});

describe("a plugin skill linked outside never reaches the listing", () => {
  it("the model's listing holds only the honest skill", async () => {
    const e = await startHarness({
      files: {
        "plug/.claude-plugin/plugin.json": json({ name: "p" }),
        "plug/skills/ok/SKILL.md": "---\ndescription: Honest skill\n---\nOk\n",
        "plug/skills/pw/SKILL.md": { symlink: "../../../outside/SKILL.md" },
        "outside/SKILL.md": SECRET,
      },
      engine: { pluginDirs: ["{tree}/plug"] },
      turns: [textTurn("ok")],
    });
    try {
      await e.send("hi");
      const [listing] = textBlocks(lastUser(e.body(0)).content);
      expect(listing).toBe(listingBlock("- p:ok: Honest skill", INIT_ENTRY));
    } finally {
      await e.close();
    }
  });
});
