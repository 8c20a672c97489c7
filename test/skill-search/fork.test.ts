/** A fork that may use skills gets the session's SkillSearch with its Skill tool, and a listing pointing to it. */
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, LISTING_HEADER, skillMd, startHarness, textBlocks } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

interface Body {
  tools?: { name: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

describe("SkillSearch in forks (SPEC §14.15)", () => {
  it("goes with the fork's Skill tool; the fork's listing names it", async () => {
    const files: Record<string, string> = {
      "project/.claude/skills/worker/SKILL.md": skillMd(
        "description: Works in a fork\ncontext: fork",
        "FORK-TASK",
      ),
    };
    for (let i = 0; i < 50; i++) {
      files[`project/.claude/skills/extra-${i}/SKILL.md`] = skillMd(`description: Extra ${i}`, "x");
    }
    e = await startHarness({
      files,
      // Room for a few names only: the catalog overflows.
      env: { SKILLWRIGHT_LISTING_BUDGET: "400" },
      turns: [
        toolTurn("Skill", { skill: "worker" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
        textTurn("fork done", { agentId: "*" }),
        textTurn("all done", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("go");
    const main = e.body(0) as Body;
    expect(main.tools?.map((t) => t.name)).toContain("SkillSearch");
    const fork = e.forkRequests()[0]?.body as Body;
    expect(fork.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(["Skill", "SkillSearch"]));
    const first = fork.messages[0];
    const listing = textBlocks(first?.content ?? "").find((t) => t.includes(LISTING_HEADER)) ?? "";
    expect(listing).toMatch(
      /\(\d+ more skills are not listed to fit the listing budget: find them with the SkillSearch tool/,
    );
  });
});
