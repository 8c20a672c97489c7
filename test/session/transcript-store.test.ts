import { appendFile, chmod, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/agent/model-types.js";
import {
  createFileTranscriptStore,
  newSessionId,
  parseTranscript,
  replayMessages,
  TORN_SUFFIX,
  type TornTail,
  type TranscriptEntry,
} from "../../src/session/transcript-store.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const AT = "2025-01-01T00:00:00.000Z";
const user = (text: string): ModelMessage => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const msg = (message: ModelMessage, agentId?: string): TranscriptEntry => ({
  type: "message",
  message,
  at: AT,
  ...(agentId === undefined ? {} : { agentId }),
});

describe("createFileTranscriptStore", () => {
  it("appends one JSON line per entry, on disk before append resolves, and reads them back in order", async () => {
    tree = await tmpTree();
    const dir = tree.path("sessions/nested");
    const store = createFileTranscriptStore(dir);
    const id = newSessionId();
    const file = store.location(id);
    expect(file).toBe(join(dir, `${id}.jsonl`));

    await store.append(id, [{ type: "session", id, cwd: "/w", createdAt: AT, model: "m" }]);
    expect((await readFile(file, "utf8")).split("\n")).toHaveLength(2);
    await store.append(id, [msg(user("one")), msg(assistant("two"))]);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual([
      "session",
      "message",
      "message",
    ]);
    expect((await store.read(id)).map((e) => e.type)).toEqual(["session", "message", "message"]);
  });

  it("writes nothing for an empty append", async () => {
    tree = await tmpTree();
    const store = createFileTranscriptStore(tree.path("s"));
    await store.append("abc", []);
    await expect(store.read("abc")).rejects.toThrow();
  });

  it("skips a torn last line (a crash mid-write) and keeps everything before it", async () => {
    tree = await tmpTree();
    const store = createFileTranscriptStore(tree.path("s"));
    await store.append("torn", [msg(user("kept")), msg(assistant("kept too"))]);
    await appendFile(store.location("torn"), '{"type":"message","message":{"role":"us');
    const entries = await store.read("torn");
    expect(entries).toHaveLength(2);
    expect(replayMessages(entries)).toEqual([user("kept"), assistant("kept too")]);
  });

  it("a new store (a new process) moves a torn tail aside before its first append (issue 16.4)", async () => {
    tree = await tmpTree();
    const dir = tree.path("s");
    await createFileTranscriptStore(dir).append("t", [msg(user("kept"))]);
    const file = join(dir, "t.jsonl");
    const before = await readFile(file, "utf8");
    await appendFile(file, '{"type":"message","message":{"role":"us');
    const torn: TornTail[] = [];
    const store = createFileTranscriptStore(dir, { onTornTail: (t) => torn.push(t) });
    await store.append("t", [msg(user("next prompt"))]);
    expect(torn).toEqual([{ path: file, tornPath: `${file}${TORN_SUFFIX}`, bytes: 39 }]);
    expect(await readFile(`${file}${TORN_SUFFIX}`, "utf8")).toBe('{"type":"message","message":{"role":"us\n');
    expect(await readFile(file, "utf8")).toBe(`${before}${JSON.stringify(msg(user("next prompt")))}\n`);
    expect(replayMessages(await store.read("t"))).toEqual([user("kept"), user("next prompt")]);
  });

  it("a whole last record without its newline is kept and gets the newline", async () => {
    const record = JSON.stringify(msg(user("whole")));
    tree = await tmpTree({ "s/w.jsonl": record });
    const dir = tree.path("s");
    const torn: TornTail[] = [];
    const store = createFileTranscriptStore(dir, { onTornTail: (t) => torn.push(t) });
    expect(replayMessages(await store.read("w"))).toEqual([user("whole")]);
    expect(await readFile(join(dir, "w.jsonl"), "utf8")).toBe(`${record}\n`);
    expect(torn).toEqual([]);
  });

  it("narrows an existing sessions dir to 0700 and transcript to 0600 on the first write (issue 16.5)", async () => {
    tree = await tmpTree({ "s/old.jsonl": `${JSON.stringify(msg(user("old")))}\n` });
    await chmod(tree.path("s"), 0o755);
    await chmod(tree.path("s/old.jsonl"), 0o644);
    await createFileTranscriptStore(tree.path("s")).append("old", [msg(user("new"))]);
    expect((await stat(tree.path("s"))).mode & 0o777).toBe(0o700);
    expect((await stat(tree.path("s/old.jsonl"))).mode & 0o777).toBe(0o600);
  });

  it("rejects reading a session that does not exist", async () => {
    tree = await tmpTree();
    await expect(createFileTranscriptStore(tree.path("s")).read(newSessionId())).rejects.toThrow();
  });

  it.each(["../escape", "a/b", "", "x".repeat(129), "semi;colon"])("refuses the unsafe id %j", (id) => {
    const store = createFileTranscriptStore("/tmp/never-written");
    expect(() => store.location(id)).toThrow(/Invalid session id/);
  });
});

describe("parseTranscript", () => {
  it("recovers a record an older version appended onto a torn line", () => {
    const next = JSON.stringify(msg(user("the next prompt")));
    const text = `${JSON.stringify(msg(user("a")))}\n{"type":"message","message":{"ro${next}\n`;
    expect(replayMessages(parseTranscript(text))).toEqual([user("a"), user("the next prompt")]);
  });

  it("skips blank lines and lines that hold no record", () => {
    expect(parseTranscript('\n  \nnot json\n[1]\n{"no":"type"}\n')).toEqual([]);
  });
});

describe("newSessionId", () => {
  it("makes distinct UUID v4 ids", () => {
    const a = newSessionId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newSessionId()).not.toBe(a);
  });
});

describe("replayMessages", () => {
  const toolUse: ModelMessage = {
    role: "assistant",
    content: [{ type: "tool_use", id: "t1", name: "Read", input: { path: "a" } }],
  };
  const toolResult: ModelMessage = {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }],
  };
  const cases: { name: string; entries: TranscriptEntry[]; expected: ModelMessage[] }[] = [
    { name: "empty", entries: [], expected: [] },
    {
      name: "main-agent messages only, in order",
      entries: [
        { type: "session", id: "s", cwd: "/", createdAt: AT, model: "m" },
        msg(user("hi")),
        msg(user("fork task"), "fork-1"),
        msg(assistant("fork answer"), "fork-1"),
        { type: "skill", name: "x", args: "", text: "body", at: AT },
        msg(assistant("hello")),
      ],
      expected: [user("hi"), assistant("hello")],
    },
    {
      name: "only what follows the newest compaction (its compacted message is stored after it)",
      entries: [
        msg(user("old")),
        msg(assistant("old answer")),
        { type: "compaction", summary: "SUMMARY 1", at: AT },
        msg(user("compacted 1")),
        msg(user("mid")),
        { type: "compaction", summary: "SUMMARY 2", at: AT },
        msg(user("compacted 2")),
        msg(user("new")),
      ],
      expected: [user("compacted 2"), user("new")],
    },
    {
      name: "a dangling tool_use at the end is dropped",
      entries: [msg(user("go")), msg(toolUse)],
      expected: [user("go")],
    },
    {
      name: "an answered tool_use is kept",
      entries: [msg(user("go")), msg(toolUse), msg(toolResult)],
      expected: [user("go"), toolUse, toolResult],
    },
  ];
  it.each(cases)("$name", ({ entries, expected }) => {
    expect(replayMessages(entries)).toEqual(expected);
  });
});
