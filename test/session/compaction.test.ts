import { describe, expect, it } from "vitest";
import type { ModelContentBlock, ModelMessage } from "../../src/agent/model-types.js";
import { formatListingBlock } from "../../src/listing/block.js";
import { buildCompactedMessages, summaryBlockText } from "../../src/session/compaction/compacted-messages.js";
import {
  droppedSkillsNote,
  invocationEntry,
  invocationsFromTranscript,
  planReattachment,
  REATTACH_INTRO,
  REATTACH_SKILL_TOKEN_CAP,
  REATTACH_TOTAL_TOKEN_CAP,
  reattachedSkillHeading,
  reattachInvokedSkills,
  truncationNote,
} from "../../src/session/compaction/reattach.js";
import {
  ELIDED_LISTING,
  ELIDED_REATTACHED_SKILLS,
  EMPTY_MESSAGE,
  SUMMARY_INSTRUCTION,
  SUMMARY_SYSTEM_PROMPT,
  SUMMARY_TOOL_RESULT_CHARS,
  summaryFromResponse,
  summaryRequest,
} from "../../src/session/compaction/summary-request.js";
import {
  estimateTokens,
  messagesTokens,
  nextRequestTokens,
  promptTokens,
  shouldAutoCompact,
} from "../../src/session/compaction/tokens.js";
import type { TranscriptEntry } from "../../src/session/transcript-store.js";
import type { InvokedSkill } from "../../src/skill-tool/invoked-skill.js";
import { seededRandom } from "../support/seeded-random.js";

const REATTACH_PREFIX = `<system-reminder>\n${REATTACH_INTRO}`;
const CAP_CHARS = REATTACH_SKILL_TOKEN_CAP * 4;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function inv(name: string, text: string, at: number, extra: Partial<InvokedSkill> = {}): InvokedSkill {
  return { name, args: "", text, at, ...extra };
}

function texts(messages: readonly ModelMessage[]): string[] {
  return messages.flatMap((m) =>
    typeof m.content === "string"
      ? [m.content]
      : m.content.flatMap((b) => (b.type === "text" ? [b.text] : [`<${b.type}>`])),
  );
}

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n += 1;
  return n;
}

describe("estimateTokens / messagesTokens / promptTokens", () => {
  it.each([
    ["", 0],
    ["a", 1],
    ["abcd", 1],
    ["abcde", 2],
    ["x".repeat(8), 2],
    ["😀", 1],
  ])("estimateTokens(%j) = %i", (text, want) => {
    expect(estimateTokens(text)).toBe(want);
  });

  it.each<{ case: string; messages: ModelMessage[]; want: number }>([
    { case: "nothing", messages: [], want: 0 },
    { case: "string content", messages: [{ role: "user", content: "abcdefgh" }], want: 2 },
    {
      case: "text blocks are counted each",
      messages: [
        {
          role: "assistant",
          content: [
            { type: "text", text: "abcde" },
            { type: "text", text: "a" },
          ],
        },
      ],
      want: 3,
    },
    {
      case: "tool_use counts name and JSON input",
      messages: [
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }],
        },
      ],
      want: 1 + 4,
    },
    {
      case: "tool_result with text and an image",
      messages: [
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [
                { type: "text", text: "abcdefghi" },
                { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
              ],
            },
            { type: "tool_result", tool_use_id: "t2", content: "abcd" },
          ],
        },
      ],
      want: 3 + 1_600 + 1,
    },
  ])("messagesTokens: $case", ({ messages, want }) => {
    expect(messagesTokens(messages)).toBe(want);
  });

  it("promptTokens adds the cached parts", () => {
    expect(
      promptTokens({
        input_tokens: 10,
        output_tokens: 99,
        cache_read_input_tokens: 1_000,
        cache_creation_input_tokens: 200,
      }),
    ).toBe(1_210);
  });

  it("nextRequestTokens adds the answer and what came after it (tool results) to the last prompt", () => {
    const usage = {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 0,
    };
    const messages: ModelMessage[] = [
      { role: "user", content: "x".repeat(4_000) },
      { role: "assistant", content: [{ type: "tool_use", id: "t", name: "T", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "y".repeat(400) }] },
    ];
    expect(nextRequestTokens(usage, messages)).toBe(110 + 5 + 100);
    expect(nextRequestTokens(usage, messages.slice(0, 2))).toBe(115);
    expect(nextRequestTokens(usage, [])).toBe(115);
  });
});

describe("shouldAutoCompact", () => {
  it.each<{
    case: string;
    inputTokens: number;
    contextWindow: number | undefined;
    threshold?: number;
    want: boolean;
  }>([
    { case: "just under 80%", inputTokens: 159_999, contextWindow: 200_000, want: false },
    { case: "exactly 80%", inputTokens: 160_000, contextWindow: 200_000, want: true },
    { case: "over the window", inputTokens: 250_000, contextWindow: 200_000, want: true },
    {
      case: "custom threshold not reached",
      inputTokens: 160_000,
      contextWindow: 200_000,
      threshold: 0.9,
      want: false,
    },
    {
      case: "custom threshold reached",
      inputTokens: 100_000,
      contextWindow: 200_000,
      threshold: 0.5,
      want: true,
    },
    { case: "unknown window", inputTokens: 10_000_000, contextWindow: undefined, want: false },
    { case: "zero window", inputTokens: 1, contextWindow: 0, want: false },
    { case: "NaN window", inputTokens: 1, contextWindow: Number.NaN, want: false },
  ])("$case", ({ inputTokens, contextWindow, threshold, want }) => {
    expect(
      shouldAutoCompact({ inputTokens, contextWindow, ...(threshold === undefined ? {} : { threshold }) }),
    ).toBe(want);
  });

  it.each([0, -0.5, 1.5, Number.NaN])("rejects threshold %d", (threshold) => {
    expect(() => shouldAutoCompact({ inputTokens: 1, contextWindow: 10, threshold })).toThrow(RangeError);
  });
});

describe("framing texts", () => {
  it.each([
    [
      summaryBlockText("  Did X.\nNext: Y.  "),
      "This conversation was compacted to free context. The earlier messages were replaced by the summary below, " +
        "written at that point; they are no longer available. Continue the work from where it stopped, without " +
        "asking the user to repeat what the summary covers.\n\n<summary>\nDid X.\nNext: Y.\n</summary>",
    ],
    [
      reattachedSkillHeading("deploy", 'prod "eu"'),
      '## Skill "deploy", previously invoked in this session\n' +
        'Arguments (historical, not to be re-executed): "prod \\"eu\\""',
    ],
    [
      reattachedSkillHeading("plan", ""),
      '## Skill "plan", previously invoked in this session\nArguments (historical, not to be re-executed): none',
    ],
    [
      truncationNote(12_345),
      "[Truncated when re-attached after compaction: the last 12,345 chars of this skill's text were left out " +
        "(limit 5,000 tokens per skill).]",
    ],
    [
      droppedSkillsNote(["a", "b:c"]),
      '(Not re-attached, to stay within 25,000 tokens of skill text: "a", "b:c". Invoke a skill again with the ' +
        "Skill tool if it is needed now.)",
    ],
  ])("%#", (got, want) => {
    expect(got).toBe(want);
  });

  it.each([
    "invoked earlier in this session",
    "arguments are historical and must not be re-executed",
    "do not re-run its inline shell commands",
    "newest first",
  ])("the re-attach intro says %j", (phrase) => {
    expect(REATTACH_INTRO).toContain(phrase);
  });

  it.each(["User goals", "Decisions", "Files and commands", "Errors", "Open tasks", "do not call tools"])(
    "the summary instruction asks for %j",
    (phrase) => {
      expect(SUMMARY_INSTRUCTION).toContain(phrase);
    },
  );
});

describe("reattachInvokedSkills", () => {
  it("renders the last expansion of each main-agent skill, newest first, with its heading", () => {
    const block = reattachInvokedSkills([
      inv("a", "A old", 1, { args: "x" }),
      inv("b", "B text", 2),
      inv("a", "A new", 3, { args: "y z" }),
      inv("c", "C from a fork", 4, { agentId: "agent-1" }),
    ]);
    expect(block).toBe(
      `<system-reminder>\n${REATTACH_INTRO}\n\n` +
        `${reattachedSkillHeading("a", "y z")}\n\nA new\n\n` +
        `${reattachedSkillHeading("b", "")}\n\nB text\n</system-reminder>`,
    );
  });

  it.each<{ case: string; invocations: InvokedSkill[] }>([
    { case: "no invocations", invocations: [] },
    { case: "only sub-agent invocations", invocations: [inv("a", "A", 1, { agentId: "x" })] },
    // A forked skill's text was its sub-agent's task: the main conversation never held it.
    { case: "only the main agent's forks", invocations: [inv("f", "F task", 1, { fork: true })] },
  ])("is undefined for $case", ({ invocations }) => {
    expect(reattachInvokedSkills(invocations)).toBeUndefined();
  });

  it.each<{ case: string; invocations: InvokedSkill[]; want: string[] }>([
    {
      case: "a tie on time goes to the later record",
      invocations: [inv("a", "first", 5), inv("b", "b", 5), inv("a", "second", 5)],
      want: ["a:second", "b:b"],
    },
    {
      case: "an older record later in the list does not win",
      invocations: [inv("a", "new", 9), inv("b", "b", 5), inv("a", "stale", 2)],
      want: ["a:new", "b:b"],
    },
  ])("$case", ({ invocations, want }) => {
    expect(planReattachment(invocations).included.map((s) => `${s.name}:${s.text}`)).toEqual(want);
  });

  it("truncates a long text without line breaks at the cap, with a note", () => {
    const text = "x".repeat(30_000);
    const [skill] = planReattachment([inv("big", text, 1)]).included;
    const head = CAP_CHARS - 240;
    expect(skill?.text).toBe(`${"x".repeat(head)}\n\n${truncationNote(30_000 - head)}`);
    expect(skill?.truncated).toBe(true);
    expect(skill?.tokens).toBeLessThanOrEqual(REATTACH_SKILL_TOKEN_CAP);
  });

  it("cuts at a nearby line break and never splits a surrogate pair", () => {
    const lines = `${"y".repeat(CAP_CHARS - 700)}\n${"z".repeat(50_000)}`;
    expect(planReattachment([inv("s", lines, 1)]).included[0]?.text).toBe(
      `${"y".repeat(CAP_CHARS - 700)}\n\n${truncationNote(50_001)}`,
    );
    const emoji = `a${"😀".repeat(20_000)}`;
    const text = planReattachment([inv("e", emoji, 1)]).included[0]?.text ?? "";
    expect(LONE_SURROGATE.test(text)).toBe(false);
    expect(emoji.startsWith(text.slice(0, text.indexOf("\n\n[Truncated")))).toBe(true);
  });

  it("keeps a text of exactly the cap whole", () => {
    const text = "q".repeat(CAP_CHARS);
    expect(planReattachment([inv("q", text, 1)]).included[0]).toMatchObject({ text, truncated: false });
  });

  it("drops older skills over the total cap, names them, and still fits a smaller older one", () => {
    const big = (n: number) => inv(`big${n}`, `${n}`.repeat(CAP_CHARS), n + 10);
    const invocations = [
      inv("small-old", "tiny", 1),
      inv("huge-old", "h".repeat(CAP_CHARS * 3), 2),
      ...[1, 2, 3, 4, 5].map(big),
    ];
    const plan = planReattachment(invocations);
    expect(plan.included.map((s) => s.name)).toEqual(["big5", "big4", "big3", "big2", "big1"]);
    expect(plan.dropped).toEqual(["huge-old", "small-old"]);
    const medium = inv("medium", "m".repeat(4_000), 11);
    const fewer = planReattachment(invocations.map((i) => (i.name === "big1" ? medium : i)));
    expect(fewer.included.map((s) => s.name)).toEqual([
      "big5",
      "big4",
      "big3",
      "big2",
      "medium",
      "small-old",
    ]);
    expect(fewer.dropped).toEqual(["huge-old"]);
    const block = reattachInvokedSkills(invocations) ?? "";
    expect(block.endsWith(`\n\n${droppedSkillsNote(["huge-old", "small-old"])}\n</system-reminder>`)).toBe(
      true,
    );
  });
});

describe("invocationsFromTranscript", () => {
  it("keeps skill entries in order with parsed times", () => {
    const entries: TranscriptEntry[] = [
      { type: "session", id: "s", cwd: "/", createdAt: "2025-01-01T00:00:00Z", model: "m" },
      { type: "skill", name: "a", args: "1", text: "A", at: "2025-01-01T00:00:01.000Z" },
      { type: "message", message: { role: "user", content: "hi" }, at: "2025-01-01T00:00:02Z" },
      { type: "skill", name: "b", args: "", text: "B", agentId: "f1", at: "garbage" },
    ];
    expect(invocationsFromTranscript(entries)).toEqual([
      { name: "a", args: "1", text: "A", at: Date.UTC(2025, 0, 1, 0, 0, 1) },
      { name: "b", args: "", text: "B", agentId: "f1", at: 0 },
    ]);
  });

  it("reads back what invocationEntry writes", () => {
    const invocations = [
      { name: "a", args: "x y", text: "A", at: Date.UTC(2025, 0, 1, 0, 0, 1) },
      { name: "b", args: "", text: "B", agentId: "fork-1", at: Date.UTC(2025, 0, 2) },
      { name: "f", args: "", text: "F task", fork: true as const, at: Date.UTC(2025, 0, 3) },
    ];
    const entries = invocations.map(invocationEntry);
    expect(entries[0]).toEqual({
      type: "skill",
      name: "a",
      args: "x y",
      text: "A",
      at: "2025-01-01T00:00:01.000Z",
    });
    expect(invocationsFromTranscript(entries)).toEqual(invocations);
  });
});

describe("buildCompactedMessages", () => {
  const listingText = formatListingBlock(["- a: does A", "- b"]);

  it("is one user message: listing blocks as given, summary, re-attached skills", () => {
    const invocations = [inv("a", "A body", 1)];
    const delta = formatListingBlock(["- c: later"]);
    expect(buildCompactedMessages({ summary: "S", invocations, listing: [listingText, delta] })).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: listingText },
          { type: "text", text: delta },
          { type: "text", text: summaryBlockText("S") },
          { type: "text", text: reattachInvokedSkills(invocations) },
        ],
      },
    ]);
  });

  it("leaves out the skills block when none were invoked and empty listing blocks", () => {
    expect(buildCompactedMessages({ summary: "S", invocations: [], listing: ["", " "] })).toEqual([
      { role: "user", content: [{ type: "text", text: summaryBlockText("S") }] },
    ]);
  });
});

describe("summaryRequest", () => {
  it("renders tools as text, keeps roles, and ends with the instruction", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "fix the bug" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "t1", name: "Read", input: { path: "a.ts" } },
          { type: "tool_use", id: "t2", name: "Bash", input: { command: "false" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "const a = 1;" }] },
          { type: "tool_result", tool_use_id: "t2", content: "exit 1", is_error: true },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
        ],
      },
      { role: "assistant", content: "Fixed." },
    ];
    expect(summaryRequest(messages)).toEqual({
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [
        { role: "user", content: [{ type: "text", text: "fix the bug" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Looking." },
            { type: "text", text: '[Tool call Read (t1) with input: {"path":"a.ts"}]' },
            { type: "text", text: '[Tool call Bash (t2) with input: {"command":"false"}]' },
          ],
        },
        {
          role: "user",
          content: [
            { type: "text", text: "[Result of Read (t1)]\nconst a = 1;" },
            { type: "text", text: "[Result of Bash (t2) (error)]\nexit 1" },
            { type: "text", text: "[image]" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "Fixed." }] },
        { role: "user", content: [{ type: "text", text: SUMMARY_INSTRUCTION }] },
      ],
    });
  });

  it.each<{ case: string; messages: ModelMessage[]; want: Array<[ModelMessage["role"], string[]]> }>([
    { case: "no messages", messages: [], want: [["user", [SUMMARY_INSTRUCTION]]] },
    {
      case: "a trailing user message gets the instruction",
      messages: [{ role: "user", content: "go" }],
      want: [["user", ["go", SUMMARY_INSTRUCTION]]],
    },
    {
      case: "consecutive user messages merge, blank text is dropped",
      messages: [
        { role: "user", content: "one" },
        {
          role: "user",
          content: [
            { type: "text", text: "  " },
            { type: "text", text: "two" },
          ],
        },
        { role: "assistant", content: "ok" },
      ],
      want: [
        ["user", ["one", "two"]],
        ["assistant", ["ok"]],
        ["user", [SUMMARY_INSTRUCTION]],
      ],
    },
    {
      case: "a leading assistant message and an empty one",
      messages: [
        { role: "assistant", content: "hello" },
        { role: "user", content: [] },
        { role: "assistant", content: "" },
      ],
      want: [
        ["user", [EMPTY_MESSAGE]],
        ["assistant", ["hello"]],
        ["user", [EMPTY_MESSAGE]],
        ["assistant", [EMPTY_MESSAGE]],
        ["user", [SUMMARY_INSTRUCTION]],
      ],
    },
  ])("$case", ({ messages, want }) => {
    const got = summaryRequest(messages).messages.map((m) => [m.role, texts([m])]);
    expect(got).toEqual(want);
  });

  it("cuts the middle of a long tool result", () => {
    const output = `${"a".repeat(SUMMARY_TOOL_RESULT_CHARS)}${"b".repeat(SUMMARY_TOOL_RESULT_CHARS)}`;
    const block: ModelContentBlock = { type: "tool_result", tool_use_id: "t9", content: output };
    const [first] = summaryRequest([{ role: "user", content: [block] }]).messages;
    const half = SUMMARY_TOOL_RESULT_CHARS / 2;
    expect(texts(first ? [first] : [])[0]).toBe(
      `[Result of tool (t9)]\n${"a".repeat(half)}\n[… ${SUMMARY_TOOL_RESULT_CHARS} chars left out …]\n${"b".repeat(half)}`,
    );
  });

  it("replaces a previous compaction's skills and listing, keeps its summary and listing deltas", () => {
    const listingText = formatListingBlock(["- a: does A"]);
    const delta = formatListingBlock(["- new-one: later"], {
      header: "New skills discovered in x/.claude/skills",
    });
    const compacted = buildCompactedMessages({
      summary: "S1",
      invocations: [inv("a", "A", 1)],
      listing: [listingText],
    });
    const request = summaryRequest([
      ...compacted,
      { role: "assistant", content: "ok" },
      { role: "user", content: delta },
    ]);
    expect(request.messages.map((m) => texts([m]))).toEqual([
      [ELIDED_LISTING, summaryBlockText("S1"), ELIDED_REATTACHED_SKILLS],
      ["ok"],
      [delta, SUMMARY_INSTRUCTION],
    ]);
  });
});

describe("summaryFromResponse", () => {
  it.each<{
    case: string;
    content: Array<{ type: "text"; text: string }>;
    stop: "end_turn" | "max_tokens" | "refusal";
    want: unknown;
  }>([
    {
      case: "joined and trimmed",
      content: [
        { type: "text", text: " A " },
        { type: "text", text: "B\n" },
      ],
      stop: "end_turn",
      want: { ok: true, summary: "A \nB", truncated: false },
    },
    {
      case: "cut by max_tokens",
      content: [{ type: "text", text: "partial" }],
      stop: "max_tokens",
      want: { ok: true, summary: "partial", truncated: true },
    },
    {
      case: "empty",
      content: [{ type: "text", text: "  " }],
      stop: "end_turn",
      want: { ok: false, reason: "empty" },
    },
    {
      case: "refusal",
      content: [{ type: "text", text: "no" }],
      stop: "refusal",
      want: { ok: false, reason: "refusal" },
    },
  ])("$case", ({ content, stop, want }) => {
    expect(summaryFromResponse({ content, stop_reason: stop })).toMatchObject(want as object);
  });
});

const POOL = ["deploy", "review", "ns:lint", "Plan", "tiny", "big-one", "x", "pdf", "commit"];
const FILLERS = ["lorem ipsum dolor ", "a😀b", "line\n", "word ", "\n\n"];

function checkRequest(
  request: ReturnType<typeof summaryRequest>,
  listingText: string,
  toolCalls: number,
): void {
  const { messages } = request;
  expect(messages[0]?.role).toBe("user");
  messages.forEach((m, i) => {
    if (i > 0) expect(m.role).not.toBe(messages[i - 1]?.role);
    expect(Array.isArray(m.content) && m.content.length > 0).toBe(true);
    for (const block of m.content as ModelContentBlock[]) {
      expect(block.type).toBe("text");
      if (block.type === "text") expect(block.text.trim()).not.toBe("");
    }
  });
  const all = texts(messages);
  expect(all.at(-1)).toBe(SUMMARY_INSTRUCTION);
  expect(messages.at(-1)?.role).toBe("user");
  if (listingText !== "") expect(all.some((t) => t.includes(listingText))).toBe(false);
  expect(all.some((t) => t.startsWith(REATTACH_PREFIX))).toBe(false);
  expect(all.filter((t) => t.startsWith("[Tool call Skill (")).length).toBe(toolCalls);
}

function checkCompacted(
  messages: ModelMessage[],
  summary: string,
  invocations: readonly InvokedSkill[],
  listingText: string,
): void {
  expect(messages).toHaveLength(1);
  expect(messages[0]?.role).toBe("user");
  const blocks = texts(messages);
  const whole = blocks.join("\n\n");
  const listed = listingText === "" ? 0 : 1;
  expect(blocks[listed]).toBe(summaryBlockText(summary));
  if (listingText === "") expect(blocks[0]?.startsWith("<system-reminder>\nThe following")).toBe(false);
  else {
    expect(count(whole, listingText)).toBe(1);
    expect(blocks[0]).toBe(listingText);
  }

  // The expected state, straight from the sequence: times never decrease, so the last record is the latest.
  const latest = new Map<string, { invocation: InvokedSkill; index: number }>();
  invocations.forEach((invocation, index) => {
    if (invocation.agentId === undefined) latest.set(invocation.name, { invocation, index });
  });
  const newestFirst = [...latest.values()].sort((a, b) => b.index - a.index).map((e) => e.invocation);
  for (const name of POOL) {
    if (!latest.has(name)) expect(count(whole, `## Skill "${name}", previously invoked`)).toBe(0);
  }
  const skillsBlock = blocks.find((b) => b.startsWith(REATTACH_PREFIX));
  expect(blocks).toHaveLength(1 + (skillsBlock === undefined ? 0 : 1) + (listingText === "" ? 0 : 1));
  if (newestFirst.length === 0) {
    expect(skillsBlock).toBeUndefined();
    return;
  }
  expect(blocks[listed + 1]).toBe(skillsBlock);
  const block = skillsBlock ?? "";

  const present = newestFirst.filter((i) => count(whole, `## Skill "${i.name}", previously invoked`) > 0);
  const headings = present.map((i) => {
    const heading = `${reattachedSkillHeading(i.name, i.args)}\n\n`;
    expect(count(whole, `## Skill "${i.name}", previously invoked`)).toBe(1);
    expect(count(block, heading)).toBe(1);
    return { invocation: i, heading, at: block.indexOf(heading) };
  });
  headings.forEach((h, k) => {
    if (k > 0) expect(h.at).toBeGreaterThan(headings[k - 1]?.at ?? 0);
  });

  let total = 0;
  const tokensOf = new Map<string, number>();
  headings.forEach((h, k) => {
    const start = h.at + h.heading.length;
    const next = headings[k + 1];
    const droppedAt = block.indexOf("\n\n(Not re-attached, to stay within");
    const end =
      next !== undefined
        ? next.at - 2
        : droppedAt !== -1
          ? droppedAt
          : block.length - "\n</system-reminder>".length;
    const body = block.slice(start, end);
    const text = h.invocation.text;
    if (text.length <= CAP_CHARS) expect(body).toBe(text);
    else {
      const head = body.slice(0, body.lastIndexOf("\n\n[Truncated"));
      expect(body).toBe(`${head}\n\n${truncationNote(text.length - head.length)}`);
      expect(text.startsWith(head)).toBe(true);
      expect(head.length).toBeGreaterThanOrEqual(CAP_CHARS - 240 - 1_000);
      expect(LONE_SURROGATE.test(body)).toBe(false);
    }
    expect(estimateTokens(body)).toBeLessThanOrEqual(REATTACH_SKILL_TOKEN_CAP);
    tokensOf.set(h.invocation.name, estimateTokens(body));
    total += estimateTokens(body);
  });
  expect(total).toBeLessThanOrEqual(REATTACH_TOTAL_TOKEN_CAP);

  const dropped = newestFirst.filter((i) => !present.includes(i));
  if (dropped.length === 0) expect(block).not.toContain("(Not re-attached");
  else expect(block).toContain(droppedSkillsNote(dropped.map((i) => i.name)));
  for (const d of dropped) {
    const newerUsed = newestFirst
      .slice(0, newestFirst.indexOf(d))
      .reduce((sum, i) => sum + (tokensOf.get(i.name) ?? 0), 0);
    // Capping one skill alone is checked above for every included skill; reuse it for the dropped one.
    const alone = planReattachment([d]).included[0]?.tokens ?? 0;
    expect(alone).toBe(d.text.length <= CAP_CHARS ? estimateTokens(d.text) : alone);
    expect(newerUsed + alone).toBeGreaterThan(REATTACH_TOTAL_TOKEN_CAP);
  }
}

describe("compaction properties (seeded random sequences)", () => {
  // 300 pure-CPU sequences: ~5 s on an idle core, 38 s seen with six other test runs on two cores. The
  // timeout is a hang guard only, so it allows for a machine that busy.
  it("re-attaches each surviving skill once, latest text, within caps, newest first; listing once", {
    timeout: 180_000,
  }, () => {
    let compactions = 0;
    let drops = 0;
    let truncations = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const rand = seededRandom(seed);
      const int = (n: number) => Math.floor(rand() * n);
      const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
      const entries = Array.from({ length: int(6) }, (_, i) => `- skill-${seed}-${i}: does ${i}`);
      const listingText = rand() < 0.1 ? "" : formatListingBlock(entries.length > 0 ? entries : ["- only"]);
      const invocations: InvokedSkill[] = [];
      const heavy = rand();
      let messages: ModelMessage[] = [{ role: "user", content: `task ${seed}` }];
      let toolCalls = 0;
      let clock = 1_000;
      const ops = 5 + int(35);
      for (let op = 0; op <= ops; op += 1) {
        const roll = rand();
        if (op < ops && roll < 0.7) {
          const name = pick(POOL);
          const size = rand() < heavy ? int(40_001) : int(3_000);
          const body = pick(FILLERS)
            .repeat(Math.ceil(size / 4) + 1)
            .slice(0, size);
          const text = `Base directory for this skill: /s/${name}\n\n#${seed}.${op} ${body}`;
          clock += int(3);
          const args = rand() < 0.5 ? "" : `arg ${op} "q"`;
          const agentId = rand() < 0.15 ? `agent-${op}` : undefined;
          invocations.push({ name, args, text, at: clock, ...(agentId === undefined ? {} : { agentId }) });
          if (agentId !== undefined) continue;
          const id = `t${seed}-${op}`;
          messages.push({
            role: "assistant",
            content: [{ type: "tool_use", id, name: "Skill", input: { skill: name, args } }],
          });
          messages.push({
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: id, content: `Launching skill: ${name}` },
              { type: "text", text },
            ],
          });
          toolCalls += 1;
        } else if (op < ops && roll < 0.85) {
          messages.push(
            { role: "assistant", content: `reply ${op}` },
            { role: "user", content: `prompt ${op}` },
          );
        } else {
          const request = summaryRequest(messages);
          checkRequest(request, listingText, toolCalls);
          const summary = `Summary ${compactions}: ${request.messages.length} messages, ${messagesTokens(request.messages)} tokens`;
          messages = buildCompactedMessages({ summary, invocations, listing: [listingText] });
          checkCompacted(messages, summary, invocations, listingText);
          const plan = planReattachment(invocations);
          drops += plan.dropped.length;
          truncations += plan.included.filter((s) => s.truncated).length;
          compactions += 1;
          toolCalls = 0;
        }
      }
    }
    // The generator must reach the interesting cases, or the properties above prove little.
    expect(compactions).toBeGreaterThan(1_000);
    expect(drops).toBeGreaterThan(50);
    expect(truncations).toBeGreaterThan(100);
  });
});
