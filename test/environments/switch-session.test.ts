import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  INIT_ENTRY,
  lastUser,
  listingBlock,
  resultText,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ENVS = "home/.skillwright/environments";

describe("engine.switchEnvironment in an open session", () => {
  it("sends the new environment's skills as one listing delta on the next request, and they can be invoked", async () => {
    h = await startHarness({
      files: {
        [`${ENVS}/alpha/skills/alpha-notes/SKILL.md`]: "---\ndescription: Alpha notes\n---\nALPHA-BODY\n",
        [`${ENVS}/beta/skills/beta-plan/skill.md`]:
          "---\nname: Beta Plan\ndescription: Plans for beta\n---\nBETA-BODY\n",
      },
      engine: { environment: "alpha" },
      turns: [
        textTurn("first", { lastUserTextIncludes: "one" }),
        toolTurn("Skill", { skill: "beta-plan" }, { match: { lastUserTextIncludes: "two" } }),
        textTurn("done"),
      ],
    });
    await h.send("one");
    expect(textBlocks(lastUser(h.body(0)).content)).toContain(
      listingBlock("- alpha-notes: Alpha notes", INIT_ENTRY),
    );
    await h.engine.switchEnvironment("beta");
    await h.send("two");
    // Only the new skill is announced; the listing is in the messages, so the system prompt and tools stay.
    const delta = textBlocks(lastUser(h.body(1)).content).filter((t) => t.includes("available for use"));
    expect(delta).toEqual([listingBlock("- beta-plan: Plans for beta")]);
    expect(h.body(1).system).toEqual(h.body(0).system);
    expect(h.body(1).tools).toEqual(h.body(0).tools);
    expect(resultText(toolResults(h.body(2))[0])).toBe("Launching skill: beta-plan");
    expect(JSON.stringify(h.body(2).messages.at(-1))).toContain("BETA-BODY");
  });

  it("trusts an environment's skills as the user's own: one with allowed-tools runs headless without a rule", async () => {
    h = await startHarness({
      files: {
        [`${ENVS}/work/skills/tooling/SKILL.md`]:
          "---\ndescription: Uses tools\nallowed-tools: Bash(echo:*)\n---\nTOOLING-BODY\n",
        "project/.claude/skills/repo-tool/SKILL.md":
          "---\ndescription: Repo tool\nallowed-tools: Bash(echo:*)\n---\nREPO-BODY\n",
      },
      engine: { environment: "work" },
      turns: [
        toolTurn("Skill", { skill: "tooling" }, { match: { lastUserTextIncludes: "one" } }),
        toolTurn("Skill", { skill: "repo-tool" }),
        textTurn("done"),
      ],
    });
    await h.send("one");
    expect(resultText(toolResults(h.body(1))[0])).toBe("Launching skill: tooling");
    // A project skill of the same kind still needs a rule (SPEC §4), as before.
    expect(toolResults(h.body(2))[0]?.is_error).toBe(true);
  });

  it("gives forks the environment's agents/", async () => {
    h = await startHarness({
      files: {
        [`${ENVS}/work/skills/draft/SKILL.md`]:
          "---\ndescription: Drafts\ncontext: fork\nagent: writer\n---\nDRAFT-TASK\n",
        [`${ENVS}/work/agents/writer.md`]: "---\nname: writer\ndescription: Writes\n---\nENV-AGENT-PROMPT\n",
      },
      engine: { environment: "work" },
      turns: [
        toolTurn("Skill", { skill: "draft" }, { match: { agentId: null } }),
        textTurn("Drafted.", { agentId: "*" }),
        textTurn("Done.", { agentId: null }),
      ],
    });
    await h.send("draft it");
    const [fork] = h.forkRequests();
    expect(JSON.stringify(fork?.body)).toContain("ENV-AGENT-PROMPT");
  });
});
