import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { exportFileName } from "../../src/cli/session-command-runner.js";
import { parseSessionCommand } from "../../src/cli/session-commands.js";
import { findSession, type SessionSummary, summarizeSession } from "../../src/cli/session-list.js";
import { runSteps } from "../support/interactive-steps.js";
import { startTestModel, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  model = undefined;
  tree = undefined;
});

/** The user texts of a recorded request's messages, in order (reminders left out). */
function userTexts(body: unknown): string[] {
  const messages = (
    body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }
  ).messages;
  return messages
    .filter((m) => m.role === "user")
    .flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.map((b) => b.text ?? "")))
    .filter((text) => text !== "" && !text.startsWith("<system-reminder>"));
}

const modelOf = (body: unknown) => (body as { model: string }).model;

describe("interactive /model, /new, /resume, /export and /name (issue #31 item 4)", () => {
  it("switches the model mid-conversation, names, exports, starts anew and resumes by name", async () => {
    tree = await tmpTree({ "home/.keep": "", "repo/.git": { dir: true } });
    const t = tree;
    model = await startTestModel([
      textTurn("first answer", { lastUserTextIncludes: "one" }),
      textTurn("second answer", { lastUserTextIncludes: "two" }),
      textTurn("third answer", { lastUserTextIncludes: "three" }),
      textTurn("fourth answer", { lastUserTextIncludes: "four" }),
    ]);
    const m = model;
    const { code, stdout } = await runSteps(t, m.server.url, [
      { line: "one" },
      { line: "/name release prep" },
      { line: "/model haiku" },
      { line: "two" },
      { line: "/export notes.md" },
      { line: "/export notes.md" },
      { line: "/new" },
      { line: "three" },
      { line: "/resume" },
      { line: "/resume release prep" },
      { line: "/name" },
      { line: "four" },
    ]);
    expect(code).toBe(0);
    const [one, two, three, four] = m.server.requests.map((r) => r.body);

    // /model: the same conversation goes on with the other model.
    expect(stdout).toMatch(/Model: claude-haiku-5-5 \(was [^)]+\); the conversation goes on\./);
    expect(modelOf(one)).not.toBe("claude-haiku-5-5");
    expect(modelOf(two)).toBe("claude-haiku-5-5");
    expect(userTexts(two)).toEqual(["one", "two"]);

    // /export: the conversation as Markdown; a second export to the same file writes nothing.
    const notes = await readFile(t.path("repo/notes.md"), "utf8");
    expect(notes).toMatch(/^# release prep\n\nSession \S+ · model claude-haiku-5-5 · exported /);
    expect(notes).toContain(
      "## User\n\none\n\n## Assistant\n\nfirst answer\n\n## User\n\ntwo\n\n## Assistant\n\nsecond answer\n",
    );
    expect(stdout).toContain(`Exported 4 messages to ${t.path("repo/notes.md")}.`);
    expect(stdout).toContain(`${t.path("repo/notes.md")} exists: nothing was written.`);

    // /new: a fresh conversation, still on the model /model chose.
    expect(stdout).toMatch(/New session \S+ · claude-haiku-5-5\./);
    expect(userTexts(three)).toEqual(["three"]);
    expect(modelOf(three)).toBe("claude-haiku-5-5");

    // /resume lists both sessions, the named one by its name; /resume NAME returns to it.
    expect(stdout).toMatch(/ "release prep" · [\d-]+ [\d:]+ · 4 messages · one\n/);
    expect(stdout).toMatch(/\* \S+ · [\d-]+ [\d:]+ · 2 messages · three\n/);
    expect(stdout).toMatch(/Resumed session \S+ "release prep" · claude-haiku-5-5 · 4 messages\./);
    expect(stdout).toContain("Name: release prep\n");
    expect(userTexts(four)).toEqual(["one", "two", "four"]);
  });
});

describe("the session commands' pure parts", () => {
  it("parses each command and gives a usage line for a malformed one", () => {
    expect(parseSessionCommand("/model")).toEqual({ kind: "model" });
    expect(parseSessionCommand(" /model opus ")).toEqual({ kind: "model", model: "opus" });
    expect(parseSessionCommand("/model a b")).toMatchObject({ kind: "usage" });
    expect(parseSessionCommand("/new")).toEqual({ kind: "new" });
    expect(parseSessionCommand("/new x")).toMatchObject({ kind: "usage" });
    expect(parseSessionCommand("/resume abcd")).toEqual({ kind: "resume", target: "abcd" });
    expect(parseSessionCommand("/export my notes.md")).toEqual({ kind: "export", path: "my notes.md" });
    expect(parseSessionCommand("/name a long name")).toEqual({ kind: "name", name: "a long name" });
    expect(parseSessionCommand(`/name ${"x".repeat(101)}`)).toMatchObject({ kind: "usage" });
    expect(parseSessionCommand("/names")).toBeUndefined();
    expect(parseSessionCommand("/deploy now")).toBeUndefined();
    expect(parseSessionCommand("model")).toBeUndefined();
  });

  it("finds a session by id, by name, by a unique id prefix of 4+ characters, and says why not", () => {
    const s = (id: string, name?: string): SessionSummary => ({
      id,
      name,
      createdAt: undefined,
      model: undefined,
      firstPrompt: undefined,
      messages: 0,
    });
    const sessions = [s("abcd1111", "x"), s("abcd2222", "y"), s("ef001234", "y")];
    expect(findSession("abcd2222", sessions)).toEqual({ ok: true, id: "abcd2222" });
    expect(findSession("x", sessions)).toEqual({ ok: true, id: "abcd1111" });
    expect(findSession("ef00", sessions)).toEqual({ ok: true, id: "ef001234" });
    expect(findSession("y", sessions)).toEqual({
      ok: false,
      message: '2 sessions are named "y": resume one by its id.',
    });
    expect(findSession("abcd", sessions)).toEqual({ ok: false, message: '"abcd" starts 2 session ids.' });
    expect(findSession("ef0", sessions)).toMatchObject({ ok: false });
  });

  it("summarises a transcript: the last name counts, reminders are not the first prompt", () => {
    const at = "2026-11-29T04:00:00.000Z";
    const summary = summarizeSession("id1", [
      { type: "session", id: "id1", cwd: "/p", createdAt: at, model: "m" },
      { type: "name", name: "a", at },
      {
        type: "message",
        message: {
          role: "user",
          content: [
            { type: "text", text: "<system-reminder>list</system-reminder>" },
            { type: "text", text: "hello" },
          ],
        },
        at,
      },
      { type: "message", message: { role: "user", content: "fork" }, agentId: "f1", at },
      { type: "name", name: "b", at },
    ]);
    expect(summary).toEqual({
      id: "id1",
      name: "b",
      createdAt: at,
      model: "m",
      firstPrompt: "hello",
      messages: 1,
    });
  });

  it("names an export file after the session's name or id and the time", () => {
    const at = new Date("2026-11-29T04:05:06.789Z");
    expect(exportFileName("0123456789", "Release prep!", at)).toBe("release-prep-20261129-040506.md");
    expect(exportFileName("0123456789", undefined, at)).toBe("session-01234567-20261129-040506.md");
    expect(exportFileName("0123456789", "!!!", at)).toBe("session-01234567-20261129-040506.md");
  });
});
