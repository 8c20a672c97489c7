/**
 * The hook events InstructionsLoaded, PermissionDenied, StopFailure and PostCompact firing through the shipped
 * bin against the scripted model server, with command hooks that save their stdin.
 */
import { readFile } from "node:fs/promises";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { SUMMARY_SYSTEM_PROMPT } from "../../src/session/compaction/summary-request.js";
import {
  httpFaultTurn,
  startTestModel,
  TEST_API_KEY,
  type TestModel,
  textTurn,
  toolTurn,
} from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN, cli } from "./run-cli.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  tree = model = undefined;
});

/** A settings entry whose hook saves its stdin to `{event}.json` in the project. */
const recording = (event: string, matcher?: string) => ({
  [event]: [
    {
      ...(matcher === undefined ? {} : { matcher }),
      hooks: [{ type: "command", command: `cat > "$CLAUDE_PROJECT_DIR/${event}.json"` }],
    },
  ],
});

async function setup(hooks: object, turns: ScriptTurnInput[], files: Record<string, string> = {}) {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/settings.local.json": JSON.stringify({ hooks }),
    ...files,
  });
  model = await startTestModel(turns);
  return { t: tree, m: model };
}

const env = (m: TestModel) => ({ ANTHROPIC_BASE_URL: m.server.url, ANTHROPIC_API_KEY: TEST_API_KEY });

async function recorded(t: TmpTree, event: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(t.path(`home/repo/${event}.json`), "utf8")) as Record<string, unknown>;
}

/** One model turn that reads two files at once (a batch of two calls). */
const twoReads: ScriptTurnInput = {
  response: {
    content: [
      { type: "tool_use", id: "toolu_a", name: "Read", input: { file_path: "a.txt" } },
      { type: "tool_use", id: "toolu_b", name: "Read", input: { file_path: "b.txt" } },
    ],
  },
};

describe("MessageDisplay (issue #44)", () => {
  it("gets each completed message; -p shows its displayContent, the conversation keeps the original", async () => {
    // Records its stdin and answers the delta without the markdown bold markers.
    const script =
      'import json, sys; d = json.load(sys.stdin); open("MessageDisplay.json", "w").write(json.dumps(d)); ' +
      'print(json.dumps({"hookSpecificOutput": {"hookEventName": "MessageDisplay", ' +
      '"displayContent": d["delta"].replace("**", "")}}))';
    const hooks = { MessageDisplay: [{ hooks: [{ type: "command", command: `python3 -c '${script}'` }] }] };
    const { t, m } = await setup(hooks, [textTurn("**Hello** world"), textTurn("**Hello** world")]);
    const run = await cli(t, ["-p", "hi"], "home/repo", env(m));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Hello world\n");
    const input = await recorded(t, "MessageDisplay");
    expect(input).toMatchObject({
      hook_event_name: "MessageDisplay",
      index: 0,
      final: true,
      delta: "**Hello** world",
    });
    expect(input.turn_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(input.message_id).toMatch(/^[0-9a-f-]{36}$/);
    // The conversation keeps what the model said; the replacement is an event for the host to show.
    const streamed = await cli(t, ["-p", "hi", "--output-format", "stream-json"], "home/repo", env(m));
    expect(streamed.code, streamed.stderr).toBe(0);
    const lines = streamed.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map(
        (l) => JSON.parse(l) as { type: string; message?: { content: { text?: string }[] }; event?: object },
      );
    expect(lines.find((l) => l.type === "assistant")?.message?.content[0]?.text).toBe("**Hello** world");
    expect(lines.filter((l) => l.type === "event").map((l) => l.event)).toContainEqual({
      type: "message_display",
      text: "Hello world",
    });
  });
});

describe("PostToolBatch (issue #44)", () => {
  const batchHook = (answer: object) => ({
    PostToolBatch: [
      {
        hooks: [
          {
            type: "command",
            command: `cat > "$CLAUDE_PROJECT_DIR/PostToolBatch.json"; echo '${JSON.stringify(answer)}'`,
          },
        ],
      },
    ],
  });
  const files = { "home/repo/a.txt": "alpha\n", "home/repo/b.txt": "beta\n" };

  it("fires once with every call of the batch; its additionalContext reaches the next request", async () => {
    const { t, m } = await setup(
      batchHook({
        hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "Batch checked." },
      }),
      [twoReads, textTurn("Read both.", { hasToolResultFor: "Read" })],
      files,
    );
    const run = await cli(t, ["-p", "read a and b"], "home/repo", env(m));
    expect(run.code, run.stderr).toBe(0);
    expect(await recorded(t, "PostToolBatch")).toMatchObject({
      hook_event_name: "PostToolBatch",
      tool_calls: [
        {
          tool_name: "Read",
          tool_input: { file_path: "a.txt" },
          tool_use_id: "toolu_a",
          // The tool_result content the model gets for the call, as it is sent.
          tool_response: [{ type: "text", text: "1\talpha" }],
        },
        {
          tool_name: "Read",
          tool_input: { file_path: "b.txt" },
          tool_use_id: "toolu_b",
          tool_response: [{ type: "text", text: "1\tbeta" }],
        },
      ],
    });
    const next = m.server.requests[1]?.body as { messages: { content: { type: string; text?: string }[] }[] };
    const last = next.messages.at(-1)?.content ?? [];
    expect(last.map((b) => b.type)).toEqual(["tool_result", "tool_result", "text"]);
    expect(last[2]?.text).toBe("Batch checked.");
  });

  it("a block ends the turn before the next request; the reason stays in the conversation", async () => {
    const { t, m } = await setup(
      batchHook({ decision: "block", reason: "enough reading" }),
      [twoReads, textTurn("never sent")],
      files,
    );
    const run = await cli(t, ["-p", "read a and b", "--output-format", "stream-json"], "home/repo", env(m));
    // A turn a hook ended is not a success: exit 1, as for any blocked turn.
    expect(run.code, run.stderr).toBe(1);
    expect(m.server.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(1);
    expect(run.stdout).toContain("PostToolBatch hook stopped the agent: enough reading");
    expect(run.stdout).not.toContain("never sent");
  });
});

describe("new hook events through the bin", () => {
  it("InstructionsLoaded fires for each instruction file at session start", async () => {
    const { t, m } = await setup(recording("InstructionsLoaded", "session_start"), [textTurn("Hi.")], {
      "home/repo/CLAUDE.md": "Be brief.",
    });
    const run = await cli(t, ["-p", "hi"], "home/repo", env(m));
    expect(run.code, run.stderr).toBe(0);
    expect(await recorded(t, "InstructionsLoaded")).toMatchObject({
      hook_event_name: "InstructionsLoaded",
      file_path: t.path("home/repo/CLAUDE.md"),
      memory_type: "Project",
      load_reason: "session_start",
    });
  });

  it("PermissionDenied fires when headless mode refuses a call, with the reason the model gets", async () => {
    const { t, m } = await setup(recording("PermissionDenied", "Bash"), [
      toolTurn("Bash", { command: "touch made.txt", description: "make" }, { id: "toolu_t" }),
      textTurn("ok", { hasToolResultFor: "Bash" }),
    ]);
    const run = await cli(t, ["-p", "go"], "home/repo", env(m));
    expect(run.code, run.stderr).toBe(0);
    const payload = await recorded(t, "PermissionDenied");
    expect(payload).toMatchObject({
      hook_event_name: "PermissionDenied",
      tool_name: "Bash",
      tool_input: { command: "touch made.txt" },
      tool_use_id: "toolu_t",
    });
    expect(payload.reason).toContain("needs approval");
  });

  it("StopFailure fires when the turn ends on a model error, matched on Claude Code's error name", async () => {
    const { t, m } = await setup(recording("StopFailure", "invalid_request"), [httpFaultTurn(400)]);
    const run = await cli(t, ["-p", "hi"], "home/repo", env(m));
    expect(run.code).toBe(1);
    const payload = await recorded(t, "StopFailure");
    expect(payload).toMatchObject({ hook_event_name: "StopFailure", error: "invalid_request" });
    expect(typeof payload.error_details).toBe("string");
  });

  it("PostCompact fires after /compact with the trigger and the summary", async () => {
    const { t, m } = await setup(recording("PostCompact", "manual"), [
      textTurn("THE SUMMARY", { systemIncludes: SUMMARY_SYSTEM_PROMPT.slice(0, 40) }),
      textTurn("Hello."),
    ]);
    assertBuilt();
    const line = (content: string) => JSON.stringify({ type: "user", message: { role: "user", content } });
    const run = await execa(
      process.execPath,
      [BIN, "-p", "--input-format", "stream-json", "--output-format", "stream-json"],
      {
        cwd: t.path("home/repo"),
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: t.path("home"), ...env(m) },
        extendEnv: false,
        reject: false,
        timeout: 30_000,
        input: `${line("hi")}\n${line("/compact")}\n`,
      },
    );
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(await recorded(t, "PostCompact")).toMatchObject({
      hook_event_name: "PostCompact",
      trigger: "manual",
      compact_summary: "THE SUMMARY",
    });
  });
});
