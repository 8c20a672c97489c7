/**
 * Per-agent skill scope (issue #27 item 8) on the shipped bin against the scripted model server: an agent
 * type's `allowed-skills` / `disallowed-skills` and a skill's `available-to` decide what each agent's listing,
 * `SkillSearch` and Skill tool offer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { cli } from "../cli/run-cli.js";
import {
  lastUser,
  type RequestBody,
  resultText,
  skillMd,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const SKILLS = ".claude/skills";
let tree: TmpTree;
beforeAll(async () => {
  const project = {
    ".git": { dir: true },
    ".claude/agents/reviewer.md":
      "---\nname: reviewer\ndescription: Reviews code\nallowed-skills: [review-*, helper-only]\n" +
      "disallowed-skills: review-secret\n---\nYou review code.\n",
    [`${SKILLS}/helper-only/SKILL.md`]: skillMd(
      "description: Checklist for reviewers only\navailable-to: [reviewer]",
      "HELPER-BODY",
    ),
    [`${SKILLS}/review-style/SKILL.md`]: skillMd("description: Style rules for a review", "STYLE"),
    [`${SKILLS}/review-secret/SKILL.md`]: skillMd("description: Secret review notes", "SECRET"),
    [`${SKILLS}/other/SKILL.md`]: skillMd("description: Something unrelated", "OTHER"),
    [`${SKILLS}/go-review/SKILL.md`]: skillMd(
      "description: Runs a review in a sub-agent\ncontext: fork\nagent: reviewer",
      "REVIEW-TASK",
    ),
  } as const;
  tree = await tmpTree({
    "home/.keep": "",
    ...Object.fromEntries(Object.entries(project).map(([k, v]) => [`home/repo/${k}`, v])),
    // The same project with a listing budget small enough that SkillSearch is offered.
    ...Object.fromEntries(Object.entries(project).map(([k, v]) => [`home/small/${k}`, v])),
    "home/small/.claude/settings.json": JSON.stringify({ skillListingBudget: 120 }),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(turns: ScriptTurnInput[], cwd: string) {
  model = await startTestModel(turns);
  const result = await cli(tree, ["-p", "review it", "--allowedTools", "Skill"], cwd, {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.server.url,
  });
  const requests = model.server.requests.filter((r) => r.path === "/v1/messages");
  const isFork = (r: (typeof requests)[number]) => r.headers[AGENT_ID_HEADER] !== undefined;
  return {
    result,
    main: requests.filter((r) => !isFork(r)).map((r) => r.body as RequestBody),
    fork: requests.filter(isFork).map((r) => r.body as RequestBody),
  };
}

const MAIN = { agentId: null };
const FORK = { agentId: "*" };
const listed = (body: RequestBody | undefined) =>
  [
    ...textBlocks(body?.messages[0]?.content ?? "")
      .join("\n")
      .matchAll(/^- ([a-z-]+):/gm),
  ]
    .map((m) => m[1])
    .sort();
function request(body: RequestBody | undefined): RequestBody {
  if (body === undefined) throw new Error("no such request");
  return body;
}
const onlyResult = (body: RequestBody | undefined) => {
  const [result] = toolResults(request(body));
  return result === undefined ? undefined : { text: resultText(result), isError: result.is_error === true };
};

describe("per-agent skill scope on dist/bin", () => {
  it("each agent's listing and Skill tool offer only its skills; an out-of-scope call is refused by name", async () => {
    const { result, main, fork } = await run(
      [
        toolTurn(
          "Skill",
          { skill: "helper-only" },
          { match: { ...MAIN, lastUserTextIncludes: "review it" } },
        ),
        toolTurn(
          "Skill",
          { skill: "go-review" },
          { match: { ...MAIN, toolResultIncludes: "not available" } },
        ),
        toolTurn("Skill", { skill: "other" }, { match: { ...FORK, lastUserTextIncludes: "REVIEW-TASK" } }),
        toolTurn(
          "Skill",
          { skill: "helper-only" },
          { match: { ...FORK, toolResultIncludes: "not available" } },
        ),
        textTurn("Reviewed.", { ...FORK, hasToolResultFor: "Skill", lastUserTextIncludes: "HELPER-BODY" }),
        textTurn("Done.", { ...MAIN, toolResultIncludes: "Reviewed." }),
      ],
      "home/repo",
    );
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("Done.");
    // The main agent never sees the reviewer-only skill; the reviewer sees only review-* and helper-only.
    expect(listed(main[0])).toEqual(["go-review", "init", "other", "review-secret", "review-style"]);
    expect(listed(fork[0])).toEqual(["helper-only", "review-style"]);
    expect(onlyResult(main[1])).toEqual({
      text: '<tool_use_error>Skill "helper-only" is not available to agent main</tool_use_error>',
      isError: true,
    });
    expect(onlyResult(fork[1])).toEqual({
      text: '<tool_use_error>Skill "other" is not available to agent reviewer</tool_use_error>',
      isError: true,
    });
    expect(onlyResult(fork[2])).toEqual({ text: "Launching skill: helper-only", isError: false });
    expect(textBlocks(lastUser(request(fork[2])).content).join("\n")).toContain("HELPER-BODY");
  });

  it("SkillSearch finds only the skills the searching agent may call", async () => {
    const { main, fork } = await run(
      [
        toolTurn(
          "SkillSearch",
          { query: "checklist reviewers" },
          { match: { ...MAIN, lastUserTextIncludes: "review it" } },
        ),
        toolTurn("Skill", { skill: "go-review" }, { match: { ...MAIN, hasToolResultFor: "SkillSearch" } }),
        toolTurn(
          "SkillSearch",
          { query: "checklist reviewers" },
          { match: { ...FORK, lastUserTextIncludes: "REVIEW-TASK" } },
        ),
        textTurn("Reviewed.", { ...FORK, hasToolResultFor: "SkillSearch" }),
        textTurn("Done.", { ...MAIN, toolResultIncludes: "Reviewed." }),
      ],
      "home/small",
    );
    expect(main[0]?.tools?.map((t) => t.name)).toContain("SkillSearch");
    expect(onlyResult(main[1])?.text).not.toContain("helper-only");
    expect(onlyResult(fork[1])?.text).toContain("- helper-only: Checklist for reviewers only");
  });
});
