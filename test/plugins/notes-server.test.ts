import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { ensurePluginDataDir, usesPluginDataDir } from "../../src/plugins/plugin-vars.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const ROOT = join(import.meta.dirname, "..", "..", "plugins", "repo-notes");
const fs = createNodeFs();

let tree: TmpTree | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await tree?.cleanup();
  tree = undefined;
});

/** Starts the plugin's `notes` server exactly as configured by the loaded plugin, in `project`. */
async function connect(dataRoot: string, project: string) {
  const { plugin } = await loadPlugin({ fs, root: ROOT, dataRoot });
  const config = plugin?.mcpServers.notes as { command: string; args: string[]; env: Record<string, string> };
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { PATH: process.env.PATH ?? "", ...config.env },
    cwd: project,
    stderr: "pipe",
  });
  const c = new Client({ name: "skillwright-test", version: "0.0.0" });
  await c.connect(transport);
  client = c;
  return { client: c, plugin };
}

/** The text of a tool result's content parts. */
function text(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? "").join("");
}

describe("repo-notes MCP server (real stdio process, real SDK client)", () => {
  it("lists its tools and prompt, saves notes to the plugin data dir on first use, and finds them", async () => {
    tree = await tmpTree({ "project/README.md": "# demo" });
    const dataRoot = tree.path("data");
    const { client: c, plugin } = await connect(dataRoot, tree.path("project"));
    expect(plugin === undefined ? false : usesPluginDataDir(plugin)).toBe(true);

    expect((await c.listTools()).tools.map((t) => [t.name, t.annotations?.readOnlyHint ?? false])).toEqual([
      ["add_note", false],
      ["search_notes", true],
    ]);
    expect((await c.listPrompts()).prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])).toEqual([
      ["recall", ["topic"]],
    ]);
    await expect(stat(join(dataRoot, "repo-notes-inline"))).rejects.toMatchObject({ code: "ENOENT" });

    const saved = await c.callTool({
      name: "add_note",
      arguments: {
        text: "Run `npm run check` before pushing: CI runs the same.",
        tags: ["Build", "ci", "build"],
      },
    });
    expect(saved.isError ?? false).toBe(false);
    expect(text(saved)).toMatch(/^Saved note #1 \[build, ci\] for /);
    await c.callTool({
      name: "add_note",
      arguments: { text: "The parser lives in src/parse; never edit gen/." },
    });
    expect((await readdir(join(dataRoot, "repo-notes-inline"))).length).toBe(1);

    const all = text(await c.callTool({ name: "search_notes", arguments: {} }));
    expect(all.indexOf("#2")).toBeLessThan(all.indexOf("#1"));
    const byWords = text(await c.callTool({ name: "search_notes", arguments: { query: "PARSER gen" } }));
    expect(byWords).toContain("src/parse");
    expect(byWords).not.toContain("npm run check");
    const byTag = text(await c.callTool({ name: "search_notes", arguments: { tag: "ci" } }));
    expect(byTag).toContain("npm run check");
    expect(text(await c.callTool({ name: "search_notes", arguments: { query: "zebra" } }))).toBe(
      "No note matches (2 saved in all).",
    );

    const recall = await c.getPrompt({ name: "recall", arguments: { topic: "build" } });
    const message = recall.messages[0];
    expect(message?.role).toBe("user");
    const body = message?.content.type === "text" ? message.content.text : "";
    expect(body).toContain('notes saved about "build"');
    expect(body).toContain("npm run check");
    expect(body).not.toContain("src/parse");
  });

  it("bad arguments are tool errors the model can fix; unknown tools are protocol errors", async () => {
    tree = await tmpTree({ "project/x": "" });
    const { client: c } = await connect(tree.path("data"), tree.path("project"));
    const empty = await c.callTool({ name: "add_note", arguments: { text: "  " } });
    expect(empty.isError).toBe(true);
    expect(text(empty)).toContain("`text` is required");
    const tooLong = await c.callTool({ name: "add_note", arguments: { text: "x".repeat(4_001) } });
    expect(text(tooLong)).toContain("at most 4000 characters");
    const badLimit = await c.callTool({ name: "search_notes", arguments: { limit: 0 } });
    expect(badLimit.isError).toBe(true);
    expect(text(await c.callTool({ name: "search_notes", arguments: {} }))).toContain("No notes saved for");
    await expect(c.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("keeps each repository's notes apart", async () => {
    tree = await tmpTree({ "a/x": "", "b/x": "" });
    const dataRoot = tree.path("data");
    const first = await connect(dataRoot, tree.path("a"));
    await first.client.callTool({ name: "add_note", arguments: { text: "only in a" } });
    await first.client.close();
    const second = await connect(dataRoot, tree.path("b"));
    expect(text(await second.client.callTool({ name: "search_notes", arguments: {} }))).toMatch(
      /^No notes saved/,
    );
    expect((await readdir(join(dataRoot, "repo-notes-inline"))).length).toBe(1);
  });
});

describe("ensurePluginDataDir", () => {
  it("creates the data dir and its parents, and is idempotent", async () => {
    tree = await tmpTree({});
    const plugin = { dataDir: tree.path("a/b/data/p") };
    await ensurePluginDataDir(fs, plugin);
    await ensurePluginDataDir(fs, plugin);
    expect((await stat(plugin.dataDir)).isDirectory()).toBe(true);
  });
});
