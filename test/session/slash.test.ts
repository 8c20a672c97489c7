import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  doneResult,
  type Harness,
  lastUser,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const LISTING_HEADER = "The following skills are available for use with the Skill tool:";
const REFUSAL =
  'This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "modelonly" skill for you.';

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/greet/SKILL.md": skillMd("description: Greets", "Hello $ARGUMENTS!\n"),
  "project/.claude/skills/quick/SKILL.md": skillMd(
    "description: Fast\nmodel: haiku\neffort: high\ndisallowed-tools: Bash",
    "Be quick.",
  ),
  "project/.claude/skills/modelonly/SKILL.md": skillMd(
    "description: For the model\nuser-invocable: false",
    "M.",
  ),
  "project/.claude/skills/echoer/SKILL.md": skillMd(
    "description: May echo\nallowed-tools: Bash(echo:*)",
    "Echo.",
  ),
  "project/.claude/skills/hidden/SKILL.md": skillMd(
    "description: Users only\ndisable-model-invocation: true",
    "Hidden body.",
  ),
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(turns = [textTurn("ok"), textTurn("ok again")]): Promise<Harness> {
  h = await startHarness({ files: TREE, turns });
  return h;
}

/** The blocks of the first request's user message after the listing reminder. */
function afterListing(harness: Harness, index = 0) {
  const blocks = plainBlocks(lastUser(harness.body(index)).content);
  return blocks.filter((b) => !(b.text ?? "").includes(LISTING_HEADER));
}

function hasToolUse(harness: Harness): boolean {
  return harness
    .bodies()
    .some((b) =>
      b.messages.some((m) => typeof m.content !== "string" && m.content.some((c) => c.type === "tool_use")),
    );
}

describe("user slash commands (SPEC §6)", () => {
  it.each(["/greet Bob", "/skill:greet Bob", "  /greet   Bob  "])(
    "%j → one user message: the command block then the expansion, byte-exact; no tool_use faked",
    async (typed) => {
      const s = await start();
      await s.send(typed);
      const dir = join(s.cwd, ".claude", "skills", "greet");
      expect(afterListing(s)).toEqual([
        {
          type: "text",
          text: "<command-message>greet</command-message>\n<command-name>/greet</command-name>\n<command-args>Bob</command-args>\n",
        },
        { type: "text", text: `Base directory for this skill: ${dir}\n\nHello Bob!\n` },
      ]);
      expect(s.body(0).messages).toHaveLength(1);
      expect(hasToolUse(s)).toBe(false);
    },
  );

  it("no args → the args line is left out", async () => {
    const s = await start();
    await s.send("/greet");
    expect(afterListing(s)[0]).toEqual({
      type: "text",
      text: "<command-message>greet</command-message>\n<command-name>/greet</command-name>",
    });
  });

  it("switches to the skill's model and effort for this turn only (the model path keeps its model)", async () => {
    const s = await start();
    await s.send("/quick");
    await s.send("plain text");
    const [first, second] = [s.body(0), s.body(1)];
    expect([first.model, first.output_config]).toEqual(["claude-haiku-5-5", { effort: "high" }]);
    // disallowed-tools refuses calls; the tools array stays the same (a fixed prompt prefix).
    expect((first.tools ?? []).map((t) => t.name)).toContain("Bash");
    expect([second.model, second.output_config]).toEqual(["claude-sonnet-5-5", { effort: "medium" }]);
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
  });

  it("a disable-model-invocation skill works when typed", async () => {
    const s = await start();
    await s.send("/hidden");
    expect(afterListing(s)[1]?.text).toContain("Hidden body.");
  });

  it("user-invocable: false → an answer, not an error (SPEC §14.14), and no model request at all", async () => {
    const s = await start();
    const events = await s.send("/modelonly now");
    expect(s.bodies()).toHaveLength(0);
    expect(events).toContainEqual({ type: "text_delta", text: REFUSAL });
    expect(doneResult(events)).toMatchObject({ text: REFUSAL, cause: "end_turn", turns: 0 });
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(s.opened.session.messages()).toEqual([]);
    expect(s.opened.session.invoked()).toEqual([]);
  });

  it("user-invocable: false does not stop the model from calling it", async () => {
    const s = await start([toolTurn("Skill", { skill: "modelonly" }), textTurn("done")]);
    await s.send("use it");
    const [result] = toolResults(s.body(1));
    expect(result && resultText(result)).toBe("Launching skill: modelonly");
  });

  it("after a refused command the listing still reaches the model with the next prompt", async () => {
    const s = await start();
    await s.send("/modelonly");
    await s.send("hello");
    expect(textBlocks(lastUser(s.body(0)).content).some((t) => t.includes(LISTING_HEADER))).toBe(true);
  });

  it("unknown /x → a reminder naming the user's commands in listing order, then the text as typed", async () => {
    const s = await start();
    await s.send("/grete to Bob");
    expect(afterListing(s)).toEqual([
      {
        type: "text",
        text:
          '<system-reminder>\nThe user typed /grete, but no skill or command named "grete" exists. ' +
          "Available commands: /echoer, /greet, /hidden, /quick, /init." +
          " Treat the message as ordinary text.\n</system-reminder>",
      },
      { type: "text", text: "/grete to Bob" },
    ]);
  });

  it("unknown /x with more than 13 commands names 13, then `and N more` (SPEC §14.14)", async () => {
    const files: Record<string, TreeEntry> = {};
    for (let i = 10; i < 26; i++)
      files[`project/.claude/skills/s${i}/SKILL.md`] = skillMd(`description: S${i}`, ".");
    h = await startHarness({ files, turns: [textTurn("ok")] });
    await h.send("/nothing");
    const names = Array.from({ length: 13 }, (_, i) => `/s${i + 10}`).join(", ");
    expect(afterListing(h)[0]?.text).toBe(
      '<system-reminder>\nThe user typed /nothing, but no skill or command named "nothing" exists. ' +
        `Available commands: ${names} and 4 more. Treat the message as ordinary text.\n</system-reminder>`,
    );
  });

  it("a path is not a command: it is sent as typed", async () => {
    const s = await start();
    await s.send("/usr/bin/env is where?");
    expect(afterListing(s)).toEqual([{ type: "text", text: "/usr/bin/env is where?" }]);
  });

  it("a typed skill's allowed-tools are granted for the turn, as on the model path", async () => {
    const s = await start([
      toolTurn("Bash", { command: "echo granted" }),
      textTurn("done"),
      // Writing a file needs the grant (`echo` alone only reads, SPEC §14.8).
      toolTurn("Bash", { command: "echo later > later.txt" }),
      textTurn("done"),
    ]);
    await s.send("/echoer");
    const [granted] = toolResults(s.body(1));
    expect(granted?.is_error).toBeUndefined();
    expect(granted && resultText(granted)).toBe("granted");
    await s.send("again");
    const [later] = toolResults(s.body(3));
    expect(later?.is_error).toBe(true);
  });
});
