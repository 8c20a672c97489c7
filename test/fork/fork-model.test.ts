/**
 * Which model a forked skill runs on (docs/behaviour.md §7): the skill's `model:`, else its agent type's, else the
 * session's: the main agent's model for the turn (an inline skill's `model:` included), at any fork depth. Read
 * from the `model` field of each recorded request, through a real session and the scripted model server.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptMatch } from "../../src/dev/model-script.js";
import { bodyOf, type Harness, skillMd, startHarness } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const SESSION_MODEL = "claude-sonnet-5-5";
const HAIKU = "claude-haiku-5-5";
const OPUS = "claude-opus-5-5";

const fork = (name: string, extra: string) =>
  skillMd(`description: ${name} skill\ncontext: fork\n${extra}`, `${name.toUpperCase()}-TASK`);

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/quick/SKILL.md": skillMd("description: Fast\nmodel: haiku", "Be quick."),
  "project/.claude/skills/outer/SKILL.md": fork("outer", "model: opus"),
  "project/.claude/skills/inner/SKILL.md": fork("inner", ""),
  "project/.claude/skills/inh/SKILL.md": fork("inh", "model: inherit"),
  "project/.claude/skills/helped/SKILL.md": fork("helped", "agent: helper"),
  "project/.claude/skills/plain/SKILL.md": fork("plain", ""),
  "project/.claude/agents/helper.md":
    "---\nname: helper\ndescription: Helps\nmodel: inherit\n---\nYou are HELPER-PROMPT.\n",
};

const MAIN: ScriptMatch = { agentId: null };
const sub = (task: string): ScriptMatch => ({ agentId: "*", lastUserTextIncludes: task });

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The model of each sub-agent request, in order. */
function forkModels(harness: Harness): string[] {
  return harness.forkRequests().map((r) => bodyOf(r).model);
}

describe("the model a forked skill runs on", () => {
  it("a fork of a fork that names no model (or inherit) runs on the main agent's model, not its parent fork's", async () => {
    h = await startHarness({
      files: TREE,
      // The inline skill `quick` switches the main agent to haiku for the turn (a model-invoked skill does so
      // only with skillModelSwitch; its default keeps the model: test/session/overrides.test.ts).
      session: { allowedTools: ["Skill"], skillModelSwitch: true },
      turns: [
        toolTurn("Skill", { skill: "quick" }, { match: MAIN }),
        toolTurn("Skill", { skill: "outer" }, { match: { ...MAIN, model: HAIKU } }),
        toolTurn("Skill", { skill: "inner" }, { match: sub("OUTER-TASK") }),
        textTurn("inner done", sub("INNER-TASK")),
        toolTurn("Skill", { skill: "inh" }, { match: { agentId: "*", toolResultIncludes: "inner done" } }),
        textTurn("inh done", sub("INH-TASK")),
        textTurn("outer done", { agentId: "*", toolResultIncludes: "inh done" }),
        textTurn("all done", MAIN),
      ],
    });
    await h.send("go");
    expect(h.bodies().map((b) => b.model)).toEqual([SESSION_MODEL, HAIKU, HAIKU]);
    // outer (its own opus), inner (the main agent's haiku), outer, inh (haiku), outer.
    expect(forkModels(h)).toEqual([OPUS, HAIKU, OPUS, HAIKU, OPUS]);
  });

  it("a fork that names no model runs on the session's model, or the one an inline skill set for the turn", async () => {
    h = await startHarness({
      files: TREE,
      // The inline skill `quick` switches the main agent to haiku for the turn (a model-invoked skill does so
      // only with skillModelSwitch; its default keeps the model: test/session/overrides.test.ts).
      session: { allowedTools: ["Skill"], skillModelSwitch: true },
      turns: [
        toolTurn("Skill", { skill: "plain" }, { match: MAIN }),
        textTurn("plain done", sub("PLAIN-TASK")),
        toolTurn("Skill", { skill: "quick" }, { match: { ...MAIN, toolResultIncludes: "plain done" } }),
        toolTurn("Skill", { skill: "helped" }, { match: { ...MAIN, model: HAIKU } }),
        textTurn("helped done", sub("HELPED-TASK")),
        textTurn("turn one done", { ...MAIN, toolResultIncludes: "helped done" }),
        toolTurn("Skill", { skill: "helped" }, { match: { ...MAIN, lastUserTextIncludes: "again" } }),
        textTurn("helped again", sub("HELPED-TASK")),
        textTurn("turn two done", MAIN),
      ],
    });
    await h.send("go");
    await h.send("again");
    // plain before the inline skill, helped (agent `inherit`) after it, helped in the next turn.
    expect(forkModels(h)).toEqual([SESSION_MODEL, HAIKU, SESSION_MODEL]);
  });
});
