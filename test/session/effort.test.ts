import { afterEach, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import { type Harness, type RequestBody, skillMd, startHarness } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/deep/SKILL.md": skillMd("description: Thinks hard\neffort: high", "Think hard."),
  "project/.claude/skills/plain/SKILL.md": skillMd("description: Nothing special", "Plain."),
  "project/.claude/skills/helper/SKILL.md": skillMd("description: Forked helper\ncontext: fork", "HELP-TASK"),
  "project/.claude/skills/deep-fork/SKILL.md": skillMd(
    "description: Forked, thinks hard\ncontext: fork\neffort: high",
    "DEEP-TASK",
  ),
  "project/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill"] } }),
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MAIN = { agentId: null } as const;
const SUB = { agentId: "*" } as const;

/** `[agent, output_config]` of every request, in order (`main` or `sub`). */
function efforts(harness: Harness): [string, RequestBody["output_config"]][] {
  return harness.model.server.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => [
      r.headers[AGENT_ID_HEADER] === undefined ? "main" : "sub",
      (r.body as RequestBody).output_config,
    ]);
}

describe("default effort (SPEC §14.2)", () => {
  it("every main request carries medium; a skill's effort lasts its turn, then medium again, not absent", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        textTurn("hello"),
        toolTurn("Skill", { skill: "deep" }),
        textTurn("thought hard"),
        toolTurn("Skill", { skill: "plain" }),
        textTurn("plain answer"),
      ],
    });
    await h.send("hi");
    await h.send("think hard");
    await h.send("and now plainly");
    expect(efforts(h)).toEqual([
      ["main", { effort: "medium" }],
      ["main", { effort: "medium" }],
      ["main", { effort: "high" }],
      ["main", { effort: "medium" }],
      ["main", { effort: "medium" }],
    ]);
  });

  it("a session effort (--effort) replaces the default and is where a skill's effort returns to", async () => {
    h = await startHarness({
      files: TREE,
      turns: [toolTurn("Skill", { skill: "deep" }), textTurn("deep"), textTurn("back")],
      session: { effort: "low" },
    });
    await h.send("think hard");
    await h.send("again");
    expect(efforts(h).map(([, c]) => c)).toEqual([{ effort: "low" }, { effort: "high" }, { effort: "low" }]);
  });

  it("sub-agent requests carry medium too, or the forked skill's own effort", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "helper" }, { match: { ...MAIN, lastUserTextIncludes: "help" } }),
        textTurn("helped", { ...SUB, lastUserTextIncludes: "HELP-TASK" }),
        toolTurn("Skill", { skill: "deep-fork" }, { match: { ...MAIN, hasToolResultFor: "Skill" } }),
        textTurn("deeply helped", { ...SUB, lastUserTextIncludes: "DEEP-TASK" }),
        textTurn("all done", MAIN),
      ],
    });
    await h.send("help me");
    expect(efforts(h)).toEqual([
      ["main", { effort: "medium" }],
      ["sub", { effort: "medium" }],
      ["main", { effort: "medium" }],
      ["sub", { effort: "high" }],
      ["main", { effort: "medium" }],
    ]);
  });

  it("a model without effort support gets no field, whatever the skill, fork or session says", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "deep" }, { match: MAIN }),
        toolTurn("Skill", { skill: "deep-fork" }, { match: { ...MAIN, hasToolResultFor: "Skill" } }),
        textTurn("deeply helped", { ...SUB, lastUserTextIncludes: "DEEP-TASK" }),
        textTurn("done", MAIN),
      ],
      session: { model: "claude-sonnet-4-5", effort: "low" },
    });
    await h.send("think hard");
    expect(efforts(h)).toEqual([
      ["main", undefined],
      ["main", undefined],
      ["sub", undefined],
      ["main", undefined],
    ]);
    expect(h.allBodies().map((b) => b.model)).toEqual([
      "claude-sonnet-4-5",
      "claude-sonnet-4-5",
      "claude-sonnet-4-5",
      "claude-sonnet-4-5",
    ]);
  });
});
