import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { readUntil, type StreamEvent, sayAndRead, userMessage } from "../support/session-stream.js";
import { readTree, type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #40, through the shipped bin's `serve` (no --host-tools, no --sandbox: the default, simulated tier), the
// official SDK client and the scripted model: an uploaded skill's scripts/calc.py runs with python3 from the
// skill's mount; its inline shell, command hooks and Bash aimed at a host folder change nothing there; the host's
// name and a local HTTP server stay out of reach; /workspace outlives a restart; a busy loop ends in a timeout
// while another session answers; and serve, watched by strace, executes no binary but node.

const KEY = "sk-sandbox";
const CALC = fileURLToPath(new URL("../fixtures/sandbox-skills/calc", import.meta.url));
/** Long enough for another session's one-turn answer to come first, by far (ordered by events, not timed). */
const LOOP_TIMEOUT_MS = 30_000;

/** strace's path, or undefined when this machine has none (the execve check is then skipped). */
function findStrace(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v strace"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
const STRACE = findStrace();

let tree: TmpTree;
let marks: string;
let model: ModelServer;
let local: Server;
let localHits: string[];
let localPort: number;
let db: string;
let server: ServeProcess | undefined;
let client: Anthropic;
let agentId: string;
let environmentId: string;

/** Starts serve on the test's database, under strace when there is one (its log: `trace-<n>`). */
async function serve(n: number): Promise<ServeProcess> {
  const wrap =
    STRACE === undefined
      ? []
      : [STRACE, "-f", "--seccomp-bpf", "-e", "trace=execve", "-o", tree.path(`trace-${n}`)];
  return startServe(
    ["--db", db, "--api-key", KEY],
    { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url, HOME: tree.path("home") },
    tree.path("home"),
    wrap,
  );
}

/** The skill's files from `dir` as uploads under `name/`. */
async function skillFiles(name: string, files: Record<string, string | Buffer>) {
  return Promise.all(
    Object.entries(files).map(([path, content]) => toFile(Buffer.from(content), `${name}/${path}`)),
  );
}

/** A new session of the test's agent, in the test's environment. */
async function newSession(): Promise<string> {
  return (await client.beta.sessions.create({ agent: agentId, environment_id: environmentId })).id;
}

/** The text of every tool result a turn's events hold, joined. */
function toolResults(events: StreamEvent[]): string {
  return JSON.stringify(events.filter((e) => e.type === "agent.tool_result"));
}

beforeAll(async () => {
  tree = await tmpTree({ "marks/.keep": "", "home/.keep": "" });
  marks = tree.path("marks");
  localHits = [];
  local = createServer((request, response) => {
    localHits.push(request.url ?? "");
    response.end("LOCAL-SERVER-ANSWERED");
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", () => resolve()));
  const address = local.address();
  localPort = typeof address === "object" && address !== null ? address.port : 0;
  const lookAround =
    `hostname; curl -s -m 10 http://127.0.0.1:${localPort}/curl || echo CURL-REFUSED; ` +
    `python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:${localPort}/python')" ` +
    "|| echo PYTHON-REFUSED; echo LOOKED";
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Bash",
          { command: "python3 /mnt/skills/calc/scripts/calc.py 6 7 --out /workspace/result.json" },
          { match: { lastUserTextIncludes: "run calc" } },
        ),
        textTurn("Calculated.", { hasToolResultFor: "Bash", toolResultIncludes: "product" }),
        toolTurn("Skill", { skill: "inline-host" }, { match: { lastUserTextIncludes: "go inline" } }),
        textTurn("Inline ran.", { lastUserTextIncludes: "INLINE-RAN" }),
        toolTurn("Skill", { skill: "hooked-host" }, { match: { lastUserTextIncludes: "go hooked" } }),
        // Each attempt on the host's folder in a call of its own: a refused redirect ends the whole command.
        toolTurn(
          "Bash",
          { command: `touch ${marks}/touch; echo TOUCH-TRIED` },
          { match: { lastUserTextIncludes: "HOOKED-BODY" } },
        ),
        toolTurn(
          "Bash",
          { command: `echo redirected > ${marks}/redirect` },
          { match: { hasToolResultFor: "Bash", toolResultIncludes: "TOUCH-TRIED" } },
        ),
        toolTurn(
          "Bash",
          { command: `python3 -c "open('${marks}/python', 'w').write('opened')"; echo PYTHON-TRIED` },
          { match: { hasToolResultFor: "Bash", toolResultIncludes: `${marks}/redirect` } },
        ),
        textTurn("Host untouched.", { hasToolResultFor: "Bash", toolResultIncludes: "PYTHON-TRIED" }),
        toolTurn("Bash", { command: lookAround }, { match: { lastUserTextIncludes: "look around" } }),
        textTurn("Looked.", { hasToolResultFor: "Bash", toolResultIncludes: "LOOKED" }),
        toolTurn(
          "Bash",
          { command: "while :; do :; done", timeout: LOOP_TIMEOUT_MS },
          { match: { lastUserTextIncludes: "spin bash" } },
        ),
        toolTurn(
          "Bash",
          { command: `python3 -c "while True: pass"`, timeout: LOOP_TIMEOUT_MS },
          { match: { lastUserTextIncludes: "spin python" } },
        ),
        textTurn("Python stopped.", { hasToolResultFor: "Bash", toolResultIncludes: "timed out" }),
        textTurn("Quick answer.", { lastUserTextIncludes: "quick" }),
        toolTurn(
          "Bash",
          { command: "cat /workspace/result.json" },
          { match: { lastUserTextIncludes: "read back" } },
        ),
        textTurn("Read back.", { hasToolResultFor: "Bash", toolResultIncludes: "product" }),
        // Last: the bash loop's result, whichever limit ended it, and nothing earlier.
        textTurn("Loop ended.", { hasToolResultFor: "Bash" }),
      ],
    },
  });
  db = await freshPgliteDir(tree.path("data"));
  server = await serve(1);
  client = sdkClient(server.url, KEY);
  const skills = {
    calc: readTree(CALC),
    "inline-host": {
      "SKILL.md":
        "---\nname: inline-host\ndescription: Runs a command inline\n---\n" +
        `INLINE-BODY !\`touch ${marks}/inline; echo "INLINE-RAN on $(hostname) in $(pwd)"\`\n`,
    },
    "hooked-host": {
      "SKILL.md":
        "---\nname: hooked-host\ndescription: Registers a hook\nhooks:\n  PreToolUse:\n    - matcher: Bash\n" +
        `      hooks:\n        - type: command\n          command: touch ${marks}/hook\n---\nHOOKED-BODY\n`,
    },
  };
  const ids: string[] = [];
  for (const [name, files] of Object.entries(skills)) {
    const created = await client.beta.skills.create({ files: await skillFiles(name, files) });
    // The default tier runs scripts, inline shell and hooks: nothing to warn about.
    expect((created as { warnings?: unknown[] }).warnings ?? []).toEqual([]);
    ids.push(created.id);
  }
  const environment = await client.beta.environments.create({
    name: "open",
    config: { type: "cloud", networking: { type: "unrestricted" } },
  });
  environmentId = environment.id;
  const agent = await client.beta.agents.create({
    name: "sandboxed",
    model: "claude-sonnet-5-5",
    skills: ids.map((id) => ({ type: "custom" as const, skill_id: id })),
    tools: [{ type: "agent_toolset_20260401" }],
  });
  agentId = agent.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await model?.close();
  await new Promise((resolve) => local?.close(resolve));
  await tree?.cleanup();
});

describe("a served session without --host-tools runs code in the simulated sandbox", () => {
  let sessionId: string;

  it("says so at start-up", () => {
    expect(server?.stdout()).toContain("sessions run code in the simulated sandbox");
  });

  it("runs an uploaded skill's scripts/calc.py with python3 from the skill's mount", async () => {
    sessionId = await newSession();
    const events = await sayAndRead(client, sessionId, "run calc");
    expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
    const result = events.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ is_error: false });
    expect(JSON.stringify(result)).toContain('\\"product\\": 42.0');
  }, 120_000);

  it("runs the skill's inline shell and hooks, and Bash's touch, redirect and open(), in it: the host is untouched", async () => {
    const before = model.requests.length;
    const inline = await sayAndRead(client, sessionId, "go inline");
    expect(inline.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    const seen = JSON.stringify(model.requests.slice(before).map((r) => r.body));
    expect(seen).toContain("INLINE-RAN on ");
    expect(seen).not.toContain(`INLINE-RAN on ${hostname()} `);

    const hooked = await sayAndRead(client, sessionId, "go hooked");
    expect(hooked.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    const tried = toolResults(hooked);
    for (const word of ["TOUCH-TRIED", `${marks}/redirect`, "PYTHON-TRIED"]) expect(tried).toContain(word);
    for (const marker of ["inline", "hook", "touch", "redirect", "python"]) {
      expect(existsSync(`${marks}/${marker}`), marker).toBe(false);
    }
    expect(readdirSync(marks)).toEqual([".keep"]);
  }, 120_000);

  it("sees neither the host's name nor a local HTTP server, even with unrestricted networking", async () => {
    const events = await sayAndRead(client, sessionId, "look around");
    const results = toolResults(events);
    expect(results).toContain("LOOKED");
    expect(results).not.toContain(hostname());
    expect(results).not.toContain("LOCAL-SERVER-ANSWERED");
    expect(localHits).toEqual([]);
  }, 120_000);

  it("ends `while :; do :; done` with a timeout result", async () => {
    const events = await sayAndRead(client, await newSession(), "spin bash");
    expect(events.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    const result = events.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ is_error: true });
    expect(JSON.stringify(result)).toMatch(/timed out/);
  }, 180_000);

  it("ends a busy python3 loop with a timeout result, after another session's one-turn answer", async () => {
    const spinning = await newSession();
    const quick = await newSession();
    const order: string[] = [];
    const stream = await client.beta.sessions.events.stream(spinning);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(spinning, userMessage("spin python"));
    // The loop is running once its tool_use is out.
    const started = await readUntil(events, (e) => e.type === "agent.tool_use");
    expect(started.at(-1)).toMatchObject({ name: "Bash" });
    order.push("loop started");
    const answered = await sayAndRead(client, quick, "quick");
    expect(answered.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    expect(JSON.stringify(answered)).toContain("Quick answer.");
    order.push("other session answered");
    const ended = await readUntil(events, (e) => e.type === "agent.tool_result");
    order.push("loop ended");
    stream.controller.abort();
    expect(ended.at(-1)).toMatchObject({ is_error: true });
    expect(JSON.stringify(ended.at(-1))).toContain("timed out");
    expect(order).toEqual(["loop started", "other session answered", "loop ended"]);
  }, 180_000);

  it("reads back a file written to /workspace after a restart", async () => {
    await server?.stop();
    server = await serve(2);
    client = sdkClient(server.url, KEY);
    const events = await sayAndRead(client, sessionId, "read back");
    const result = events.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ is_error: false });
    expect(JSON.stringify(result)).toContain('\\"product\\": 42.0');
  }, 120_000);

  it.skipIf(STRACE === undefined)("executes no binary but node (strace -f -e trace=execve)", async () => {
    await server?.stop();
    server = undefined;
    const node = realpathSync(process.execPath);
    for (const n of [1, 2]) {
      const log = readFileSync(tree.path(`trace-${n}`), "utf8");
      const executed = [...log.matchAll(/execve\("([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(executed.length).toBeGreaterThan(0);
      expect(executed.map((path) => (existsSync(path) ? realpathSync(path) : path))).toEqual(
        executed.map(() => node),
      );
    }
  });
});

if (STRACE === undefined) console.log("served-sandbox: strace is absent, the execve check is skipped");
