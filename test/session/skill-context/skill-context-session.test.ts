/**
 * Expiring skill context (issue 31 item 1) on a real session against the scripted model server: what each
 * request sends, the prefix breaks of the recorded bodies, re-invocation, compaction and the host's
 * `transformContext`.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { ModelMessage } from "../../../src/agent/model-types.js";
import { createEngine } from "../../../src/engine/engine.js";
import { createMemoryFs } from "../../../src/io/memory-fs.js";
import { REATTACH_INTRO } from "../../../src/session/compaction/reattach.js";
import { openSession } from "../../../src/session/open.js";
import { expiredSkillStub } from "../../../src/session/skill-context/expiry.js";
import { defineSkillTool } from "../../../src/skill/skill-tools.js";
import { notLoadedText } from "../../../src/skill-tool/owned-tools.js";
import { createMemorySource } from "../../../src/sources/memory-source.js";
import {
  type Harness,
  type RequestBody,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResultsOf,
} from "../../support/harness.js";
import { startTestModel, textTurn, toolTurn } from "../../support/model-server.js";
import { prefixBreaks } from "../../support/prefix-breaks.js";
import type { TreeEntry } from "../../support/tmp-tree.js";

const BIG_BODY = `BIG-SKILL-START\n${"Follow step 42 carefully and report.\n".repeat(560)}BIG-SKILL-END`;
const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/big/SKILL.md": skillMd("description: A big skill\nttl-turns: 1", BIG_BODY),
  "project/.claude/skills/small/SKILL.md": skillMd("description: A small skill", "SMALL-BODY $ARGUMENTS"),
  "project/.claude/skills/tiny/SKILL.md": skillMd("description: A tiny skill", "TINY-BODY"),
  "project/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill"] } }),
};
const STUB = expiredSkillStub("big");

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every text block of every message of a body (tool results' text too), joined. */
function allText(body: RequestBody): string {
  return body.messages
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((b) =>
            b.type === "tool_result"
              ? typeof b.content === "string"
                ? [b.content]
                : (b.content ?? []).map((c) => c.text ?? "")
              : [b.text ?? ""],
          ),
    )
    .join("\n");
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("ttl-turns: an inline expansion leaves the requests after N further user turns", () => {
  it("ttl-turns 1: body in turns 1-2, stub from turn 3, one prefix break; a re-invocation sends the body again", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "big" }),
        textTurn("one"),
        textTurn("two"),
        textTurn("three"),
        toolTurn("Skill", { skill: "big" }),
        textTurn("four"),
      ],
    });
    for (const prompt of ["use big", "second", "third", "fourth"]) await h.send(prompt);
    const bodies = h.bodies();
    expect(bodies).toHaveLength(6);
    // Requests: 1 prompt, 2 skill result, 3 turn 2, 4 turn 3, 5 turn 4, 6 the re-invocation's result.
    expect(bodies.map((b) => count(allText(b), "BIG-SKILL-START"))).toEqual([0, 1, 1, 0, 0, 1]);
    expect(bodies.map((b) => count(allText(b), STUB))).toEqual([0, 0, 0, 1, 1, 1]);
    // The re-invocation is a first one again: the full body, never the already-loaded marker.
    const last = bodies[5]?.messages.at(-1);
    const lastTexts = last === undefined ? [] : textBlocks(last.content);
    expect(lastTexts.some((t) => t.includes("BIG-SKILL-START"))).toBe(true);
    expect(allText(bodies[5] as RequestBody)).not.toContain("already loaded");
    expect(prefixBreaks(bodies)).toEqual([4]);
    // system and tools never change.
    expect(new Set(bodies.map((b) => JSON.stringify([b.system, b.tools]))).size).toBe(1);
    // The conversation (and so the transcript) keeps the original.
    const kept = h.opened.session.messages().flatMap((m) => textBlocks(m.content as never));
    expect(kept.filter((t) => t.includes("BIG-SKILL-START"))).toHaveLength(2);
    expect(kept).not.toContain(STUB);
  });

  it("skillContext.expireAfterUserTurns 0 is the session default; a skill's ttl-turns wins over it", async () => {
    h = await startHarness({
      files: TREE,
      session: { skillContext: { expireAfterUserTurns: 0 } },
      turns: [toolTurn("Skill", { skill: "small", args: "x" }), textTurn("one"), textTurn("two")],
    });
    await h.send("use small");
    await h.send("next");
    const [, second, third] = h.bodies();
    expect(allText(second as RequestBody)).toContain("SMALL-BODY x");
    expect(allText(third as RequestBody)).not.toContain("SMALL-BODY");
    expect(allText(third as RequestBody)).toContain(expiredSkillStub("small"));
  });

  it("maxTokens: at the start of a turn, the least recently invoked expansions expire until the rest fit", async () => {
    h = await startHarness({
      files: {
        ...TREE,
        "project/.claude/skills/wide/SKILL.md": skillMd(
          "description: Wide",
          `WIDE-BODY ${"w".repeat(8_000)}`,
        ),
      },
      // wide (~2,030 tokens, turn 1) fits alone; with small (~130 tokens, turn 2) the two pass 2,100, so wide
      // (the less recently invoked) goes and small stays.
      session: { skillContext: { maxTokens: 2_100 } },
      turns: [
        toolTurn("Skill", { skill: "wide" }),
        textTurn("one"),
        toolTurn("Skill", { skill: "small", args: "z".repeat(400) }),
        textTurn("two"),
        textTurn("three"),
      ],
    });
    await h.send("use wide");
    await h.send("use small");
    // Within turn 2 both are sent (expiry waits for a turn to start).
    expect(allText(h.body(3))).toContain("WIDE-BODY");
    expect(allText(h.body(3))).toContain("SMALL-BODY z");
    await h.send("next");
    const third = allText(h.body(4));
    expect(third).toContain("SMALL-BODY z");
    expect(third).not.toContain("WIDE-BODY");
    expect(third).toContain(expiredSkillStub("wide"));
    expect(prefixBreaks(h.bodies())).toEqual([5]);
  });

  it("a typed /name expires the same way; a re-invocation restarts the count, and its note goes with the body", async () => {
    h = await startHarness({
      files: TREE,
      session: { skillContext: { expireAfterUserTurns: 1 } },
      turns: [
        textTurn("one"),
        toolTurn("Skill", { skill: "small", args: "other" }),
        textTurn("two"),
        textTurn("three"),
        textTurn("four"),
      ],
    });
    await h.send("/small first"); // turn 1
    await h.send("again with new args"); // turn 2: a re-invocation (note + the first body)
    expect(allText(h.body(2))).toContain("Re-invocation of /small");
    await h.send("third"); // turn 3: one further turn since the last use: still sent
    expect(allText(h.body(3))).toContain("SMALL-BODY");
    await h.send("fourth"); // turn 4: expired
    const text = allText(h.body(4));
    expect(text).not.toContain("SMALL-BODY");
    expect(text).not.toContain("Re-invocation of /small");
    // One stub for the typed expansion, one for the re-sent body (the note was dropped, not stubbed).
    expect(count(text, expiredSkillStub("small"))).toBe(2);
    expect(text).toContain("<command-message>small</command-message>");
    expect(prefixBreaks(h.bodies())).toEqual([5]);
  });
});

describe("compaction honours the TTL", () => {
  it("an expired skill is not re-attached; a live one is, and its section expires on time", async () => {
    h = await startHarness({
      files: {
        ...TREE,
        "project/.claude/skills/short/SKILL.md": skillMd("description: Short\nttl-turns: 1", "SHORT-BODY"),
        "project/.claude/skills/long/SKILL.md": skillMd("description: Long\nttl-turns: 2", "LONG-BODY"),
      },
      turns: [
        toolTurn("Skill", { skill: "long" }),
        toolTurn("Skill", { skill: "short" }),
        textTurn("one"),
        textTurn("two"),
        textTurn("SUMMARY-TEXT", { systemIncludes: "summar" }),
        textTurn("three"),
        textTurn("four"),
      ],
    });
    await h.send("use both"); // turn 1: long (ttl 2) and short (ttl 1)
    await h.send("second"); // turn 2
    await h.send("/compact");
    await h.send("third"); // turn 3: short expired (not re-attached); long re-attached
    const third = allText(h.bodies().at(-1) as RequestBody);
    expect(third).toContain("SUMMARY-TEXT");
    expect(third).toContain(REATTACH_INTRO);
    expect(third).toContain("LONG-BODY");
    expect(third).not.toContain("SHORT-BODY");
    await h.send("fourth"); // turn 4: long expires inside the re-attachment block
    const fourth = allText(h.bodies().at(-1) as RequestBody);
    expect(fourth).not.toContain("LONG-BODY");
    expect(fourth).toContain(expiredSkillStub("long"));
    expect(fourth).toContain(REATTACH_INTRO);
  });
});

describe("transformContext (the host's seam)", () => {
  it("is applied to every main request's messages, after the stubs; the conversation keeps the original", async () => {
    const seen: number[] = [];
    const transformContext = (messages: readonly ModelMessage[]): ModelMessage[] => {
      seen.push(messages.length);
      return [{ role: "user", content: [{ type: "text", text: "HOST-PREAMBLE" }] }, ...messages];
    };
    h = await startHarness({
      files: TREE,
      session: { transformContext },
      turns: [textTurn("ok"), textTurn("ok again")],
    });
    await h.send("hello");
    await h.send("again");
    const bodies = h.bodies();
    expect(seen).toEqual([1, 3]);
    for (const body of bodies) expect(textBlocks(body.messages[0]?.content ?? "")).toEqual(["HOST-PREAMBLE"]);
    expect(bodies[1]?.messages).toHaveLength(4);
    // The session's own messages are untouched.
    const messages = h.opened.session.messages();
    expect(messages).toHaveLength(4);
    expect(JSON.stringify(messages)).not.toContain("HOST-PREAMBLE");
  });
});

describe("an expired skill's own tools", () => {
  it("answer that the skill must be loaded again, as the stub says; loading it makes them callable again", async () => {
    const source = createMemorySource({
      skills: [
        {
          name: "pricing",
          description: "Quotes prices",
          body: "PRICING-BODY use quote.",
          tools: [
            defineSkillTool({
              name: "quote",
              description: "Quotes a price for a SKU",
              input: z.object({ sku: z.string() }),
              execute: async (input) => `price of ${input.sku}: 3 EUR`,
            }),
          ],
        },
      ],
    });
    const model = await startTestModel([
      toolTurn("Skill", { skill: "pricing" }),
      toolTurn("quote", { sku: "A1" }, { id: "first" }),
      textTurn("one"),
      toolTurn("quote", { sku: "B2" }, { id: "late" }),
      toolTurn("Skill", { skill: "pricing" }, { match: { hasToolResultFor: "late" } }),
      toolTurn("quote", { sku: "B2" }, { id: "again" }),
      textTurn("two"),
    ]);
    const engine = createEngine({ cwd: "/w", home: "/h", fs: createMemoryFs(), sources: [source] });
    try {
      const { session } = await openSession(engine, {
        client: model.client,
        skillContext: { expireAfterUserTurns: 0 },
      });
      for (const prompt of ["price A1", "price B2"]) for await (const _ of session.send(prompt)) void _;
      await session.close();
      const results = model.server.requests.map((r) => resultText(toolResultsOf(r)[0]));
      expect(results[2]).toBe("price of A1: 3 EUR");
      expect(results[4]).toBe(notLoadedText("quote", "pricing"));
      expect(results[6]).toBe("price of B2: 3 EUR");
      expect(JSON.stringify(model.server.requests[4]?.body)).toContain(expiredSkillStub("pricing"));
      expect(JSON.stringify(model.server.requests[6]?.body)).toContain("PRICING-BODY");
    } finally {
      await engine.close();
      await model.close();
    }
  });
});
