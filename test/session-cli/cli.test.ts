import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { execa, type ResultPromise } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { startModelServer } from "../../src/dev/model-server.js";
import { bodyOf, firstMessageTexts, resultText, toolResultsOf, transcript } from "../support/harness.js";
import {
  httpFaultTurn,
  startTestModel,
  TEST_API_KEY,
  type TestModel,
  textTurn,
  toolTurn,
} from "../support/model-server.js";
import { isAlive, waitForPid, waitUntil } from "../support/processes.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The shipped bin (package.json "bin"); CI runs `npm run build` before the tests. */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const SPAWN_TIMEOUT_MS = 20_000;

let tree: TmpTree;
beforeAll(async () => {
  expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\` before the tests`).toBe(true);
  tree = await tmpTree({
    "home/.keep": "",
    "repo/.git": { dir: true },
    "repo/notes.txt": "alpha beta gamma\n",
    "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nGREET-BODY for $ARGUMENTS\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function setup(turns: ScriptTurnInput[]): Promise<TestModel> {
  model = await startTestModel(turns);
  return model;
}

/** The environment the bin gets: nothing inherited but PATH, plus what the test passes. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
    ...extra,
  };
}

function modelEnv(m: TestModel): Record<string, string> {
  return env({ ANTHROPIC_BASE_URL: m.server.url, ANTHROPIC_API_KEY: TEST_API_KEY });
}

/** Runs `skillwright -p …` against the temp tree. */
function skillwright(args: string[], environment: Record<string, string>) {
  return execa(process.execPath, [BIN, "--cwd", tree.path("repo"), "--home", tree.path("home"), ...args], {
    env: environment,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: SPAWN_TIMEOUT_MS,
  });
}

interface ResultLine {
  type: string;
  subtype: string;
  is_error: boolean;
  num_turns: number;
  result: string;
  session_id: string;
  usage: Record<string, number>;
  duration_ms: number;
}

function parseJson<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON:\n${text}`);
  }
}

describe("skillwright -p (headless)", () => {
  it("prints the final text", async () => {
    const m = await setup([textTurn("Hello from the model.", { lastUserTextIncludes: "say hello" })]);
    const run = await skillwright(["-p", "say hello"], modelEnv(m));

    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Hello from the model.\n");
  });

  it("--output-format json gives one result object", async () => {
    const m = await setup([
      toolTurn("Read", { path: "notes.txt" }),
      textTurn("Read it.", { hasToolResultFor: "Read" }),
    ]);
    const run = await skillwright(["-p", "read", "--output-format", "json"], modelEnv(m));

    expect(run.exitCode).toBe(0);
    const line = parseJson<ResultLine>(run.stdout);
    expect(line).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      num_turns: 2,
      result: "Read it.",
    });
    expect(line.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Object.keys(line.usage).sort()).toEqual([
      "cache_creation_input_tokens",
      "cache_read_input_tokens",
      "input_tokens",
      "output_tokens",
    ]);
    expect(line.usage.input_tokens).toBeGreaterThan(0);
    // The transcript is under --home.
    const entries = await transcript(tree, line.session_id);
    expect(entries.filter((e) => e.type === "message")).toHaveLength(4);
  });

  it("--output-format stream-json writes one JSON object per line, system/init first and result last", async () => {
    const m = await setup([
      toolTurn("Read", { path: "notes.txt" }),
      textTurn("Streamed.", { hasToolResultFor: "Read" }),
    ]);
    const run = await skillwright(["-p", "stream it", "--output-format", "stream-json"], modelEnv(m));

    expect(run.exitCode).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((l) => parseJson<{ type: string; subtype?: string; session_id?: string; tools?: string[] }>(l));
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(lines[0]?.tools).toEqual(expect.arrayContaining(["Read", "Bash", "Skill"]));
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Streamed." });
    // Like Claude Code, the prompt itself is not echoed: the messages the loop adds follow.
    expect(lines.map((l) => l.type).slice(1, -1)).toEqual(["assistant", "user", "assistant"]);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
  });

  it("denies Bash headless unless --allowedTools allows it", async () => {
    const turns = (): ScriptTurnInput[] => [
      // Writes a file: `echo` alone only reads and needs no grant (SPEC §14.8).
      toolTurn("Bash", { command: "echo via-bash | tee out.txt" }, { id: "toolu_bash" }),
      textTurn("done", { hasToolResultFor: "Bash" }),
    ];
    const denied = await setup(turns());
    expect((await skillwright(["-p", "run it"], modelEnv(denied))).exitCode).toBe(0);
    const [refusal] = toolResultsOf(denied.server.requests[1]);
    expect(refusal?.is_error).toBe(true);
    // The part that writes is named with its path (issue #44).
    expect(resultText(refusal)).toMatch(/^tee in '.*\/out\.txt' needs approval\. /);
    await denied.close();

    const allowed = await setup(turns());
    expect(
      (await skillwright(["-p", "run it", "--allowedTools", "Bash(echo:*),Bash(tee:*)"], modelEnv(allowed)))
        .exitCode,
    ).toBe(0);
    const [ran] = toolResultsOf(allowed.server.requests[1]);
    expect(ran?.is_error).toBeUndefined();
    expect(resultText(ran)).toContain("via-bash");
  });

  it("--disallowedTools Bash takes Bash out of the tools array", async () => {
    const m = await setup([textTurn("ok")]);
    const run = await skillwright(["-p", "hi", "--disallowedTools", "Bash"], modelEnv(m));

    expect(run.exitCode).toBe(0);
    const tools = bodyOf(m.server.requests[0]).tools?.map((t) => t.name) ?? [];
    expect(tools).not.toContain("Bash");
    expect(tools).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Skill"]));
  });

  it("--max-turns stops the loop: exit 1, subtype error_max_turns", async () => {
    const m = await setup([{ ...toolTurn("Read", { path: "notes.txt" }), repeat: true }]);
    const run = await skillwright(["-p", "loop", "--max-turns", "2", "--output-format", "json"], modelEnv(m));

    expect(run.exitCode).toBe(1);
    expect(parseJson<ResultLine>(run.stdout)).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 2,
    });
    expect(m.server.requests).toHaveLength(2);
  });

  it("a prompt starting with /name takes the slash path: metadata and expansion, no Skill tool call", async () => {
    const m = await setup([textTurn("Greeted.")]);
    const run = await skillwright(["-p", "/greet world"], modelEnv(m));

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Greeted.\n");
    const messages = bodyOf(m.server.requests[0]).messages;
    expect(messages).toHaveLength(1);
    const texts = firstMessageTexts(m.server.requests[0]);
    expect(texts).toContain(
      "<command-message>greet</command-message>\n<command-name>/greet</command-name>\n<command-args>world</command-args>\n",
    );
    expect(texts.at(-1)).toBe(
      `Base directory for this skill: ${tree.path("repo/.claude/skills/greet")}\n\nGREET-BODY for world\n`,
    );
  });

  it("--resume continues the stored session", async () => {
    const m = await setup([
      textTurn("Noted BETA-7.", { lastUserTextIncludes: "remember BETA-7" }),
      textTurn("BETA-7.", { lastUserTextIncludes: "which one" }),
    ]);
    const first = await skillwright(["-p", "remember BETA-7", "--output-format", "json"], modelEnv(m));
    const id = parseJson<ResultLine>(first.stdout).session_id;
    const second = await skillwright(
      ["-p", "which one?", "--resume", id, "--output-format", "json"],
      modelEnv(m),
    );

    expect(parseJson<ResultLine>(second.stdout)).toMatchObject({ result: "BETA-7.", session_id: id });
    const sent = JSON.stringify(bodyOf(m.server.requests[1]).messages);
    expect(sent).toContain("remember BETA-7");
    expect(sent).toContain("Noted BETA-7.");
  });

  it("--resume of an unknown id: where the sessions are, exit 1, nothing sent", async () => {
    const m = await setup([]);
    const run = await skillwright(["-p", "hi", "--resume", "0f0e0d0c-no-such-session"], modelEnv(m));

    expect(run.stderr).toBe(
      `No session 0f0e0d0c-no-such-session. Sessions: ${tree.path("home/.skillwright/sessions")}\n`,
    );
    expect(run.stdout).toBe("");
    expect(run.exitCode).toBe(1);
    expect(m.server.requests).toHaveLength(0);
  });

  it("a stream cut mid-message: exit 1, the error on stderr, finished messages on disk", async () => {
    const m = await setup([
      toolTurn("Read", { path: "notes.txt" }),
      {
        match: { hasToolResultFor: "Read" },
        response: { content: [{ type: "text", text: "An answer that never finishes streaming to the end" }] },
        fault: { kind: "cut", afterEvents: 3 },
      },
    ]);
    const run = await skillwright(["-p", "summarise the notes"], modelEnv(m));

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/cut off/);
    const id = /--resume ([0-9a-f-]{36})/.exec(run.stderr)?.[1] ?? "";
    expect(id).not.toBe("");
    const messages = (await transcript(tree, id)).flatMap((e) => (e.type === "message" ? [e.message] : []));
    expect(messages.map((msg) => msg.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[0])).toContain("summarise the notes");
    expect(JSON.stringify(messages[2])).toContain("alpha beta gamma");
  });

  it("a 529 is retried and the run succeeds", async () => {
    const m = await setup([httpFaultTurn(529), textTurn("fine now")]);
    const run = await skillwright(["-p", "hi"], modelEnv(m));

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("fine now\n");
    expect(m.server.requests).toHaveLength(2);
  });

  it("SIGTERM aborts the turn: the Bash child is killed, the error names the session, exit 1", async () => {
    const pidFile = tree.path("headless-sleep.pid");
    const m = await setup([
      toolTurn("Bash", { command: `echo $$ > '${pidFile}'; exec sleep 30` }),
      textTurn("never", { hasToolResultFor: "Bash" }),
    ]);
    const child = skillwright(["-p", "sleep", "--allowedTools", "Bash"], modelEnv(m));
    const pid = await waitForPid(pidFile);
    expect(isAlive(pid)).toBe(true);
    child.kill("SIGTERM");
    const run = await child;

    expect(run.signal).toBeUndefined();
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/aborted.*--resume [0-9a-f-]{36}/);
    await waitUntil(async () => !isAlive(pid), 5_000);
    expect(isAlive(pid)).toBe(false);
    expect(m.server.requests).toHaveLength(1);
  });

  it("without an API key or a base URL: a clear message and exit 1", async () => {
    const run = await skillwright(["-p", "hi"], env());

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("no API key is set");
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
  });

  it("with a base URL alone: a gateway of one's own answers, and no credentials are sent", async () => {
    const server = await startModelServer({ script: { turns: [textTurn("from the gateway")] } });
    try {
      const run = await skillwright(["-p", "hi"], env({ ANTHROPIC_BASE_URL: server.url }));
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain("from the gateway");
      expect(run.exitCode).toBe(0);
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
      expect(server.requests[0]?.headers["x-api-key"]).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("--debug-file gets a JSON line for discovery and for each event", async () => {
    const m = await setup([textTurn("debugged")]);
    const file = tree.path("debug.jsonl");
    const run = await skillwright(["-p", "hi", "--debug-file", file], modelEnv(m));

    expect(run.exitCode).toBe(0);
    const records = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => parseJson<{ kind: string; at: string; skills?: string[]; event?: { type: string } }>(l));
    expect(records[0]).toMatchObject({ kind: "discovery" });
    expect(records[0]?.skills).toContain("greet");
    const types = records.filter((r) => r.kind === "event").map((r) => r.event?.type);
    expect(types).toEqual(expect.arrayContaining(["request_start", "text_delta", "turn_end", "done"]));
    expect(types.at(-1)).toBe("done");
  });
});

describe("skillwright dev model-server", () => {
  it("serves the script on --port until SIGTERM", async () => {
    const script = tree.path("turns.json");
    await writeFile(script, JSON.stringify({ turns: [textTurn("from the dev server")] }));
    const port = await freePort();
    const child = execa(
      process.execPath,
      [BIN, "dev", "model-server", "--script", script, "--port", String(port)],
      {
        env: env(),
        extendEnv: false,
        reject: false,
        timeout: SPAWN_TIMEOUT_MS,
      },
    );
    try {
      const url = await listeningUrl(child);
      expect(url).toBe(`http://127.0.0.1:${port}`);
      const client = createModelClient({ apiKey: "any", baseURL: url, maxRetries: 0 });
      const message = await client.stream(
        {
          model: "sonnet",
          system: "",
          messages: [{ role: "user", content: "hi" }],
          tools: [],
          maxTokens: 64,
        },
        { signal: new AbortController().signal },
      );
      expect(message.content).toEqual([{ type: "text", text: "from the dev server" }]);
    } finally {
      child.kill("SIGTERM");
    }
    const done = await child;
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toContain("served 1 request(s)");
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the URL the dev server prints once it listens. */
function listeningUrl(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`dev model-server exited (${code}) before listening:\n${out}`)),
    );
  });
}
