import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LISTING_BUDGET } from "../../src/listing/budget.js";
import {
  bodyOf,
  firstMessageTexts,
  forkRequests,
  mainRequests,
  openTestSession,
  sendAll,
} from "../support/harness.js";
import { startTestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** Skills whose descriptions together fit a 1M-token model's budget (30,000 chars) but not a 200k one's. */
const SKILLS = 40;
const DESCRIPTION = "d".repeat(300);

let tree: TmpTree;
beforeAll(async () => {
  const files: Record<string, string | { dir: true }> = {
    "repo/.git": { dir: true },
    "repo/.claude/skills/small/SKILL.md":
      "---\ndescription: runs on a 200k-token model\ncontext: fork\nmodel: claude-haiku-4-5\n---\nSMALL-TASK\n",
  };
  for (let i = 0; i < SKILLS; i++) {
    files[`repo/.claude/skills/s${String(i).padStart(2, "0")}/SKILL.md`] =
      `---\ndescription: ${DESCRIPTION}\n---\n`;
  }
  tree = await tmpTree(files);
});
afterAll(() => tree.cleanup());

const listingIn = (texts: string[]) => texts.find((t) => t.startsWith("<system-reminder>")) ?? "";

describe("a fork's listing", () => {
  it("is sized for the fork's model, not the main agent's", async () => {
    const m = await startTestModel([
      toolTurn("Skill", { skill: "small" }, { match: { agentId: null, lastUserTextIncludes: "go small" } }),
      textTurn("small done", { agentId: "*", lastUserTextIncludes: "SMALL-TASK" }),
      textTurn("all done", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    try {
      const opened = await openTestSession(tree, m, { allowedTools: ["Skill"] });
      const { result } = await sendAll(opened, "go small");
      expect(result.text).toBe("all done");

      const [main] = mainRequests(m);
      const [sub] = forkRequests(m);
      expect(bodyOf(main).model).toBe("claude-sonnet-5-5");
      expect(bodyOf(sub).model).toBe("claude-haiku-4-5");
      const mainListing = listingIn(firstMessageTexts(main));
      const subListing = listingIn(firstMessageTexts(sub));
      // The main agent (1M tokens: a 30,000-char budget) gets every description...
      expect(mainListing).toContain(`- s00: ${DESCRIPTION}`);
      expect(mainListing.length).toBeGreaterThan(SKILLS * DESCRIPTION.length);
      // ...the fork (200k tokens: 8,000 chars) the same skills, most by name only.
      expect(subListing).toContain("- s00");
      expect(subListing).toContain("- s39");
      expect(subListing.length).toBeLessThan(DEFAULT_LISTING_BUDGET + 1_000);
      await opened.session.close();
    } finally {
      await m.close();
    }
  });
});
