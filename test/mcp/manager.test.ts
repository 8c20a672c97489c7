import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expandSkill } from "../../src/inline/expand-skill.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createMcpManager, type McpManager } from "../../src/mcp/manager.js";
import type { Skill } from "../../src/skill/skill.js";
import type { Tool, ToolContext } from "../../src/tools/define-tool.js";
import { isAlive, testServer, waitFor } from "./support.js";

const clientInfo = { name: "skillwright-test", version: "0.0.0" };
const ctx = (signal = new AbortController().signal): ToolContext => ({ cwd: "/", signal, toolUseId: "t1" });

/** The start-up timeout beside a hanging server. */
const STUCK_AFTER_MS = 10_000;

let dir: string;
const managers: McpManager[] = [];

function manager(servers: Parameters<typeof createMcpManager>[0]["servers"], timeoutMs?: number): McpManager {
  const created = createMcpManager({ servers, env: process.env, cwd: dir, clientInfo, timeoutMs });
  managers.push(created);
  return created;
}

function named<T extends { name: string }>(items: readonly T[], name: string): T {
  const found = items.find((i) => i.name === name);
  if (found === undefined) throw new Error(`no ${name} in ${items.map((i) => i.name).join(", ")}`);
  return found;
}

function text(result: Awaited<ReturnType<Tool["run"]>>): string {
  return result.content
    .map((c) =>
      c.type === "text" ? c.text : c.type === "image" ? `<${c.source.media_type}>` : `<${c.tool_name}>`,
    )
    .join("|");
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillwright-mcp-"));
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a good server beside a crashing and a hanging one", () => {
  let m: McpManager;
  let skills: Skill[];
  let tools: Tool[];
  let prompts: Skill[];

  beforeAll(async () => {
    m = createMcpManager({
      servers: {
        good: testServer("--unlisted"),
        crashy: testServer("--crash"),
        stuck: testServer("--hang"),
        missing: { command: "skillwright-no-such-command-xyz" },
      },
      env: process.env,
      cwd: dir,
      clientInfo,
      // How long "stuck" gets: also the good server's start-up window, which a busy machine needs seconds of.
      timeoutMs: STUCK_AFTER_MS,
    });
    [prompts, skills, tools] = await Promise.all([m.prompts(), m.skills(), m.tools()]);
  });
  afterAll(() => m.close());

  it("reports each failed server and keeps the good one", () => {
    const failed = m.diagnostics().filter((d) => d.code === "mcp-failed" && d.severity === "error");
    expect(failed.map((d) => d.message.match(/"(\w+)"/)?.[1])).toEqual(["crashy", "stuck", "missing"]);
    expect(failed[0]?.message).toMatch(/exited with code 1.*crashing on purpose/);
    expect(failed[1]?.message).toMatch(`no answer to initialize within ${STUCK_AFTER_MS} ms`);
    expect(failed[2]?.message).toMatch(/ENOENT/);
    expect(m.status().map((s) => s.state)).toEqual(["connected", "failed", "failed", "failed"]);
  });

  it("turns prompts into user commands that map args in order", async () => {
    expect(prompts.map((p) => p.name)).toEqual(["mcp__good__review"]);
    const review = named(prompts, "mcp__good__review");
    expect(review).toMatchObject({
      kind: "command",
      source: "mcp",
      mcpServer: "good",
      userInvocable: true,
      disableModelInvocation: true,
      literalBody: true,
      argumentHint: "<file> [focus]",
      description: "Review a file",
    });
    expect(await review.loadBody(undefined, "src/a.ts")).toBe("Review src/a.ts.\n\nFocus: everything");
    expect(await review.loadBody(undefined, "  src/a.ts   security and speed ")).toBe(
      "Review src/a.ts.\n\nFocus: security and speed",
    );
    await expect(review.loadBody(undefined, "")).rejects.toThrow(
      "Missing required argument file for /mcp__good__review. Usage: /mcp__good__review <file> [focus]",
    );
  });

  it("lists SEP-2640 skills from skill://index.json and fetches their bodies", async () => {
    expect(skills.map((s) => s.name)).toEqual(["mcp__good__greet", "mcp__good__lint-rules"]);
    const greet = named(skills, "mcp__good__greet");
    expect(greet).toMatchObject({
      kind: "skill",
      source: "mcp",
      mcpServer: "good",
      description: "Greets someone warmly",
      argumentHint: "<who>",
      baseDir: "skill://greet",
      filePath: "skill://greet/SKILL.md",
      disableModelInvocation: false,
    });
    expect(greet.hooks).toBeUndefined();
    expect(greet.alias).toBeUndefined();
    expect(m.diagnostics()).toContainEqual(
      expect.objectContaining({ code: "field-invalid", path: greet.filePath }),
    );
    expect(named(skills, "mcp__good__lint-rules").disableModelInvocation).toBe(true);
    const body = await greet.loadBody();
    expect(body).toBe("Say hello to $ARGUMENTS.\n\n!`touch SHOULD_NOT_EXIST`\n");
  });

  it("never runs inline shell from an MCP skill", async () => {
    const greet = named(skills, "mcp__good__greet");
    const expanded = await expandSkill(greet, {
      args: "Ada",
      sessionId: "s1",
      projectDir: dir,
      shellOps: createNodeShell(),
      checkCommand: async () => ({ behavior: "allow" }),
    });
    expect(expanded).toEqual({ ok: true, text: "Say hello to Ada.\n\n!`touch SHOULD_NOT_EXIST`\n" });
    expect(existsSync(join(dir, "SHOULD_NOT_EXIST"))).toBe(false);
  });

  it("offers tools with sanitized names, schemas and read-only hints", () => {
    expect(tools.map((t) => t.name)).toEqual([
      "mcp__good__add",
      "mcp__good__add_prompt",
      "mcp__good__crash",
      "mcp__good__echo",
      "mcp__good__fail",
      "mcp__good__odd_name_tool",
      "mcp__good__picture",
      "mcp__good__publish_skill",
      "mcp__good__slow",
      "ListMcpResourcesTool",
      "ReadMcpResourceTool",
    ]);
    const add = named(tools, "mcp__good__add");
    expect(add.readOnly).toBe(true);
    expect(named(tools, "mcp__good__fail").readOnly).toBe(false);
    expect(add.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(add.subject({ a: 1, b: 2 })).toBeUndefined();
    expect(named(tools, "mcp__good__odd_name_tool").description).toBe(
      "Tool odd.name/tool from MCP server good",
    );
  });

  it("calls tools and maps their content and errors", async () => {
    const add = named(tools, "mcp__good__add");
    expect(await add.run({ a: 2, b: 3 }, ctx())).toEqual({
      content: [{ type: "text", text: "5" }],
      isError: false,
      touchedPaths: [],
    });
    const fail = await named(tools, "mcp__good__fail").run({}, ctx());
    expect(fail.isError).toBe(true);
    expect(text(fail)).toBe("it failed on purpose");
    const bad = await add.run({ a: "two" }, ctx());
    expect(bad.isError).toBe(true);
    expect(await add.run("nope", ctx())).toMatchObject({ isError: true });
    const picture = await named(tools, "mcp__good__picture").run({}, ctx());
    expect(text(picture)).toBe("a pixel:|<image/png>|[audio (audio/wav)]");
    expect(text(await named(tools, "mcp__good__odd_name_tool").run(undefined, ctx()))).toBe("(no content)");
  });

  it("aborts a running tool call", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const result = await named(tools, "mcp__good__slow").run({ ms: 60_000 }, ctx(controller.signal));
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "Aborted" }] });
    // Far sooner than the tool's minute, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe("skill discovery paths", () => {
  it("uses skills/list when the server declares the extension", async () => {
    const m = manager({ ext: testServer("--skills-list", "--no-index") });
    const skills = await m.skills();
    expect(skills.map((s) => s.name)).toEqual(["mcp__ext__greet", "mcp__ext__lint-rules"]);
    expect(named(skills, "mcp__ext__lint-rules").baseDir).toBe("skill://acme/lint-rules");
    expect(await named(skills, "mcp__ext__greet").loadBody()).toContain("Say hello to $ARGUMENTS.");
  });

  it("refuses a body that does not match the published digest", async () => {
    const m = manager({ ext: testServer("--skills-list", "--bad-digest") });
    const greet = named(await m.skills(), "mcp__ext__greet");
    await expect(greet.loadBody()).rejects.toThrow(
      "skill://greet/SKILL.md failed verification against its skills/get entry (digest)",
    );
  });

  it("a stale skills/list entry is refreshed once with skills/get, and the body verified against it", async () => {
    const m = manager({ ext: testServer("--skills-list", "--stale-list") });
    const greet = named(await m.skills(), "mcp__ext__greet");
    expect(await greet.loadBody()).toContain("Say hello to $ARGUMENTS.");
  });

  it("falls back to resources/list without an index", async () => {
    const m = manager({ plain: testServer("--no-index") });
    const skills = await m.skills();
    expect(skills.map((s) => [s.name, s.description])).toEqual([
      ["mcp__plain__greet", "Greets someone warmly"],
      ["mcp__plain__lint-rules", "The ACME lint rules"],
    ]);
  });
});

describe("lifecycle", () => {
  it("starts nothing until first use", async () => {
    const pidFile = join(dir, "lazy.pid");
    const m = manager({ lazy: testServer("--pid-file", pidFile) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(pidFile)).toBe(false);
    expect(m.status()).toEqual([{ name: "lazy", state: "idle" }]);
    expect((await m.tools()).length).toBeGreaterThan(0);
    expect(existsSync(pidFile)).toBe(true);
  });

  it("close() stops the server and everything it started", async () => {
    const pidFile = join(dir, "server.pid");
    const childFile = join(dir, "grandchild.pid");
    const m = manager({ s: testServer("--pid-file", pidFile, "--grandchild-pid-file", childFile) });
    await m.connectAll();
    const status = m.status()[0];
    const serverPid = Number(readFileSync(pidFile, "utf8"));
    const childPid = Number(readFileSync(childFile, "utf8"));
    expect(status).toEqual({ name: "s", state: "connected", pid: serverPid });
    expect(isAlive(serverPid) && isAlive(childPid)).toBe(true);
    await m.close();
    expect(await waitFor(() => !isAlive(serverPid) && !isAlive(childPid))).toBe(true);
    expect(m.status()).toEqual([{ name: "s", state: "closed" }]);
    await m.close();
  });

  it("a server that dies later makes its tools fail as is_error results", async () => {
    const m = manager({ s: testServer() });
    const tools = await m.tools();
    const crash = await named(tools, "mcp__s__crash").run({}, ctx());
    expect(crash.isError).toBe(true);
    expect(await waitFor(() => m.status()[0]?.state === "failed")).toBe(true);
    const after = await named(tools, "mcp__s__add").run({ a: 1, b: 1 }, ctx());
    expect(after.isError).toBe(true);
    expect(text(after)).toMatch(/MCP server "s" is not connected: exited with code 3/);
    expect(m.diagnostics()).toContainEqual(
      expect.objectContaining({ code: "mcp-failed", message: expect.stringMatching(/"s" stopped/) }),
    );
  });

  it("close() during start-up stops a hanging server at once", async () => {
    const m = manager({ stuck: testServer("--hang") }, 60_000);
    const connecting = m.connectAll();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await m.close();
    await connecting;
    // Far sooner than the minute of the start-up timeout, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(m.status()).toEqual([{ name: "stuck", state: "closed" }]);
    expect(m.diagnostics()).toEqual([]);
  });
});

describe("list_changed notifications", () => {
  it("drop the listed prompts or skills, tell the host, and the next listing has the new ones", async () => {
    const changes: string[] = [];
    const m = createMcpManager({
      servers: { live: testServer() },
      env: process.env,
      cwd: dir,
      clientInfo,
      onListChanged: (what, server) => changes.push(`${server}:${what}`),
    });
    managers.push(m);
    expect((await m.skills()).map((s) => s.name)).toEqual(["mcp__live__greet", "mcp__live__lint-rules"]);
    expect((await m.prompts()).map((s) => s.name)).toEqual(["mcp__live__review"]);
    const tools = await m.tools();

    const greetProblems = () => m.diagnostics().filter((d) => d.path === "skill://greet/SKILL.md");
    expect(greetProblems().length).toBeGreaterThan(0);
    const before = greetProblems();

    await named(tools, "mcp__live__publish_skill").run({}, ctx());
    expect(await waitFor(() => changes.includes("live:skills"))).toBe(true);
    expect((await m.skills()).map((s) => s.name)).toContain("mcp__live__fresh");
    // Listed again: greet's problems are said once, not once per listing.
    expect(greetProblems()).toEqual(before);

    await named(tools, "mcp__live__add_prompt").run({}, ctx());
    expect(await waitFor(() => changes.includes("live:prompts"))).toBe(true);
    expect((await m.prompts()).map((s) => s.name)).toEqual(["mcp__live__review", "mcp__live__summarize"]);
    // Tools are not re-listed: a session's tools never change under it.
    expect(await m.tools()).toBe(tools);
  });
});
