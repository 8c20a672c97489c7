// Mid-turn compaction (SPEC §8): a long agentic turn whose tool results push the next request past the
// auto-compaction share of the window is compacted BEFORE that request, not after it (the request would fail
// on a real API), and the turn goes on from the summary. Real session, real SDK, scripted model server.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/agent/model-types.js";
import { messagesTokens } from "../../src/session/compaction/tokens.js";
import type { TranscriptEntry } from "../../src/session/transcript-store.js";
import { bigTool, fetchTurn, isSummary, loopIntact } from "../support/compaction-script.js";
import { type Harness, sendOn, startHarness, textBlocks } from "../support/harness.js";
import { textTurn } from "../support/model-server.js";

/** A 200k-token model: auto-compaction at 160k tokens (SPEC §8). */
const MODEL = "claude-haiku-4-5";
const SUMMARY_MATCH = { systemIncludes: "You summarize conversations" };

async function transcript(h: Harness): Promise<TranscriptEntry[]> {
  const path = join(h.home, ".skillwright", "sessions", `${h.opened.session.id}.jsonl`);
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("compaction inside a turn, before a request that would pass the window", () => {
  it("compacts after big tool results, before the next request, and the tool loop goes on to the end", async () => {
    h = await startHarness({
      session: { model: MODEL, extraTools: [bigTool(350_000)] },
      turns: [
        fetchTurn(["toolu_a", "toolu_b"], { lastUserTextIncludes: "research" }),
        textTurn("SUMMARY-MID", SUMMARY_MATCH),
        fetchTurn(["toolu_c"], { lastUserTextIncludes: "SUMMARY-MID" }),
        textTurn("all done", { hasToolResultFor: "toolu_c" }),
        textTurn("resumed fine", { lastUserTextIncludes: "and now?" }),
      ],
    });
    const events = await h.send("research the pages");
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "all done" } });
    expect(events.filter((e) => e.type === "error")).toEqual([]);

    const bodies = h.bodies();
    expect(bodies.map(isSummary)).toEqual([false, true, false, false]);
    // The summary saw both tool results of this turn (cut to fit).
    const summarized = JSON.stringify(bodies[1]?.messages);
    expect(summarized).toContain("toolu_a");
    expect(summarized).toContain("toolu_b");
    // The continued request starts from the compacted message, well inside the window.
    const continued = bodies[2];
    if (continued === undefined) throw new Error("no continued request");
    expect(continued.messages).toHaveLength(1);
    expect(textBlocks(continued.messages[0]?.content ?? "").join("\n")).toContain(
      "<summary>\nSUMMARY-MID\n</summary>",
    );
    expect(messagesTokens(continued.messages as ModelMessage[])).toBeLessThan(20_000);
    // After compaction the loop is still a loop: the next tool call is answered in the request after it.
    const last = bodies[3];
    if (last === undefined) throw new Error("no last request");
    expect(last.messages).toHaveLength(3);
    for (const body of bodies) expect(loopIntact(body.messages as ModelMessage[])).toBe(true);

    // The transcript holds one compaction, and a resumed session goes on from the compacted conversation.
    expect((await transcript(h)).filter((x) => x.type === "compaction")).toHaveLength(1);
    const resumed = await h.reopen({ resume: h.opened.session.id });
    const more = await sendOn(resumed, "and now?");
    expect(more.at(-1)).toMatchObject({ type: "done", result: { text: "resumed fine" } });
    const after = h.bodies().at(-1);
    if (after === undefined) throw new Error("no request after resume");
    expect(loopIntact(after.messages as ModelMessage[])).toBe(true);
    expect(textBlocks(after.messages[0]?.content ?? "").join("\n")).toContain("SUMMARY-MID");
    // Only toolu_c's result survives: the compacted results are not sent again (no giant string diffs here).
    expect(JSON.stringify(after.messages).includes("toolu_a")).toBe(false);
    expect(h.bodies().filter(isSummary)).toHaveLength(1);
  });

  it("tool results that stay below the threshold do not compact", async () => {
    h = await startHarness({
      session: { model: MODEL, extraTools: [bigTool(100_000)] },
      turns: [
        fetchTurn(["toolu_a", "toolu_b"], { lastUserTextIncludes: "research" }),
        textTurn("all done", { hasToolResultFor: "toolu_b" }),
      ],
    });
    const events = await h.send("research the pages");
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "all done" } });
    expect(h.bodies().filter(isSummary)).toHaveLength(0);
  });
});

describe("compaction before the first request of a turn", () => {
  it("a prompt that would pass the window with the conversation before it compacts that first, then is sent", async () => {
    h = await startHarness({
      session: { model: MODEL, extraTools: [bigTool(400_000)] },
      turns: [
        fetchTurn(["toolu_a"], { lastUserTextIncludes: "hello" }),
        textTurn("first answer", { hasToolResultFor: "toolu_a" }),
        textTurn("SUMMARY-BEFORE", SUMMARY_MATCH),
        textTurn("read it all", { lastUserTextIncludes: "BIG-PROMPT" }),
      ],
    });
    await h.send("hello");
    expect(h.bodies().filter(isSummary)).toHaveLength(0);
    const events = await h.send(`BIG-PROMPT ${"y".repeat(300_000)}`);
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "read it all" } });
    expect(events.filter((e) => e.type === "warning")).toEqual([]);
    const bodies = h.bodies();
    expect(bodies.map(isSummary)).toEqual([false, false, true, false]);
    // The summary covered the conversation before the prompt; the prompt follows the compacted message.
    expect(JSON.stringify(bodies[2]?.messages).includes("BIG-PROMPT")).toBe(false);
    const after = bodies[3];
    if (after === undefined) throw new Error("no request after compaction");
    expect(after.messages).toHaveLength(2);
    expect(textBlocks(after.messages[0]?.content ?? "").join("\n")).toContain("SUMMARY-BEFORE");
    expect(
      textBlocks(after.messages[1]?.content ?? "")
        .join("\n")
        .startsWith("BIG-PROMPT"),
    ).toBe(true);
    expect((await transcript(h)).filter((x) => x.type === "compaction")).toHaveLength(1);
  });

  it("a big first prompt with nothing before it to compact is sent as is, without a warning", async () => {
    h = await startHarness({
      session: { model: MODEL },
      turns: [
        textTurn("read it all", { lastUserTextIncludes: "BIG-PROMPT" }),
        textTurn("SUMMARY-AFTER", SUMMARY_MATCH),
      ],
    });
    const events = await h.send(`BIG-PROMPT ${"y".repeat(660_000)}`);
    expect(events.find((e) => e.type === "done")).toMatchObject({ result: { text: "read it all" } });
    expect(events.filter((e) => e.type === "warning")).toEqual([]);
    // Sent as is; the conversation it leaves is over the threshold, so it is compacted after the turn.
    expect(h.bodies().map(isSummary)).toEqual([false, true]);
  });
});
