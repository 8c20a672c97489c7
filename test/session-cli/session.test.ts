import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/agent/model-types.js";
import { createMemoryTranscriptStore } from "../../src/session/memory-transcript-store.js";
import type { TranscriptEntry } from "../../src/session/transcript-store.js";
import { UnknownSessionError } from "../../src/session/unknown-session-error.js";
import { bodyOf, openTestSession, sendAll, transcript } from "../support/harness.js";
import {
  httpFaultTurn,
  startTestModel,
  type TestModel,
  textTurn,
  toolTurn,
} from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "repo/.git": { dir: true },
    "repo/notes.txt": "alpha beta gamma\n",
    "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nSay hello.\n",
    "repo/.claude/skills/ts-helper/SKILL.md":
      "---\ndescription: Helps with TypeScript\npaths: '*.ts'\n---\nTS help.\n",
    "repo/src/app.ts": "export const app = 1;\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function setup(...args: Parameters<typeof startTestModel>): Promise<TestModel> {
  model = await startTestModel(...args);
  return model;
}

const messagesOf = (entries: TranscriptEntry[]): ModelMessage[] =>
  entries.flatMap((e) => (e.type === "message" && e.agentId === undefined ? [e.message] : []));

const textOf = (message: ModelMessage | undefined): string =>
  message === undefined
    ? ""
    : typeof message.content === "string"
      ? message.content
      : message.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");

describe("session transcripts", () => {
  it("persists each message as it happens, before the next model request", async () => {
    const m = await setup([
      // Both responses are held back so the transcript is read while the loop waits for the model.
      {
        ...toolTurn(
          "Read",
          { path: "notes.txt" },
          { id: "toolu_read", match: { lastUserTextIncludes: "read the notes" } },
        ),
        delayMs: 150,
      },
      { ...textTurn("The notes say alpha.", { hasToolResultFor: "Read" }), delayMs: 150 },
    ]);
    const opened = await openTestSession(tree, m);
    const id = opened.session.id;
    const seen: { at: string; messages: ModelMessage[]; header: boolean }[] = [];
    const { result } = await sendAll(opened, "please read the notes", {
      onEvent: async (event) => {
        if (event.type !== "request_start" && event.type !== "tool_start") return;
        const entries = await transcript(tree, id);
        seen.push({
          at: `${event.type}${event.type === "request_start" ? event.turn : ""}`,
          messages: messagesOf(entries),
          header: entries[0]?.type === "session",
        });
      },
    });

    expect(result).toMatchObject({ cause: "end_turn", text: "The notes say alpha." });
    expect(seen.map((s) => s.at)).toEqual(["request_start1", "tool_start", "request_start2"]);
    expect(seen.every((s) => s.header)).toBe(true);
    // Turn 1: the user's message (and only it) is on disk while the model is asked.
    expect(seen[0]?.messages).toHaveLength(1);
    expect(textOf(seen[0]?.messages[0])).toContain("please read the notes");
    // The assistant's tool call is on disk before the tool runs.
    expect(seen[1]?.messages[1]?.content).toEqual([
      { type: "tool_use", id: "toolu_read", name: "Read", input: { path: "notes.txt" } },
    ]);
    // The tool result is on disk while the second request waits.
    expect(seen[2]?.messages).toHaveLength(3);
    expect(seen[2]?.messages[2]?.role).toBe("user");
    expect(JSON.stringify(seen[2]?.messages[2]?.content)).toContain("alpha beta gamma");
    const final = messagesOf(await transcript(tree, id));
    expect(final).toHaveLength(4);
    expect(final).toEqual(opened.session.messages());
  });

  it("--resume continues a stored session with its messages in the next request", async () => {
    const m = await setup([
      textTurn("Noted: ALPHA-42.", { lastUserTextIncludes: "remember ALPHA-42" }),
      textTurn("It was ALPHA-42.", { lastUserTextIncludes: "what was it" }),
    ]);
    const first = await openTestSession(tree, m);
    await sendAll(first, "remember ALPHA-42");
    const resumed = await openTestSession(tree, m, { resume: first.session.id });
    expect(resumed.session.id).toBe(first.session.id);
    const { result } = await sendAll(resumed, "what was it?");

    expect(result.text).toBe("It was ALPHA-42.");
    const messages = bodyOf(m.server.requests[1]).messages;
    expect(messages.map((msg) => msg.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[0])).toContain("remember ALPHA-42");
    expect(JSON.stringify(messages[1])).toContain("Noted: ALPHA-42.");
    expect(JSON.stringify(messages[2])).toContain("what was it?");
    // Both turns are in the one transcript file, with one session header.
    const entries = await transcript(tree, first.session.id);
    expect(entries.filter((e) => e.type === "session")).toHaveLength(1);
    expect(messagesOf(entries)).toHaveLength(4);
  });

  // A compaction after --resume must re-attach the skills invoked before it (SPEC §8).
  it("--resume restores the invoked-skill log from the transcript", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "greet me" } }),
      textTurn("Hello!", { hasToolResultFor: "Skill" }),
    ]);
    const first = await openTestSession(tree, m);
    await sendAll(first, "greet me");
    expect(first.session.invoked().map((i) => i.name)).toEqual(["greet"]);
    const entries = await transcript(tree, first.session.id);
    expect(entries.filter((e) => e.type === "skill").map((e) => e.type === "skill" && e.name)).toEqual([
      "greet",
    ]);

    const resumed = await openTestSession(tree, m, { resume: first.session.id });
    expect(resumed.session.invoked().map((i) => i.name)).toEqual(["greet"]);
  });

  it("a resume of a session that does not exist is refused with where the sessions are", async () => {
    const m = await setup([]);
    const refused = openTestSession(tree, m, { resume: "0f0e0d0c-no-such-session" });
    await expect(refused).rejects.toBeInstanceOf(UnknownSessionError);
    await expect(refused).rejects.toThrow(
      `No session 0f0e0d0c-no-such-session. Sessions: ${tree.path("home/.skillwright/sessions")}`,
    );
    // An id no transcript file can have is unknown too, not a path error.
    await expect(openTestSession(tree, m, { resume: "../escape" })).rejects.toBeInstanceOf(
      UnknownSessionError,
    );
  });

  it("a memory store refuses an unknown session the same way, listing the ids it holds", async () => {
    const m = await setup([textTurn("kept")]);
    const store = createMemoryTranscriptStore();
    const first = await openTestSession(tree, m, { store });
    await sendAll(first, "hello");
    await expect(openTestSession(tree, m, { store, resume: "nope" })).rejects.toThrow(
      new UnknownSessionError("nope", `${first.session.id} (kept in memory)`),
    );
    await expect(
      openTestSession(tree, m, { store: createMemoryTranscriptStore(), resume: "nope" }),
    ).rejects.toThrow("No session nope. Sessions: none (kept in memory)");
  });

  it("retries a 529 through the SDK and succeeds (two requests recorded)", async () => {
    const m = await setup([httpFaultTurn(529), textTurn("after the overload")]);
    const { result } = await sendAll(await openTestSession(tree, m), "hello");

    expect(result).toMatchObject({ cause: "end_turn", text: "after the overload", turns: 1 });
    expect(m.server.requests).toHaveLength(2);
    expect(m.server.requests[1]?.body).toEqual(m.server.requests[0]?.body);
  });

  it("a stream cut mid-message ends the turn in an error with every finished message on disk", async () => {
    const m = await setup([
      toolTurn("Read", { path: "notes.txt" }, { id: "toolu_read" }),
      {
        match: { hasToolResultFor: "Read" },
        response: {
          content: [{ type: "text", text: "This answer is cut off before it ends, mid-sentence" }],
        },
        fault: { kind: "cut", afterEvents: 3 },
      },
      textTurn("Resumed fine.", { lastUserTextIncludes: "go on" }),
    ]);
    const opened = await openTestSession(tree, m);
    const { result, events } = await sendAll(opened, "read and summarise");

    expect(result.cause).toBe("error");
    expect(result.error?.kind).toBe("stream_cut");
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    const onDisk = messagesOf(await transcript(tree, opened.session.id));
    expect(onDisk.map((msg) => msg.role)).toEqual(["user", "assistant", "user"]);
    expect(textOf(onDisk[0])).toContain("read and summarise");
    expect(JSON.stringify(onDisk[2])).toContain("alpha beta gamma");

    // Nothing was lost: a resumed session sends all of it again.
    const resumed = await openTestSession(tree, m, { resume: opened.session.id });
    const again = await sendAll(resumed, "go on");
    expect(again.result.text).toBe("Resumed fine.");
    const sent = bodyOf(m.server.requests.at(-1)).messages;
    expect(sent.map((msg) => msg.role)).toEqual(["user", "assistant", "user", "user"]);
    expect(JSON.stringify(sent[2])).toContain("alpha beta gamma");
  });

  it("keeps the system prompt and tools byte-identical all session; listing deltas travel in the messages", async () => {
    const m = await setup([
      toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "greet me" } }),
      toolTurn("Read", { path: "src/app.ts" }, { match: { hasToolResultFor: "Skill" } }),
      textTurn("Hello, and app.ts read.", { hasToolResultFor: "Read" }),
      textTurn("Second turn.", { lastUserTextIncludes: "again" }),
    ]);
    const opened = await openTestSession(tree, m);
    await sendAll(opened, "greet me");
    await sendAll(opened, "again");

    const bodies = m.server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(4);
    expect(new Set(bodies.map((b) => JSON.stringify(b.system))).size).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(b.tools))).size).toBe(1);
    expect(JSON.stringify(bodies[0]?.system)).not.toContain("greet");
    // The listing is in the first user message; the conditional skill is announced after the Read touched app.ts.
    const first = JSON.stringify(bodyOf(m.server.requests[0]).messages[0]);
    expect(first).toContain("- greet: Greets people");
    expect(first).not.toContain("ts-helper");
    const afterRead = JSON.stringify(bodyOf(m.server.requests[2]).messages.at(-1));
    expect(afterRead).toContain("- ts-helper: Helps with TypeScript");
  });
});
