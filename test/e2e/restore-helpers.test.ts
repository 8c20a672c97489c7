// Pure helpers behind the resume fixes exercised end to end in resume.test.ts.
import { describe, expect, it } from "vitest";
import { createActivationState } from "../../src/activation/activation-state.js";
import { announcedNestedRoot, nestedAnnouncement } from "../../src/activation/announce.js";
import type { ModelMessage } from "../../src/agent/model-types.js";
import { namesListedIn, reminderTexts } from "../../src/listing/read-blocks.js";
import { listingBlock } from "../support/harness.js";
import { makeSkill } from "../support/make-skill.js";

const user = (...texts: string[]): ModelMessage => ({
  role: "user",
  content: texts.map((text) => ({ type: "text" as const, text })),
});

const ALPHA = makeSkill({ name: "alpha" });
const SKILLS = [
  ALPHA,
  makeSkill({ name: "alpha-two" }),
  makeSkill({ name: "greet", alias: "hello" }),
  makeSkill({ name: "ops:release" }),
  makeSkill({ name: "ops" }),
];

describe("namesListedIn", () => {
  it.each<[string, ModelMessage[], string[]]>([
    [
      "a full listing, full and name-only entries",
      [user(listingBlock("- alpha: Does alpha", "- ops:release"))],
      ["alpha", "ops:release"],
    ],
    ["an alias entry", [user(listingBlock("- greet (hello): Greets"))], ["greet"]],
    [
      "a prefix of another name is not a match",
      [user(listingBlock("- alpha-two: Two", "- ops:release: R"))],
      ["alpha-two", "ops:release"],
    ],
    [
      "a nested announcement",
      [user(nestedAnnouncement({ root: "pkg/.claude/skills", base: "pkg" }, [ALPHA]))],
      ["alpha"],
    ],
    [
      "a reminder that is not a listing",
      [user("<system-reminder>\nSomething else:\n\n- alpha: x\n</system-reminder>")],
      [],
    ],
    ["plain user text", [user("- alpha: Does alpha")], []],
    [
      "an assistant message",
      [{ role: "assistant", content: [{ type: "text", text: listingBlock("- alpha") }] }],
      [],
    ],
    ["string content", [{ role: "user", content: listingBlock("- alpha") }], []],
  ])("%s", (_, messages, expected) => {
    expect(namesListedIn(messages, SKILLS)).toEqual(expected);
  });

  it("reminderTexts keeps user <system-reminder> text blocks in order", () => {
    const messages = [user("hi", "<system-reminder>\na\n</system-reminder>"), user("<system-reminder>\nb")];
    expect(reminderTexts(messages)).toEqual([
      "<system-reminder>\na\n</system-reminder>",
      "<system-reminder>\nb",
    ]);
  });
});

describe("announcedNestedRoot", () => {
  it.each<[string, string | undefined]>([
    [
      nestedAnnouncement({ root: "packages/web/.claude/skills", base: "packages/web" }, [ALPHA]),
      "packages/web/.claude/skills",
    ],
    [listingBlock("- alpha"), undefined],
    ["New skills discovered in x/.claude/skills, now available via the Skill tool:", undefined],
    ["", undefined],
  ])("%#", (text, expected) => {
    expect(announcedNestedRoot(text)).toBe(expected);
  });
});

describe("ActivationState.activate", () => {
  it("activates known conditional names once, ignores others, and later touches do not report them", () => {
    const state = createActivationState([
      { name: "always", filePath: "" },
      { name: "ts", paths: ["*.ts"], filePath: "" },
      { name: "md", paths: ["*.md"], filePath: "" },
    ]);
    expect(state.activate(["ts", "always", "nope"])).toEqual(["ts"]);
    expect(state.activate(["ts"])).toEqual([]);
    expect(state.isActive("ts")).toBe(true);
    expect(state.isActive("md")).toBe(false);
    expect(state.touch(["/repo/a.ts", "/repo/b.md"], "/repo")).toEqual(["md"]);
  });
});
