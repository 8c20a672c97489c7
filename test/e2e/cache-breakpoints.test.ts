import { afterEach, describe, expect, it } from "vitest";
import { type Harness, skillMd, startHarness } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

interface Block {
  type: string;
  text?: string;
  cache_control?: unknown;
}
interface Body {
  tools?: { cache_control?: unknown }[];
  system?: Block[];
  messages: { role: string; content: string | Block[] }[];
}

/** Every `cache_control` in a recorded body: tools, system blocks, message blocks. */
function breakpoints(body: Body): string[] {
  const marks: string[] = [];
  for (const [i, t] of (body.tools ?? []).entries())
    if (t.cache_control !== undefined) marks.push(`tools[${i}]`);
  for (const [i, b] of (body.system ?? []).entries())
    if (b.cache_control !== undefined) marks.push(`system[${i}]`);
  for (const [m, message] of body.messages.entries()) {
    if (typeof message.content === "string") continue;
    for (const [i, b] of message.content.entries())
      if (b.cache_control !== undefined) marks.push(`messages[${m}][${i}]`);
  }
  return marks;
}

describe("prompt-cache breakpoints in recorded request bodies", () => {
  it("a fork's opening listing ends at a breakpoint, so the next fork can read it from the cache", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/audit-a/SKILL.md": skillMd("description: Audit A\ncontext: fork", "TASK-A"),
        "project/.claude/skills/audit-b/SKILL.md": skillMd("description: Audit B\ncontext: fork", "TASK-B"),
      },
      turns: [
        toolTurn("Skill", { skill: "audit-a" }, { match: { agentId: null } }),
        textTurn("A done", { agentId: "*" }),
        toolTurn("Skill", { skill: "audit-b" }, { match: { agentId: null } }),
        textTurn("B done", { agentId: "*" }),
        textTurn("all done", { agentId: null }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("run both audits");
    const forks = e.forkRequests().map((r) => r.body as Body);
    expect(forks).toHaveLength(2);
    const openings = forks.map((body) => body.messages[0]?.content as Block[]);
    for (const opening of openings) {
      expect(opening).toHaveLength(2);
      expect(opening[0]?.text).toContain("The following skills are available");
      // The listing (shared by both forks) and the task (the newest block) both end a cacheable prefix.
      expect(opening.map((b) => b.cache_control)).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
    }
    expect(openings[1]?.[0]).toEqual(openings[0]?.[0]);
    // Never more breakpoints than the API accepts.
    for (const body of [...e.bodies(), ...forks] as Body[])
      expect(breakpoints(body).length).toBeLessThanOrEqual(4);
    // The main thread keeps its opening listing cacheable in later requests too.
    const later = e.bodies().at(-1) as Body;
    expect(breakpoints(later)).toContain("messages[0][0]");
  });
});

describe("a fork's opening listing", () => {
  it("is the main agent's full listing as sent, then a delta of skills activated since", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/audit-a/SKILL.md": skillMd("description: Audit A\ncontext: fork", "TASK-A"),
        "project/.claude/skills/audit-b/SKILL.md": skillMd("description: Audit B\ncontext: fork", "TASK-B"),
        "project/.claude/skills/sql/SKILL.md": skillMd('description: SQL rules\npaths: "**/*.sql"', "SQL"),
        "project/db/schema.sql": "create table t (id int);\n",
      },
      turns: [
        toolTurn("Skill", { skill: "audit-a" }, { match: { agentId: null } }),
        textTurn("A done", { agentId: "*" }),
        toolTurn("Read", { path: "db/schema.sql" }, { match: { agentId: null } }),
        toolTurn("Skill", { skill: "audit-b" }, { match: { agentId: null } }),
        textTurn("B done", { agentId: "*" }),
        textTurn("all done", { agentId: null }),
      ],
      session: { allowedTools: ["Skill", "Read"] },
    });
    await e.send("audit, read the schema, audit again");
    const [first, second] = e.forkRequests().map((r) => r.body as Body);
    const a = first?.messages[0]?.content as Block[];
    const b = second?.messages[0]?.content as Block[];
    expect(a.map((x) => x.text?.split("\n").find((l) => l.startsWith("- sql")))).toEqual([
      undefined,
      undefined,
    ]);
    // The second fork opens with the first fork's listing block, byte for byte, then a delta with the new skill.
    expect(b).toHaveLength(3);
    expect(b[0]?.text).toBe(a[0]?.text);
    expect(b[1]?.text).toBe(
      "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- sql: SQL rules\n</system-reminder>",
    );
    expect(b[2]?.text).toContain("TASK-B");
    // The main agent got the same two listings: the full one first, the delta after the Read.
    const mainTexts = e
      .bodies()
      .at(-1)
      ?.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    const listings = (mainTexts as Block[]).filter((x) =>
      x.text?.includes("The following skills are available"),
    );
    expect(listings.map((x) => x.text)).toEqual([a[0]?.text, b[1]?.text]);
  });
});

describe("the main agent's listing after compaction", () => {
  it("opens with the session's first listing, byte for byte, then a delta, before the summary", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/alpha/SKILL.md": skillMd("description: Alpha steps", "ALPHA"),
        "project/.claude/skills/sql/SKILL.md": skillMd('description: SQL rules\npaths: "**/*.sql"', "SQL"),
        "project/db/schema.sql": "create table t (id int);\n",
      },
      turns: [
        toolTurn("Read", { path: "db/schema.sql" }, { match: { agentId: null } }),
        textTurn("read it", { agentId: null }),
        textTurn("SUMMARY-TEXT", { systemIncludes: "You summarize conversations" }),
        textTurn("carrying on", { agentId: null }),
      ],
      session: { allowedTools: ["Read"] },
    });
    await e.send("read the schema");
    await e.send("/compact");
    await e.send("go on");
    const first = e.body(0).messages[0]?.content as Block[];
    const after = e.bodies().at(-1)?.messages[0]?.content as Block[];
    expect(first[0]?.text).toContain("- alpha: Alpha steps");
    expect(first[0]?.text).not.toContain("- sql");
    // The first listing as sent (still cached with tools + system), then what became visible since, then the rest.
    expect(after[0]?.text).toBe(first[0]?.text);
    expect(after[1]?.text).toBe(
      "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- sql: SQL rules\n</system-reminder>",
    );
    expect(after[2]?.text).toContain("<summary>\nSUMMARY-TEXT\n</summary>");
  });
});
