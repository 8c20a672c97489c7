import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { SUMMARY_FRAMING } from "../../src/session/compaction/compacted-messages.js";
import { REATTACH_INTRO } from "../../src/session/compaction/reattach.js";
import { SUMMARY_SYSTEM_PROMPT } from "../../src/session/compaction/summary-request.js";
import type { TranscriptEntry } from "../../src/session/transcript-store.js";
import {
  type Harness,
  INIT_ENTRY,
  LISTING_HEADER,
  lastUser,
  listingBlock,
  plainBlocks,
  type RequestBody,
  sendOn,
  skillMd,
  startHarness,
  textBlocks,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const PRE_COMPACT_HOOK = { type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/precompact.json"' };

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/alpha/SKILL.md": skillMd("description: Alpha steps", "ALPHA for $ARGUMENTS"),
  "project/.claude/skills/beta/SKILL.md": skillMd("description: Beta steps", "BETA for $ARGUMENTS"),
  "project/.claude/settings.local.json": JSON.stringify({
    hooks: { PreCompact: [{ hooks: [PRE_COMPACT_HOOK] }] },
  }),
};

const FULL_LISTING = listingBlock("- alpha: Alpha steps", "- beta: Beta steps", INIT_ENTRY);
const SUMMARY_MATCH = { systemIncludes: "You summarize conversations" };

function summaryTurn(text: string): ScriptTurnInput {
  return textTurn(text, SUMMARY_MATCH);
}

function isSummary(body: RequestBody): boolean {
  return JSON.stringify(body.system ?? "").includes("You summarize conversations");
}

/** The compacted message's blocks: listing, summary, both skills re-attached newest first (beta, then alpha). */
function compactedBlocks(e: Harness, summary: string) {
  const dir = (name: string) => e.tree.path(`project/.claude/skills/${name}`);
  const skill = (name: string, args: string, body: string) =>
    `## Skill "${name}", previously invoked in this session\n` +
    `Arguments (historical, not to be re-executed): "${args}"\n\n` +
    `Base directory for this skill: ${dir(name)}\n\n${body}`;
  return [
    { type: "text", text: FULL_LISTING },
    { type: "text", text: `${SUMMARY_FRAMING}\n\n<summary>\n${summary}\n</summary>` },
    {
      type: "text",
      text: `<system-reminder>\n${REATTACH_INTRO}\n\n${skill("beta", "b-2", "BETA for b-2")}\n\n${skill("alpha", "a-1", "ALPHA for a-1")}\n</system-reminder>`,
    },
  ];
}

async function transcript(e: Harness): Promise<TranscriptEntry[]> {
  const path = join(e.home, ".skillwright", "sessions", `${e.opened.session.id}.jsonl`);
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

/** Two turns, each invoking one inline skill. */
const TWO_SKILLS: ScriptTurnInput[] = [
  toolTurn("Skill", { skill: "alpha", args: "a-1" }),
  textTurn("alpha done"),
  toolTurn("Skill", { skill: "beta", args: "b-2" }),
  textTurn("beta done"),
];

describe("compaction in a session (SPEC §8)", () => {
  it("/compact: PreCompact hook, a tool-less summary request, then full listing + summary + skills", async () => {
    e = await startHarness({
      files: TREE,
      turns: [...TWO_SKILLS, summaryTurn("SUMMARY-ONE"), textTurn("carrying on")],
    });
    await e.send("do alpha");
    await e.send("do beta");
    const before = e.bodies().length;
    const events = await e.send("/compact");
    expect(events.findLast((ev) => ev.type === "done")).toMatchObject({
      result: { text: "Conversation compacted.", cause: "end_turn" },
    });
    // One separate summary request, with no tools and its own system prompt.
    expect(e.bodies()).toHaveLength(before + 1);
    const summary = e.body(before);
    expect(isSummary(summary)).toBe(true);
    expect(JSON.stringify(summary.system)).toContain(SUMMARY_SYSTEM_PROMPT);
    expect(summary.tools ?? []).toEqual([]);
    const summarized = JSON.stringify(summary.messages);
    expect(summarized).toContain("ALPHA for a-1");
    expect(summarized).toContain("beta done");
    // PreCompact fired with the manual trigger.
    const hook = JSON.parse(await readFile(join(e.cwd, "precompact.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(hook).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual" });

    await e.send("continue please");
    const next = e.body(before + 1);
    expect(next.messages[0]?.role).toBe("user");
    expect(plainBlocks(next.messages[0]?.content ?? "")).toEqual(compactedBlocks(e, "SUMMARY-ONE"));
    // Nothing from before the compaction is sent again, and the listing is not repeated.
    expect(JSON.stringify(next.messages)).not.toContain("alpha done");
    expect(plainBlocks(lastUser(next).content)).toEqual([{ type: "text", text: "continue please" }]);
    const listings = next.messages
      .flatMap((m) => textBlocks(m.content))
      .filter((t) => t.includes(LISTING_HEADER));
    expect(listings).toEqual([FULL_LISTING]);

    const entries = await transcript(e);
    expect(entries.filter((x) => x.type === "compaction")).toEqual([
      { type: "compaction", summary: "SUMMARY-ONE", at: expect.any(String) },
    ]);
  });

  it("auto-compacts after a turn whose usage nears the window; the next request starts from the summary", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        TWO_SKILLS[0] as ScriptTurnInput,
        { response: { content: [{ type: "text", text: "alpha done" }], usage: { input_tokens: 950_000 } } },
        summaryTurn("SUMMARY-AUTO"),
        textTurn("after auto"),
      ],
    });
    await e.send("do alpha");
    // The summary request followed the big turn at once.
    expect(e.bodies()).toHaveLength(3);
    expect(isSummary(e.body(2))).toBe(true);
    const hook = JSON.parse(await readFile(join(e.cwd, "precompact.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(hook).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto" });

    await e.send("next step");
    const next = e.body(3);
    expect(next.messages).toHaveLength(2);
    const [listing, summary, skills] = textBlocks(next.messages[0]?.content ?? "");
    expect(summary).toContain("<summary>\nSUMMARY-AUTO\n</summary>");
    expect(skills).toContain('## Skill "alpha", previously invoked in this session');
    expect(listing).toBe(FULL_LISTING);
    expect(JSON.stringify(next.messages)).not.toContain("alpha done");
  });

  it("no auto-compaction while usage stays below the threshold", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        { response: { content: [{ type: "text", text: "small" }], usage: { input_tokens: 700_000 } } },
        textTurn("still whole"),
      ],
    });
    await e.send("one");
    await e.send("two");
    expect(e.bodies().some(isSummary)).toBe(false);
    expect(e.body(1).messages).toHaveLength(3);
  });

  it("--resume after compaction sends the compacted message, then what came after it", async () => {
    e = await startHarness({
      files: TREE,
      turns: [...TWO_SKILLS, summaryTurn("SUMMARY-ONE"), textTurn("carrying on"), textTurn("resumed fine")],
    });
    await e.send("do alpha");
    await e.send("do beta");
    await e.send("/compact");
    await e.send("continue please");
    const resumed = await e.reopen({ resume: e.opened.session.id });
    await sendOn(resumed, "where were we?");
    const body = e.bodies().at(-1) as RequestBody;
    expect(isSummary(body)).toBe(false);
    expect(body.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "user"]);
    expect(plainBlocks(body.messages[0]?.content ?? "")).toEqual(compactedBlocks(e, "SUMMARY-ONE"));
    expect(JSON.stringify(body.messages)).not.toContain("alpha done");
    // The resumed session knows the listing was sent: the new message carries only the prompt.
    expect(plainBlocks(lastUser(body).content)).toEqual([{ type: "text", text: "where were we?" }]);
  });
});

describe("auto-compaction in the middle of a turn", () => {
  it("compacts between two requests of one turn when a response nears the window, then goes on", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        {
          match: { lastUserTextIncludes: "long task" },
          response: {
            content: [
              { type: "tool_use", id: "toolu_big", name: "Skill", input: { skill: "alpha", args: "a-1" } },
            ],
            usage: { input_tokens: 950_000 },
          },
        },
        summaryTurn("SUMMARY-MID"),
        textTurn("finished from the summary", { lastUserTextIncludes: "SUMMARY-MID" }),
      ],
    });
    const events = await e.send("long task");
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "finished from the summary" } });
    expect(e.bodies()).toHaveLength(3);
    expect(isSummary(e.body(1))).toBe(true);
    // The summary saw the tool result of the same turn.
    expect(JSON.stringify(e.body(1).messages)).toContain("toolu_big");
    // The turn went on from the compacted conversation: one user message (summary, alpha re-attached, listing).
    const next = e.body(2);
    expect(next.messages).toHaveLength(1);
    const [listing, summary, skills] = textBlocks(next.messages[0]?.content ?? "");
    expect(summary).toContain("<summary>\nSUMMARY-MID\n</summary>");
    expect(skills).toContain('## Skill "alpha", previously invoked in this session');
    expect(listing).toBe(FULL_LISTING);
    const hook = JSON.parse(await readFile(join(e.cwd, "precompact.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(hook).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto" });
    expect((await transcript(e)).filter((x) => x.type === "compaction")).toHaveLength(1);
  });
});

describe("auto-compaction edge cases", () => {
  it("a mid-turn compaction that fails is a warning, the turn goes on, and it is not retried in that turn", async () => {
    const big = (id: string) => ({
      response: {
        content: [{ type: "tool_use" as const, id, name: "Skill", input: { skill: "alpha", args: id } }],
        usage: { input_tokens: 950_000 },
      },
    });
    e = await startHarness({
      files: TREE,
      turns: [
        { match: { lastUserTextIncludes: "long task" }, ...big("toolu_1") },
        { match: SUMMARY_MATCH, fault: { kind: "http", status: 400, message: "no summary today" } },
        { match: { hasToolResultFor: "toolu_1" }, ...big("toolu_2") },
        textTurn("done without compaction", { hasToolResultFor: "toolu_2" }),
      ],
    });
    const events = await e.send("long task");
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "done without compaction" } });
    expect(e.bodies().filter(isSummary)).toHaveLength(1);
    expect(
      events.filter((ev) => ev.type === "warning").map((ev) => ("message" in ev ? ev.message : "")),
    ).toEqual([expect.stringContaining("no summary today")]);
    expect((await transcript(e)).filter((x) => x.type === "compaction")).toEqual([]);
  });

  it("a turn that fails after an auto-compaction does not compact again on the old usage", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        { response: { content: [{ type: "text", text: "big" }], usage: { input_tokens: 950_000 } } },
        summaryTurn("SUMMARY-AUTO"),
        { fault: { kind: "http", status: 400, message: "bad request on purpose" } },
      ],
    });
    await e.send("one");
    expect(e.bodies().filter(isSummary)).toHaveLength(1);
    const events = await e.send("two");
    expect(events.some((ev) => ev.type === "error")).toBe(true);
    expect(e.bodies().filter(isSummary)).toHaveLength(1);
  });
});
