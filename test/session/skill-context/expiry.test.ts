import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/agent/model-types.js";
import {
  dueExpansions,
  expiredSkillStub,
  type LiveExpansion,
} from "../../../src/session/skill-context/expiry.js";
import { stubbedMessages } from "../../../src/session/skill-context/stubbed-messages.js";

const e = (id: number, lastTurn: number, ttl: number | undefined, tokens = 10): LiveExpansion => ({
  id,
  name: `s${id}`,
  lastTurn,
  ttl,
  tokens,
});

describe("dueExpansions", () => {
  it.each([
    {
      case: "ttl 1, invoked in turn 1: kept in turn 2",
      live: [e(1, 1, 1)],
      turn: 2,
      max: undefined,
      due: [],
    },
    {
      case: "ttl 1, invoked in turn 1: due in turn 3",
      live: [e(1, 1, 1)],
      turn: 3,
      max: undefined,
      due: [1],
    },
    { case: "ttl 0: due in the next turn", live: [e(1, 4, 0)], turn: 5, max: undefined, due: [1] },
    { case: "no ttl, no cap: never", live: [e(1, 1, undefined)], turn: 99, max: undefined, due: [] },
    {
      case: "every due one in one batch",
      live: [e(1, 1, 1), e(2, 2, 0), e(3, 3, 5)],
      turn: 3,
      max: undefined,
      due: [1, 2],
    },
    {
      case: "cap: least recently invoked first, until the rest fit",
      live: [e(1, 3, undefined, 50), e(2, 1, undefined, 50), e(3, 2, undefined, 50)],
      turn: 4,
      max: 60,
      due: [2, 3],
    },
    {
      case: "cap: ties broken by the older id",
      live: [e(2, 1, undefined, 50), e(1, 1, undefined, 50)],
      turn: 2,
      max: 50,
      due: [1],
    },
    {
      case: "cap: TTL expiries count first, then what is left is measured",
      live: [e(1, 1, 0, 100), e(2, 1, undefined, 40)],
      turn: 2,
      max: 50,
      due: [1],
    },
    { case: "cap: exactly at the cap stays", live: [e(1, 1, undefined, 50)], turn: 2, max: 50, due: [] },
  ])("$case", ({ live, turn, max, due }) => {
    expect(dueExpansions(live, turn, max)).toEqual(due);
  });
});

describe("stubbedMessages", () => {
  const messages: ModelMessage[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "prompt" },
        { type: "text", text: "NOTE" },
        { type: "text", text: "BODY" },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "answer" }] },
    { role: "user", content: [{ type: "text", text: "intro\n\nSECTION\n\nrest" }] },
    { role: "user", content: "plain" },
  ];

  it("stubs a block, drops a block, replaces a part; other messages are the same objects; input unchanged", () => {
    const before = JSON.stringify(messages);
    const out = stubbedMessages(messages, [
      { kind: "drop", message: 0, block: 1 },
      { kind: "stub", message: 0, block: 2, stub: expiredSkillStub("a") },
      { kind: "stub", message: 2, block: 0, stub: "STUB", part: "SECTION" },
    ]);
    expect(out[0]?.content).toEqual([
      { type: "text", text: "prompt" },
      { type: "text", text: "Skill a was used earlier; call it again if you need its instructions." },
    ]);
    expect(out[1]).toBe(messages[1]);
    expect(out[2]?.content).toEqual([{ type: "text", text: "intro\n\nSTUB\n\nrest" }]);
    expect(out[3]).toBe(messages[3]);
    expect(JSON.stringify(messages)).toBe(before);
  });

  it("skips spans that point at nothing or at a part no longer there, and never empties a message", () => {
    const out = stubbedMessages(messages, [
      { kind: "stub", message: 7, block: 0, stub: "X" },
      { kind: "stub", message: 1, block: 3, stub: "X" },
      { kind: "stub", message: 2, block: 0, stub: "X", part: "MISSING" },
      { kind: "drop", message: 1, block: 0 },
      { kind: "drop", message: 3, block: 0 },
    ]);
    expect(out[1]?.content).toEqual(messages[1]?.content);
    expect(out[2]?.content).toEqual(messages[2]?.content);
    expect(out[3]).toBe(messages[3]);
  });
});
