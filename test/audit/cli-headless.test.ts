/**
 * Audit of SPEC §13 headless flags that had no CLI-level test: `--model`, `--effort`, `--add-dir`,
 * `--plugin-dir`, `--mcp-config` with `-p`, and the JSON result shape. Runs the CLI in-process against the
 * scripted model server.
 */
import { writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SERVER_SCRIPT } from "../mcp/support.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { parsed, runIn } from "./support.js";

interface Body {
  model: string;
  output_config?: { effort?: string };
  tools?: { name: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "project/.git": { dir: true },
    "project/.claude/skills/local/SKILL.md": "---\ndescription: Local skill\n---\nLOCAL\n",
    "extra/.claude/skills/added/SKILL.md": "---\ndescription: From add-dir\n---\nADDED $ARGUMENTS\n",
    "plug/.claude-plugin/plugin.json": JSON.stringify({ name: "plug", version: "1.0.0" }),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
    "plug/skills/hello/SKILL.md": "---\ndescription: Plugin hello\n---\nHELLO from ${CLAUDE_PLUGIN_ROOT}\n",
    "plug/commands/cmd.md": "---\ndescription: Plugin command\n---\nCMD\n",
  });
  await writeFile(
    tree.path("mcp.json"),
    JSON.stringify({ mcpServers: { tst: { command: process.execPath, args: [SERVER_SCRIPT] } } }),
  );
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function headless(turns: Parameters<typeof startTestModel>[0], argv: string[]) {
  model = await startTestModel(turns);
  const run = await runIn(tree, argv, {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.server.url,
    },
  });
  const bodies = model.server.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body as Body);
  return { run, bodies };
}

const firstTexts = (body: Body | undefined) => {
  const content = body?.messages[0]?.content ?? [];
  return typeof content === "string" ? [content] : content.map((b) => b.text ?? "");
};

describe("skillwright -p flags (SPEC §13)", () => {
  it("--output-format json: result, session id (UUID), usage and turns, like Claude Code's headless mode", async () => {
    const { run } = await headless([textTurn("Answer.")], ["-p", "hi", "--output-format", "json"]);
    expect(run.code).toBe(0);
    const out = parsed<Record<string, unknown>>(run);
    expect(out).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "Answer." });
    expect(out.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(out.num_turns).toBe(1);
    expect(out.usage).toEqual(expect.objectContaining({ input_tokens: expect.any(Number) }));
  });

  it("--model resolves an alias; --effort goes out as output_config.effort", async () => {
    const { run, bodies } = await headless(
      [textTurn("ok")],
      ["-p", "hi", "--model", "haiku", "--effort", "high"],
    );
    expect(run.code).toBe(0);
    expect(bodies[0]?.model).toBe("claude-haiku-5-5");
    expect(bodies[0]?.output_config).toEqual({ effort: "high" });
  });

  it("--add-dir adds a project root: its skills are listed and invocable", async () => {
    const { run, bodies } = await headless(
      [toolTurn("Skill", { skill: "added", args: "x" }), textTurn("ok", { hasToolResultFor: "Skill" })],
      ["-p", "hi", "--add-dir", "../extra"],
    );
    expect(run.code).toBe(0);
    expect(firstTexts(bodies[0]).join("\n")).toContain("- added: From add-dir");
    const last = bodies[1]?.messages.at(-1)?.content;
    const texts = typeof last === "string" ? [last] : (last ?? []).map((b) => b.text ?? "");
    expect(texts).toContain(
      `Base directory for this skill: ${tree.path("extra/.claude/skills/added")}\n\nADDED x\n`,
    );
  });

  it("--plugin-dir loads a plugin: namespaced skills and commands, CLAUDE_PLUGIN_ROOT substituted", async () => {
    const { run, bodies } = await headless(
      [toolTurn("Skill", { skill: "plug:hello" }), textTurn("ok", { hasToolResultFor: "Skill" })],
      ["-p", "hi", "--plugin-dir", "../plug"],
    );
    expect(run.code).toBe(0);
    const listing = firstTexts(bodies[0]).join("\n");
    expect(listing).toContain("- plug:hello: Plugin hello");
    expect(listing).toContain("- plug:cmd: Plugin command");
    // SPEC §2 listing order: plugin commands, then plugin skills
    expect(listing.indexOf("- plug:cmd")).toBeLessThan(listing.indexOf("- plug:hello"));
    expect(JSON.stringify(bodies[1]?.messages.at(-1))).toContain(`HELLO from ${tree.path("plug")}`);
  });

  it("--mcp-config (a file) offers the server's tools as mcp__{server}__{tool}", async () => {
    const { run, bodies } = await headless([textTurn("ok")], ["-p", "hi", "--mcp-config", "../mcp.json"]);
    expect(run.code).toBe(0);
    expect(bodies[0]?.tools?.map((t) => t.name)).toContain("mcp__tst__add");
  });

  it("the offline commands need no key: list works with no ANTHROPIC_API_KEY", async () => {
    const run = await runIn(tree, ["list", "--json"]);
    expect(run.code).toBe(0);
    expect(parsed<{ name: string }[]>(run).map((s) => s.name)).toContain("local");
  });
});
