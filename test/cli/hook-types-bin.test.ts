/**
 * Hooks of type http and prompt, and async command hooks, through the shipped bin against the scripted model
 * server: http hooks POST to a real local HTTP server (node:http on port 0).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { AGENT_HOOK_SYSTEM, PROMPT_HOOK_SYSTEM } from "../../src/hooks/run-prompt-hook.js";
import { bodyOf, resultText, toolResultsOf } from "../support/harness.js";
import { type HookServer, json, startHookServer } from "../support/hook-server.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN, cli } from "./run-cli.js";

/** The project's stdio MCP test server (its `echo` tool answers its `text`). */
const MCP_SERVER = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));

let tree: TmpTree | undefined;
let model: TestModel | undefined;
let hookServer: HookServer | undefined;
afterEach(async () => {
  await model?.close();
  await hookServer?.close();
  await tree?.cleanup();
  tree = model = hookServer = undefined;
});

const touchSaid = toolTurn(
  "Bash",
  { command: "echo hi > said.txt", description: "say hi" },
  { id: "toolu_b" },
);
const done = textTurn("done", { hasToolResultFor: "Bash" });

/** A project (a git repo) whose local settings hold `hooks`, and the scripted model playing `turns`. */
async function setup(hooks: unknown, turns: ScriptTurnInput[]) {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/settings.local.json": JSON.stringify({ hooks }),
  });
  model = await startTestModel(turns);
  return { t: tree, m: model };
}

const modelEnv = (m: TestModel, extra: Record<string, string> = {}) => ({
  ANTHROPIC_BASE_URL: m.server.url,
  ANTHROPIC_API_KEY: TEST_API_KEY,
  ...extra,
});

/** The warnings of a stream-json run. */
function warnings(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; event?: { type: string; message: string } })
    .flatMap((r) => (r.type === "event" && r.event?.type === "warning" ? [r.event.message] : []));
}

/** The text of the only tool result in request `index`. */
function onlyResult(m: TestModel, index: number): string {
  const results = toolResultsOf(m.server.requests[index]);
  expect(results).toHaveLength(1);
  return resultText(results[0]);
}

const httpHook = (url: string, extra: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url, ...extra }] }],
});

describe("type: http hooks", () => {
  it("POST the event JSON with headers; permissionDecision allow lets a call run that headless would refuse", async () => {
    hookServer = await startHookServer((_req, res) =>
      json(res, { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }),
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own `${VAR}` syntax
    const headers = { Authorization: "Bearer ${HOOK_TOKEN}", "X-Other": "[$SECRET_KEY]" };
    const { t, m } = await setup(httpHook(hookServer.url, { headers, allowedEnvVars: ["HOOK_TOKEN"] }), [
      touchSaid,
      done,
    ]);
    const run = await cli(
      t,
      ["-p", "go"],
      "home/repo",
      modelEnv(m, { HOOK_TOKEN: "s3cret", SECRET_KEY: "k" }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/said.txt"))).toBe(true);
    expect(hookServer.requests).toHaveLength(1);
    const [request] = hookServer.requests;
    expect(request?.body).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi > said.txt" },
      tool_use_id: "toolu_b",
      cwd: t.path("home/repo"),
    });
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBe("Bearer s3cret");
    // A variable the hook does not list in allowedEnvVars is sent empty, as Claude Code does.
    expect(request?.headers["x-other"]).toBe("[]");
  });

  it("deny: the call does not run and the reason reaches the model", async () => {
    hookServer = await startHookServer((_req, res) =>
      json(res, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no writes on Fridays",
        },
      }),
    );
    const { t, m } = await setup(httpHook(hookServer.url), [touchSaid, done]);
    const run = await cli(t, ["-p", "go", "--allowedTools", "Bash"], "home/repo", modelEnv(m));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/said.txt"))).toBe(false);
    expect(onlyResult(m, 1)).toContain("no writes on Fridays");
  });

  it("an unreachable URL and a non-2xx answer are warnings, and the tool still runs", async () => {
    const gone = await startHookServer(() => {});
    const unreachable = gone.url;
    await gone.close();
    hookServer = await startHookServer((_req, res) => {
      res.writeHead(503);
      res.end("down for maintenance");
    });
    const hooks = {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "http", url: unreachable }] },
        { matcher: "Bash", hooks: [{ type: "http", url: hookServer.url }] },
      ],
    };
    const { t, m } = await setup(hooks, [touchSaid, done]);
    const run = await cli(
      t,
      ["-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json"],
      "home/repo",
      modelEnv(m),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/said.txt"))).toBe(true);
    const said = warnings(run.stdout);
    expect(said.some((w) => w.includes(`request to ${unreachable} failed`))).toBe(true);
    expect(said.some((w) => w.includes("answered HTTP 503: down for maintenance"))).toBe(true);
  });

  it("a hook that does not answer within its timeout is a warning, and the tool still runs", async () => {
    hookServer = await startHookServer(() => {});
    const { t, m } = await setup(httpHook(hookServer.url, { timeout: 0.5 }), [touchSaid, done]);
    const run = await cli(
      t,
      ["-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json"],
      "home/repo",
      modelEnv(m),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(hookServer.requests).toHaveLength(1);
    expect(existsSync(t.path("home/repo/said.txt"))).toBe(true);
    expect(warnings(run.stdout).some((w) => w.includes("timed out after 0.5 s"))).toBe(true);
  });
});

describe("type: prompt hooks", () => {
  it("the session's model judges the event; ok false blocks the call with its reason", async () => {
    const judge = textTurn('{"ok": false, "reason": "rm is not allowed in this repo"}', {
      systemIncludes: "You judge one event",
    });
    const hooks = {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "prompt", prompt: "Is this command safe? $ARGUMENTS" }] },
      ],
    };
    const { t, m } = await setup(hooks, [
      judge,
      toolTurn("Bash", { command: "rm -f keep.txt", description: "remove" }, { id: "toolu_rm" }),
      done,
    ]);
    await writeFile(t.path("home/repo/keep.txt"), "keep");
    const run = await cli(t, ["-p", "go", "--allowedTools", "Bash"], "home/repo", modelEnv(m));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/keep.txt"))).toBe(true);
    const request = bodyOf(m.server.requests[1]);
    expect(JSON.stringify(request.system)).toContain(PROMPT_HOOK_SYSTEM.slice(0, 40));
    const asked = JSON.stringify(request.messages);
    expect(asked).toContain("Is this command safe? {");
    expect(asked).toContain('\\"tool_name\\":\\"Bash\\"');
    expect(request.tools ?? []).toEqual([]);
    expect(onlyResult(m, 2)).toContain("rm is not allowed in this repo");
  });
});

describe("type: agent hooks (issue #44)", () => {
  it("a sub-agent with read-only tools judges the event; ok false blocks the call with its reason", async () => {
    const verifier = { systemIncludes: "You verify one event" };
    const hooks = {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "agent", prompt: "Does POLICY.md allow this? $ARGUMENTS" }] },
      ],
    };
    const { t, m } = await setup(hooks, [
      toolTurn("Read", { file_path: "POLICY.md" }, { id: "toolu_policy", match: verifier }),
      textTurn('{"ok": false, "reason": "POLICY.md forbids rm"}', {
        ...verifier,
        hasToolResultFor: "Read",
      }),
      toolTurn(
        "Bash",
        { command: "rm -f keep.txt", description: "remove" },
        { id: "toolu_rm", match: { agentId: null } },
      ),
      textTurn("done", { agentId: null, hasToolResultFor: "Bash" }),
    ]);
    await writeFile(t.path("home/repo/keep.txt"), "keep");
    await writeFile(t.path("home/repo/POLICY.md"), "Never remove files.\n");
    const run = await cli(t, ["-p", "go", "--allowedTools", "Bash"], "home/repo", modelEnv(m));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/keep.txt"))).toBe(true);
    const [, first, second] = m.server.requests;
    // The sub-agent's requests: its own agent id, the verifier's instructions, only read-only tools.
    expect(first?.headers[AGENT_ID_HEADER]).toMatch(/^hook-/);
    expect(second?.headers[AGENT_ID_HEADER]).toBe(first?.headers[AGENT_ID_HEADER]);
    const asked = bodyOf(first);
    expect(JSON.stringify(asked.system)).toContain(AGENT_HOOK_SYSTEM.slice(0, 40));
    expect(JSON.stringify(asked.messages)).toContain("Does POLICY.md allow this? {");
    expect((asked.tools ?? []).map((tool) => tool.name)).toEqual(["Read", "Grep", "Glob", "LS"]);
    expect(resultText(toolResultsOf(second)[0])).toContain("Never remove files.");
    expect(onlyResult(m, 3)).toContain("POLICY.md forbids rm");
  });

  it("its sub-agent reads only what the session reads without asking: outside the project it is refused", async () => {
    const verifier = { systemIncludes: "You verify one event" };
    const hooks = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "agent", prompt: "Check this: $ARGUMENTS" }] }],
    };
    const { t, m } = await setup(hooks, [
      toolTurn("Read", { file_path: "../secret.txt" }, { id: "toolu_secret", match: verifier }),
      textTurn('{"ok": true}', { ...verifier, hasToolResultFor: "Read" }),
      toolTurn(
        "Bash",
        { command: "touch said.txt", description: "touch" },
        { id: "toolu_touch", match: { agentId: null } },
      ),
      textTurn("done", { agentId: null, hasToolResultFor: "Bash" }),
    ]);
    await writeFile(t.path("home/secret.txt"), "the user's secret\n");
    const run = await cli(t, ["-p", "go", "--allowedTools", "Bash"], "home/repo", modelEnv(m));
    expect(run.code, run.stderr).toBe(0);
    const refused = resultText(toolResultsOf(m.server.requests[2])[0]);
    expect(refused).toContain("An agent hook reads without asking:");
    expect(refused).not.toContain("the user's secret");
    expect(existsSync(t.path("home/repo/said.txt"))).toBe(true);
  });
});

describe("type: mcp_tool hooks (issue #44)", () => {
  it("call a tool of a configured MCP server with the event filled in; its decision blocks the call", async () => {
    const hooks = {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "mcp_tool",
              server: "guard",
              tool: "echo",
              // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own `${path}` syntax
              input: { text: '{"decision": "block", "reason": "guard refuses ${tool_input.command}"}' },
            },
          ],
        },
      ],
    };
    const { t, m } = await setup(hooks, [
      toolTurn("Bash", { command: "rm -f keep.txt", description: "remove" }, { id: "toolu_rm" }),
      textTurn("done", { hasToolResultFor: "Bash" }),
    ]);
    await writeFile(t.path("home/repo/keep.txt"), "keep");
    const config = { mcpServers: { guard: { command: process.execPath, args: [MCP_SERVER] } } };
    await writeFile(t.path("home/repo/mcp.json"), JSON.stringify(config));
    const run = await cli(
      t,
      ["-p", "go", "--allowedTools", "Bash", "--mcp-config", "mcp.json"],
      "home/repo",
      modelEnv(m),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(t.path("home/repo/keep.txt"))).toBe(true);
    expect(m.server.requests).toHaveLength(2);
    expect(onlyResult(m, 1)).toContain("guard refuses rm -f keep.txt");
  });
});

describe("async: true command hooks", () => {
  it("the turn does not wait for them; the session waits for them before it exits", async () => {
    // The hook waits for a file the test writes only after it has seen the turn's result.
    const hook =
      'touch started; while [ ! -f release ]; do sleep 0.05; done; cat > "$CLAUDE_PROJECT_DIR/finished.json"';
    const hooks = { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook, async: true }] }] };
    const { t, m } = await setup(hooks, [textTurn("Hello.")]);
    assertBuilt();
    const child = execa(process.execPath, [BIN, "-p", "hi", "--output-format", "stream-json"], {
      cwd: t.path("home/repo"),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: t.path("home"), ...modelEnv(m) },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"type":"result"')) resolve();
      });
      child.on("exit", () => reject(new Error(`exited before the result:\n${out}`)));
    });
    expect(out).toContain("Hello.");
    expect(existsSync(t.path("home/repo/finished.json"))).toBe(false);
    await writeFile(t.path("home/repo/release"), "");
    const ended = await child;
    expect(ended.exitCode, String(ended.stderr)).toBe(0);
    const payload = JSON.parse(await readFile(t.path("home/repo/finished.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "hi" });
  });
});
