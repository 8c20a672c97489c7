import { afterEach, describe, expect, it } from "vitest";
import { INIT_COMMAND_PROMPT } from "../../src/skill-tool/builtin-commands.js";
import {
  type Harness,
  INIT_ENTRY,
  lastUser,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const LISTING = [
  "<system-reminder>",
  "The following skills are available for use with the Skill tool:",
  "",
  "- greet: Greets",
  INIT_ENTRY,
  "</system-reminder>",
].join("\n");

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const GREET = { "project/.claude/skills/greet/SKILL.md": skillMd("description: Greets", "Hello.") };

describe("the built-in init command (SPEC §14.6)", () => {
  it("is listed after the discovered skills and expands to its prompt, with no base directory", async () => {
    h = await startHarness({
      files: GREET,
      turns: [toolTurn("Skill", { skill: "init", args: "focus on the tests" }), textTurn("written")],
    });
    await h.send("set the project up for agents");
    expect(textBlocks(lastUser(h.body(0)).content)[0]).toBe(LISTING);
    const [result] = toolResults(h.body(1));
    expect(result && resultText(result)).toBe("Launching skill: init");
    expect(result?.is_error).toBeUndefined();
    expect(textBlocks(lastUser(h.body(1)).content)).toContain(
      `${INIT_COMMAND_PROMPT}\n\nARGUMENTS: focus on the tests`,
    );
  });

  it("a user can type /init", async () => {
    h = await startHarness({ files: GREET, turns: [textTurn("written")] });
    await h.send("/init");
    expect(plainBlocks(lastUser(h.body(0)).content).slice(1)).toEqual([
      { type: "text", text: "<command-message>init</command-message>\n<command-name>/init</command-name>" },
      { type: "text", text: INIT_COMMAND_PROMPT },
    ]);
  });

  it("a project skill named init takes the name: the built-in is left out", async () => {
    h = await startHarness({
      files: { "project/.claude/skills/init/SKILL.md": skillMd("description: Our own init", "OUR INIT") },
      turns: [toolTurn("Skill", { skill: "init" }), textTurn("ok")],
    });
    await h.send("init");
    const listing = textBlocks(lastUser(h.body(0)).content)[0] ?? "";
    expect(listing).toContain("- init: Our own init");
    expect(listing).not.toContain(INIT_ENTRY);
    expect(textBlocks(lastUser(h.body(1)).content).join("\n")).toContain("OUR INIT");
  });
});

describe("UI commands through the Skill tool (SPEC §14.6)", () => {
  it("are refused with a pointer to the user, as an error result", async () => {
    h = await startHarness({
      files: GREET,
      turns: [toolTurn("Skill", { skill: "/compact" }), textTurn("ok")],
    });
    await h.send("compact the conversation");
    const [result] = toolResults(h.body(1));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toBe(
      "<tool_use_error>compact is a UI command, not a skill. Ask the user to run /compact themselves — it cannot be invoked via the Skill tool.</tool_use_error>",
    );
  });
});
