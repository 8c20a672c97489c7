import { writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/open.js";
import {
  FIXED_NOW,
  type Harness,
  lastUser,
  type RequestBody,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/greet/SKILL.md": skillMd("description: Greets", "Hello $ARGUMENTS."),
  "project/.claude/skills/pdf-tools/SKILL.md": skillMd("name: pdf\ndescription: PDF work", "Use pdftk."),
  "project/.claude/skills/stamp/SKILL.md": skillMd(
    "description: Reads the stamp\nallowed-tools: Bash(cat:*)",
    "Stamp: !`cat stamp.txt`",
  ),
  "project/.claude/skills/helper/SKILL.md": skillMd("description: Forked helper\ncontext: fork", "HELP-TASK"),
  "project/stamp.txt": "one\n",
  "project/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill"] } }),
};

const ALREADY = (name: string) => `Skill /${name} is already loaded above; instructions unchanged.`;
const AGAIN = (name: string) =>
  `(Re-invocation of /${name} — the skill instructions were previously loaded; the arguments or dynamic output below are new.)`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The body of request `index`, counting the main agent's and sub-agents' requests alike. */
function requestBody(harness: Harness, index: number): RequestBody {
  const found = harness.allBodies()[index];
  if (found === undefined) throw new Error(`no request #${index} (${harness.allBodies().length} made)`);
  return found;
}

/** The tool_result text and the follow-up text block of request `index` (an inline Skill call's answer). */
function skillAnswer(harness: Harness, index: number): [string, string[]] {
  const body = requestBody(harness, index);
  const [result] = toolResults(body);
  const texts = textBlocks(lastUser(body).content).filter((t) => !t.startsWith("<system-reminder>"));
  return [result === undefined ? "" : resultText(result), texts];
}

/** The expansion block of a typed `/name` (the user message's last text block) in request `index`. */
function typedExpansion(harness: Harness, index: number): string | undefined {
  return textBlocks(lastUser(requestBody(harness, index)).content).at(-1);
}

/** The text blocks after the metadata block of a typed `/name` in request `index`. */
function typedBlocks(harness: Harness, index: number): string[] {
  const texts = textBlocks(lastUser(requestBody(harness, index)).content);
  const meta = texts.findIndex((t) => t.startsWith("<command-message>"));
  return texts.slice(meta + 1);
}

describe("re-invocation within one conversation (SPEC §14.3)", () => {
  it("Skill tool: the same expansion again is only a note; new args resend the FIRST body after a note block", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "greet", args: "Ann" }),
        toolTurn("Skill", { skill: "greet", args: "Ann" }),
        toolTurn("Skill", { skill: "/greet", args: "Bob" }),
        toolTurn("Skill", { skill: "greet", args: "Ann" }),
        textTurn("done"),
      ],
    });
    await h.send("greet people");
    const base = `Base directory for this skill: ${h.tree.path("project/.claude/skills/greet")}`;
    expect(skillAnswer(h, 1)).toEqual(["Launching skill: greet", [`${base}\n\nHello Ann.`]]);
    expect(skillAnswer(h, 2)).toEqual(["Launching skill: greet", [ALREADY("greet")]]);
    // Claude Code's re-sent body is the first invocation's, Ann's arguments included; the note is a block of its own.
    expect(skillAnswer(h, 3)).toEqual(["Launching skill: greet", [AGAIN("greet"), `${base}\n\nHello Ann.`]]);
    // Ann's expansion is still above: a third call with her args is only the note.
    expect(skillAnswer(h, 4)).toEqual(["Launching skill: greet", [ALREADY("greet")]]);
    // The invocation log keeps every full expansion (compaction re-attaches the last one).
    expect(h.opened.session.invoked().map((i) => i.text)).toEqual([
      `${base}\n\nHello Ann.`,
      `${base}\n\nHello Ann.`,
      `${base}\n\nHello Bob.`,
      `${base}\n\nHello Ann.`,
    ]);
  });

  it("the note names the skill as called: an alias stays the alias", async () => {
    h = await startHarness({
      files: TREE,
      turns: [toolTurn("Skill", { skill: "pdf-tools" }), toolTurn("Skill", { skill: "pdf" }), textTurn("ok")],
    });
    await h.send("pdf stuff");
    expect(skillAnswer(h, 2)).toEqual(["Launching skill: pdf", [ALREADY("pdf")]]);
  });

  it("new inline shell output resends the first body after the note", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "stamp" }),
        textTurn("one"),
        toolTurn("Skill", { skill: "stamp" }),
        textTurn("two"),
      ],
    });
    const base = `Base directory for this skill: ${h.tree.path("project/.claude/skills/stamp")}`;
    await h.send("stamp");
    await writeFile(h.tree.path("project/stamp.txt"), "two\n");
    await h.send("stamp again");
    expect(skillAnswer(h, 1)[1]).toEqual([`${base}\n\nStamp: one`]);
    expect(skillAnswer(h, 3)[1]).toEqual([AGAIN("stamp"), `${base}\n\nStamp: one`]);
  });

  it("a typed /name goes the same way, across both paths", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        textTurn("first"),
        textTurn("second"),
        textTurn("third"),
        toolTurn("Skill", { skill: "greet", args: "Cy" }),
        textTurn("fourth"),
      ],
    });
    const base = `Base directory for this skill: ${h.tree.path("project/.claude/skills/greet")}`;
    await h.send("/greet Cy");
    await h.send("/greet Cy");
    await h.send("/skill:greet Dee");
    await h.send("greet Cy once more");
    expect(typedExpansion(h, 0)).toBe(`${base}\n\nHello Cy.`);
    expect(typedExpansion(h, 1)).toBe(ALREADY("greet"));
    expect(typedBlocks(h, 2)).toEqual([AGAIN("greet"), `${base}\n\nHello Cy.`]);
    // Loaded by a typed command, then called by the model: already above.
    expect(skillAnswer(h, 4)).toEqual(["Launching skill: greet", [ALREADY("greet")]]);
  });

  it("after compaction nothing counts as loaded: the full body is sent again", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        textTurn("greeted"),
        textTurn("<summary>Greeted Ann.</summary>", { systemIncludes: "summar" }),
        textTurn("greeted again"),
      ],
    });
    const base = `Base directory for this skill: ${h.tree.path("project/.claude/skills/greet")}`;
    await h.send("/greet Ann");
    expect((await h.opened.session.compact()).ok).toBe(true);
    await h.send("/greet Ann");
    expect(typedExpansion(h, 2)).toBe(`${base}\n\nHello Ann.`);
  });

  it("a sub-agent's conversation is its own: a skill the main agent loaded is sent in full to a fork", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn(
          "Skill",
          { skill: "greet", args: "Ann" },
          { match: { agentId: null, lastUserTextIncludes: "go" } },
        ),
        toolTurn("Skill", { skill: "helper" }, { match: { agentId: null, hasToolResultFor: "Skill" } }),
        toolTurn(
          "Skill",
          { skill: "greet", args: "Ann" },
          { match: { agentId: "*", lastUserTextIncludes: "HELP-TASK" } },
        ),
        textTurn("helped", { agentId: "*", hasToolResultFor: "Skill" }),
        textTurn("done", { agentId: null }),
      ],
    });
    await h.send("go");
    const base = `Base directory for this skill: ${h.tree.path("project/.claude/skills/greet")}`;
    expect(skillAnswer(h, 3)).toEqual(["Launching skill: greet", [`${base}\n\nHello Ann.`]]);
  });

  it("a resumed conversation still holds what it loaded since its last compaction", async () => {
    h = await startHarness({
      files: TREE,
      turns: [textTurn("greeted"), textTurn("again")],
    });
    await h.send("/greet Ann");
    const resumed = await openSession(h.engine, {
      client: h.model.client,
      now: () => FIXED_NOW,
      resume: h.opened.session.id,
    });
    for await (const _ of resumed.session.send("/greet Ann")) {
      // drain
    }
    expect(typedExpansion(h, 1)).toBe(ALREADY("greet"));
  });
});
