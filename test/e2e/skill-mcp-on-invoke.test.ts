/**
 * An MCP server only skills need (issue #42 item 2) on the shipped bin: it is named by a skill's needs, so it is
 * not started with the session but when such a skill is first invoked (the test server logs each start); its
 * tools are in the tools array from the first request, deferred, from the tool list kept when it last ran, so
 * `system` and `tools` are byte-identical in every request before and after it starts.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { cli, cliWithModel, json } from "../cli/run-cli.js";
import { isAlive, SERVER_SCRIPT } from "../mcp/support.js";
import { type RequestBody, resultText, skillMd, toolResults } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree;
/** Each start of a project's server, one pid a line (the server runs in the project and logs there). */
const starts = (project: string) => {
  const log = tree.path(`home/${project}/starts.log`);
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
};

/** A project with the test server as `docs` (approved) and, when `skill`, a skill that needs it. */
function project(name: string, skill: boolean): Record<string, string | { dir: true }> {
  return {
    [`home/${name}/.git`]: { dir: true },
    [`home/${name}/.mcp.json`]: JSON.stringify({
      mcpServers: { docs: { command: process.execPath, args: [SERVER_SCRIPT, "--start-log", "starts.log"] } },
    }),
    [`home/${name}/.claude/settings.local.json`]: JSON.stringify({ enabledMcpjsonServers: ["docs"] }),
    ...(skill
      ? {
          [`home/${name}/.claude/skills/docs-skill/SKILL.md`]: skillMd(
            "description: Answers from the docs server\nmetadata:\n  requires:\n    mcp: [docs]",
            "Use the docs server's tools.",
          ),
        }
      : {}),
  };
}

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", ...project("repo", true), ...project("bare", false) });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(cwd: string, prompt: string, turns: ScriptTurnInput[]) {
  model = await startTestModel(turns);
  const { result, bodies } = await cliWithModel(
    tree,
    model,
    ["-p", prompt, "--allowedTools", "Skill,mcp__docs__add"],
    `home/${cwd}`,
  );
  expect(result.code, result.stderr).toBe(0);
  return { result, bodies };
}

const prefix = (body: RequestBody | undefined) =>
  JSON.stringify({ system: body?.system, tools: body?.tools });
type ToolDef = { name: string; defer_loading?: boolean };

describe("an MCP server only skills need (dist/bin)", () => {
  it("learns its tools once, then starts only when a skill that needs it is invoked, with the prefix unchanged", async () => {
    // Never run before: started once at open to learn its tool list, which is kept under ~/.skillwright.
    await run("repo", "hello", [textTurn("hi")]);
    expect(starts("repo")).toHaveLength(1);
    const kept = JSON.parse(readFileSync(tree.path("home/.skillwright/mcp-tools.json"), "utf8"));
    const entry = Object.values(
      kept.servers as Record<string, { server: string; tools: { name: string }[] }>,
    )[0];
    expect(entry?.server).toBe("docs");
    expect(entry?.tools.map((t) => t.name)).toContain("add");

    // Known now: a session that never invokes the skill never starts the server.
    const quiet = await run("repo", "hello", [textTurn("hi")]);
    expect(starts("repo")).toHaveLength(1);
    const tools = (quiet.bodies[0]?.tools ?? []) as ToolDef[];
    expect(tools.find((t) => t.name === "mcp__docs__add")?.defer_loading).toBe(true);
    expect(tools.find((t) => t.name === "Read")?.defer_loading).toBeUndefined();

    // Invoking the skill starts it (once), its result references the server's tools, and the tool answers.
    const used = await run("repo", "add with the docs skill", [
      toolTurn("Skill", { skill: "docs-skill" }),
      toolTurn("mcp__docs__add", { a: 2, b: 40 }, { match: { hasToolResultFor: "Skill" } }),
      textTurn("42", { hasToolResultFor: "mcp__docs__add" }),
    ]);
    expect(used.result.stdout.trim()).toBe("42");
    const log = starts("repo");
    expect(log).toHaveLength(2);
    expect(used.bodies).toHaveLength(3);
    const [launched] = toolResults(used.bodies[1] as RequestBody);
    const refs = Array.isArray(launched?.content) ? launched.content : [];
    expect(refs).toContainEqual({ type: "tool_reference", tool_name: "mcp__docs__add" });
    const [sum] = toolResults(used.bodies[2] as RequestBody);
    expect(sum?.is_error).toBeFalsy();
    expect(sum && resultText(sum)).toBe("42");
    // The cache holds: system and tools byte-identical in every request, before and after the server started,
    // and the same as in the session that never started it.
    for (const body of used.bodies) expect(prefix(body)).toBe(prefix(quiet.bodies[0]));
    // Stopped with the session.
    expect(isAlive(Number(log[1]))).toBe(false);
  }, 240_000);

  it("with the skill installed the first request's system is the same as without it; the tools differ only in defer_loading and the resource tools", async () => {
    const withSkill = await run("repo", "hello", [textTurn("hi")]);
    const without = await run("bare", "hello", [textTurn("hi")]);
    // Without a skill that needs it, the server is an ordinary one: started with the session, tools sent whole.
    expect(starts("bare")).toHaveLength(1);
    // The same but for the working directory's name; the server's instructions come from the kept list.
    const system = (body: RequestBody | undefined, dir: string) =>
      JSON.stringify(body?.system).replaceAll(tree.path(`home/${dir}`), "PROJECT");
    expect(system(withSkill.bodies[0], "repo")).toContain("A test server.");
    expect(system(withSkill.bodies[0], "repo")).toBe(system(without.bodies[0], "bare"));
    // The held server's tools are the same definitions, deferred; its resources are not offered (the resource
    // tools come only from servers that run from the start: docs/behaviour.md §19.5).
    const RESOURCE_TOOLS = ["ListMcpResourcesTool", "ReadMcpResourceTool"];
    const plain = (body: RequestBody | undefined) =>
      JSON.stringify(
        ((body?.tools ?? []) as ToolDef[])
          .filter((t) => !RESOURCE_TOOLS.includes(t.name))
          .map(({ defer_loading: _d, ...rest }) => rest),
      );
    expect((withSkill.bodies[0]?.tools ?? []).map((t) => t.name)).not.toContain("ListMcpResourcesTool");
    expect(plain(withSkill.bodies[0])).toBe(plain(without.bodies[0]));
    const deferred = ((withSkill.bodies[0]?.tools ?? []) as ToolDef[]).filter(
      (t) => t.defer_loading === true,
    );
    expect(deferred.map((t) => t.name).every((n) => n.startsWith("mcp__docs__"))).toBe(true);
    expect(deferred.length).toBeGreaterThan(0);
  }, 240_000);

  it("doctor --start-mcp starts it too and says that sessions start it on demand (not 'not started')", async () => {
    const before = starts("repo").length;
    const human = await cli(tree, ["doctor", "--start-mcp"], "home/repo");
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      /docs {2}\[project\][^\n]*\n {4}connected[^\n]*: \d+ tools\n {4}only skills need it/,
    );
    expect(human.stdout).not.toContain("not started");
    const report = json<{
      mcpServers: { name: string; state: string; onDemand?: boolean; tools?: number }[];
    }>(await cli(tree, ["doctor", "--start-mcp", "--json"], "home/repo"));
    const docs = report.mcpServers.find((s) => s.name === "docs");
    expect(docs).toMatchObject({ state: "connected", onDemand: true });
    expect(docs?.tools).toBeGreaterThan(0);
    // Each doctor run started it once, and stopped it.
    expect(starts("repo").length).toBe(before + 2);
  }, 240_000);
});
