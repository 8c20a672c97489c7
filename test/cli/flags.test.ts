/**
 * Claude Code's flags that scripts pass (SPEC §14.13) and `--skills-dir`, run through the shipped bin
 * (`node dist/bin/main.js`) against the scripted model server.
 */
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SERVER_SCRIPT } from "../mcp/support.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

interface Body {
  messages: { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
}

let tree: TmpTree;
beforeAll(async () => {
  const server = { command: process.execPath, args: [SERVER_SCRIPT] };
  tree = await tmpTree({
    // The project's .mcp.json server is approved (issue 16.1: it would wait for approval otherwise).
    "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["tst"] }),
    "project/.git": { dir: true },
    "project/.claude/skills/local/SKILL.md": "---\ndescription: Local skill\n---\nLOCAL\n",
    "project/.mcp.json": JSON.stringify({ mcpServers: { tst: server } }),
    "other.json": JSON.stringify({ mcpServers: { oth: server } }),
    "plain/tidy/SKILL.md": "---\ndescription: Tidies things up\n---\nTIDY-BODY $ARGUMENTS\n",
    "plain/notes/SKILL.md": "---\ndescription: Takes notes\n---\nNOTES\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function bin(argv: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  return execa(process.execPath, [BIN, ...argv, "--cwd", tree.path("project"), "--home", tree.path("home")], {
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed"), ...options.env },
    extendEnv: true,
    reject: false,
    timeout: 60_000,
    ...(options.input === undefined ? { stdin: "ignore" } : { input: options.input }),
  });
}

async function withModel(turns: Parameters<typeof startTestModel>[0]) {
  model = await startTestModel(turns);
  return { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.server.url };
}

const bodies = () =>
  (model?.server.requests ?? []).filter((r) => r.path === "/v1/messages").map((r) => r.body as Body);

const names = (stdout: string) => (JSON.parse(stdout) as { name: string }[]).map((s) => s.name);

describe("--input-format stream-json (headless multi-turn)", () => {
  it("takes user messages as JSON lines on stdin, one turn each, in one session; stream-json out", async () => {
    const env = await withModel([
      textTurn("First answer.", { lastUserTextIncludes: "question one" }),
      textTurn("Second answer.", { lastUserTextIncludes: "question two" }),
    ]);
    const input = [
      JSON.stringify({ type: "user", message: { role: "user", content: "question one" } }),
      JSON.stringify({
        type: "user",
        message: { role: "user", content: [{ type: "text", text: "question two" }] },
      }),
      "",
    ].join("\n");
    const result = await bin(["-p", "--input-format", "stream-json", "--output-format", "stream-json"], {
      input,
      env,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init" });
    const results = lines.filter((l) => l.type === "result");
    expect(results.map((r) => [r.subtype, r.result])).toEqual([
      ["success", "First answer."],
      ["success", "Second answer."],
    ]);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
    expect(lines.some((l) => l.type === "assistant")).toBe(true);
    // The second turn continues the conversation: it carries the first exchange.
    const second = bodies()[1];
    expect(second?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("needs --output-format stream-json (exit 2 with a message)", async () => {
    const result = await bin(["-p", "--input-format", "stream-json"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--input-format stream-json needs --output-format stream-json");
  });
});

describe("--verbose and --strict-mcp-config", () => {
  it("--verbose is accepted and tells the session, model and skills on stderr", async () => {
    const env = await withModel([textTurn("Hi.")]);
    const result = await bin(["-p", "hello", "--verbose", "--strict-mcp-config"], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("Hi.");
    expect(result.stderr).toMatch(/skillwright: session [0-9a-f-]{36} · model \S+ · \d+ skills/);
  });

  it("--strict-mcp-config keeps only the --mcp-config servers (no .mcp.json)", async () => {
    // `list` starts MCP servers only with --start-mcp (it is offline otherwise).
    const plain = await bin(["list", "--json", "--start-mcp"]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(names(plain.stdout).some((n) => n.startsWith("mcp__tst__"))).toBe(true);
    const strict = await bin(["list", "--json", "--strict-mcp-config", "--start-mcp"]);
    expect(strict.exitCode, strict.stderr).toBe(0);
    expect(names(strict.stdout).some((n) => n.startsWith("mcp__"))).toBe(false);
    const only = await bin([
      "list",
      "--json",
      "--strict-mcp-config",
      "--start-mcp",
      "--mcp-config",
      tree.path("other.json"),
    ]);
    const onlyNames = names(only.stdout);
    expect(onlyNames.some((n) => n.startsWith("mcp__oth__"))).toBe(true);
    expect(onlyNames.some((n) => n.startsWith("mcp__tst__"))).toBe(false);
  });
});

describe("--skills-dir <dir> vs --add-dir <dir>", () => {
  it("--skills-dir loads <dir>/<name>/SKILL.md as project skills; --add-dir looks in <dir>/.claude/skills", async () => {
    const skillsDir = await bin(["list", "--json", "--skills-dir", tree.path("plain")]);
    expect(skillsDir.exitCode, skillsDir.stderr).toBe(0);
    const listed = JSON.parse(skillsDir.stdout) as { name: string; source: string; path: string }[];
    expect(
      listed.filter((s) => s.path.startsWith(tree.path("plain"))).map((s) => [s.name, s.source]),
    ).toEqual([
      ["notes", "project"],
      ["tidy", "project"],
    ]);
    const addDir = await bin(["list", "--json", "--add-dir", tree.path("plain")]);
    expect(names(addDir.stdout)).not.toContain("tidy");
  });

  it("a --skills-dir skill is listed to the model and invocable", async () => {
    const env = await withModel([
      toolTurn("Skill", { skill: "tidy", args: "desk" }, { match: { lastUserTextIncludes: "clean" } }),
      textTurn("Tidied.", { toolResultIncludes: "Launching skill: tidy" }),
    ]);
    const result = await bin(["-p", "clean up", "--skills-dir", tree.path("plain"), "--strict-mcp-config"], {
      env,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("Tidied.");
    const first = JSON.stringify(bodies()[0]?.messages[0]);
    expect(first).toContain("- tidy: Tidies things up");
    expect(JSON.stringify(bodies()[1])).toContain("TIDY-BODY desk");
  });
});
