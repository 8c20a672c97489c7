import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/agent/model-types.js";
import type { UserWaits } from "../../src/serve/sessions/await-action.js";
import {
  ALLOWED_NOT_RUN_TEXT,
  answeredWait,
  completeCalls,
  lastMainMessage,
  RESULT_LOST_TEXT,
} from "../../src/serve/sessions/orphan-resume.js";
import { createToolConfirmation, DEFAULT_DENY_TEXT } from "../../src/serve/sessions/tool-confirmation.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

// The pure parts of resuming a turn whose instance died: which waits are answered, and the tool results the
// stored answers make; and the one-time allowance of a call the user allowed but nobody ran.

const ev = (id: string, type: string, fields: Record<string, unknown> = {}): SessionEvent => ({
  id,
  type,
  processed_at: "",
  ...fields,
});
const waitingOn = (id: string, ids: string[]) =>
  ev(id, "session.status_idle", { stop_reason: { type: "requires_action", event_ids: ids } });

const custom = ev("e1", "agent.custom_tool_use", { name: "lookup", input: { q: "a" } });
const write = ev("e2", "agent.tool_use", { name: "Write", input: { file_path: "/a" } });
const bash = ev("e3", "agent.tool_use", { name: "Bash", input: { command: "ls" } });
const mcp = ev("e4", "agent.mcp_tool_use", { name: "search", mcp_server_name: "docs", input: {} });
const answers = [
  ev("u1", "user.custom_tool_result", { custom_tool_use_id: "e1", content: [{ type: "text", text: "A" }] }),
  ev("u2", "user.tool_confirmation", { tool_use_id: "e2", result: "allow" }),
  ev("u3", "user.tool_confirmation", { tool_use_id: "e3", result: "deny", deny_message: "not now" }),
  ev("u4", "user.tool_confirmation", { tool_use_id: "e4", result: "deny" }),
];

describe("answeredWait", () => {
  const turn = [ev("m", "user.message"), ev("r", "session.status_running"), custom, write, bash, mcp];
  const idle = waitingOn("i", ["e1", "e2", "e3", "e4"]);

  it("gives each waited-on call with its answer once all are answered", () => {
    const calls = answeredWait([...turn, idle, ...answers]);
    expect(calls?.map((c) => [c.use.id, c.answer.id])).toEqual([
      ["e1", "u1"],
      ["e2", "u2"],
      ["e3", "u3"],
      ["e4", "u4"],
    ]);
  });

  it("is undefined while an answer is missing, once the turn went on, or when nothing waits", () => {
    expect(answeredWait([...turn, idle, ...answers.slice(0, 3)])).toBeUndefined();
    expect(answeredWait([...turn, idle, ...answers, ev("r2", "session.status_running")])).toBeUndefined();
    expect(
      answeredWait([
        ...turn,
        idle,
        ...answers,
        ev("end", "session.status_idle", { stop_reason: { type: "end_turn" } }),
      ]),
    ).toBeUndefined();
    expect(answeredWait([])).toBeUndefined();
    // An answer stored before the call it names does not answer it.
    expect(answeredWait([answers[0] ?? custom, custom, waitingOn("i1", ["e1"])])).toBeUndefined();
  });
});

describe("completeCalls", () => {
  const assistant: ModelMessage = {
    role: "assistant",
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: "t1", name: "lookup", input: { q: "a" } },
      { type: "tool_use", id: "t2", name: "Write", input: { file_path: "/a" } },
      { type: "tool_use", id: "t3", name: "Bash", input: { command: "ls" } },
      { type: "tool_use", id: "t4", name: "mcp__docs__search", input: {} },
      { type: "tool_use", id: "t5", name: "Read", input: { file_path: "/b" } },
    ],
  };
  const calls =
    answeredWait([custom, write, bash, mcp, waitingOn("i", ["e1", "e2", "e3", "e4"]), ...answers]) ?? [];

  it("answers every call of the message from the stored answers, in the message's order", () => {
    const completed = completeCalls(assistant, calls);
    expect(completed?.message).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "A" }] },
        { type: "tool_result", tool_use_id: "t2", content: ALLOWED_NOT_RUN_TEXT, is_error: true },
        { type: "tool_result", tool_use_id: "t3", content: "not now", is_error: true },
        { type: "tool_result", tool_use_id: "t4", content: DEFAULT_DENY_TEXT, is_error: true },
        { type: "tool_result", tool_use_id: "t5", content: RESULT_LOST_TEXT, is_error: true },
      ],
    });
    expect(completed?.allowOnce).toEqual([{ name: "Write", input: { file_path: "/a" } }]);
  });

  it("is undefined for a message with no tool call", () => {
    expect(
      completeCalls({ role: "assistant", content: [{ type: "text", text: "hi" }] }, calls),
    ).toBeUndefined();
    expect(completeCalls(undefined, calls)).toBeUndefined();
  });

  it("finds the main agent's last message since the last compaction", () => {
    const message = (text: string, agentId?: string) => ({
      type: "message" as const,
      message: { role: "assistant" as const, content: [{ type: "text" as const, text }] },
      at: "",
      ...(agentId === undefined ? {} : { agentId }),
    });
    expect(lastMainMessage([message("main"), message("fork", "a1")])?.content).toEqual([
      { type: "text", text: "main" },
    ]);
    expect(lastMainMessage([message("main"), { type: "compaction", summary: "s", at: "" }])).toBeUndefined();
  });
});

describe("a call allowed once", () => {
  it("runs without asking the first time it is made again, and is asked about after that", async () => {
    let asked = 0;
    const waits: UserWaits = {
      append: async () => [],
      follow: async () => ({ async *[Symbol.asyncIterator]() {} }),
      wait: async () => {
        asked += 1;
        return undefined;
      },
    };
    const confirm = createToolConfirmation({
      tools: [
        {
          type: "agent_toolset_20260401",
          default_config: { enabled: true, permission_policy: { type: "always_ask" } },
          configs: [],
        },
      ],
      served: [{ name: "Write", toolset: { type: "agent_toolset_20260401" } }],
      customToolNames: [],
      waits,
    });
    const ask = (input: unknown) =>
      confirm.sessionOptions.askPermission({ tool: "Write", prompt: "", toolUseId: "t", input });
    confirm.allowOnce("Write", { file_path: "/a" });
    // Another input is still asked about.
    expect(await ask({ file_path: "/b" })).toEqual({
      deny: "interrupted before the tool call was confirmed",
    });
    expect(asked).toBe(1);
    expect(await ask({ file_path: "/a" })).toBe(true);
    expect(asked).toBe(1);
    await ask({ file_path: "/a" });
    expect(asked).toBe(2);
  });
});
