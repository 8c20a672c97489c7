import { appendFile, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bodyOf, openTestSession, sendAll, transcriptPath } from "../support/harness.js";
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

/** What a crash in the middle of writing a record leaves: the first half of a JSON line, no newline. */
const HALF_LINE =
  '{"type":"message","message":{"role":"user","content":[{"type":"text","text":"lost in the cra';

describe("a torn transcript (issue 16.4)", () => {
  it("resume repairs the tail, keeps the torn bytes aside, and loses no later prompt", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true } });
    model = await startTestModel([
      textTurn("Noted: ALPHA-42.", { lastUserTextIncludes: "remember ALPHA-42" }),
      textTurn("Got BETA-7.", { lastUserTextIncludes: "and BETA-7" }),
      textTurn("ALPHA-42 and BETA-7.", { lastUserTextIncludes: "what were they" }),
    ]);
    const first = await openTestSession(tree, model);
    const id = first.session.id;
    await sendAll(first, "remember ALPHA-42");
    const file = transcriptPath(tree, id);
    const beforeCrash = await readFile(file, "utf8");
    await appendFile(file, HALF_LINE);

    // First resume: the tail is cut back to the last whole line and the cut bytes are kept and reported.
    const second = await openTestSession(tree, model, { resume: id });
    expect(second.diagnostics.filter((d) => d.code === "transcript-torn")).toEqual([
      expect.objectContaining({ severity: "warning", path: file }),
    ]);
    expect(await readFile(file, "utf8")).toBe(beforeCrash);
    expect(await readFile(`${file}.torn`, "utf8")).toBe(`${HALF_LINE}\n`);
    await sendAll(second, "and BETA-7");

    // Second resume: the prompt sent after the crash is still there.
    const third = await openTestSession(tree, model, { resume: id });
    expect(third.diagnostics.filter((d) => d.code === "transcript-torn")).toEqual([]);
    await sendAll(third, "what were they?");
    const sent = JSON.stringify(bodyOf(model.server.requests[2]).messages);
    expect(sent).toContain("remember ALPHA-42");
    expect(sent).toContain("and BETA-7");
    expect(sent).toContain("Got BETA-7.");
    const text = await readFile(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    for (const line of text.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe("transcript modes (issue 16.5)", () => {
  it("session files are 0600 in a 0700 directory", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true } });
    model = await startTestModel([textTurn("hi")]);
    const opened = await openTestSession(tree, model);
    await sendAll(opened, "hello");
    const file = transcriptPath(tree, opened.session.id);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
  });
});
