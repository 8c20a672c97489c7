import { describe, expect, it } from "vitest";
import type { AgentToolContext } from "../../src/agent/loop.js";
import type { TurnState } from "../../src/agent/turn-patch.js";
import type { Skill } from "../../src/skill/skill.js";
import type { InvocationOutcome, InvocationRequest } from "../../src/skill-tool/invoke.js";
import { SKILL_TOOL_DESCRIPTION } from "../../src/skill-tool/prompt.js";
import { createSkillTool, MAX_FORK_DEPTH, type SkillToolOptions } from "../../src/skill-tool/skill-tool.js";
import { makeSkill } from "../support/make-skill.js";

const TURN: TurnState = { model: "claude-sonnet-5-5", grants: ["Read"], removedTools: [] };
const INLINE: InvocationOutcome = {
  kind: "inline",
  text: "Base directory for this skill: /s\n\nBody",
  patch: { model: "haiku" },
};

function ctx(): AgentToolContext {
  return { cwd: "/tmp", signal: new AbortController().signal, toolUseId: "toolu_1", turn: TURN };
}

function tool(
  skills: Skill[],
  outcome: InvocationOutcome = INLINE,
  extra: Partial<Pick<SkillToolOptions, "depth" | "agentId" | "pluginSkillNames">> = {},
) {
  const requests: InvocationRequest[] = [];
  const t = createSkillTool({
    skills: () => skills,
    pluginSkillNames: () => [],
    invoke: async (request) => {
      requests.push(request);
      return outcome;
    },
    depth: 0,
    ...extra,
  });
  return { t, requests };
}

const SKILLS = [makeSkill({ name: "deploy" }), makeSkill({ name: "hidden", disableModelInvocation: true })];
const error = (message: string) => ({
  content: [{ type: "text", text: `<tool_use_error>${message}</tool_use_error>` }],
  isError: true,
  touchedPaths: [],
});

describe("createSkillTool: shape", () => {
  it("is named Skill, carries the prompt text and a strict { skill, args? } schema", () => {
    const { t } = tool(SKILLS);
    expect(t.name).toBe("Skill");
    expect(t.description).toBe(SKILL_TOOL_DESCRIPTION);
    expect(t.inputSchema).toMatchObject({
      type: "object",
      properties: { skill: { type: "string" }, args: { type: "string" } },
      required: ["skill"],
      additionalProperties: false,
    });
    expect(t.inputSchema).not.toHaveProperty("$schema");
    expect(t.readOnly).toBe(false);
  });

  it.each([
    { input: { skill: "deploy" }, want: "deploy" },
    { input: { skill: "deploy", extra: 1 }, want: undefined },
    { input: "deploy", want: undefined },
  ])("subject($input) = $want", ({ input, want }) => {
    expect(tool(SKILLS).t.subject(input)).toBe(want);
  });
});

describe("createSkillTool: run", () => {
  it("validates before invoking: failures are <tool_use_error> results and invoke is never called", async () => {
    const { t, requests } = tool(SKILLS);
    expect(await t.run({ skill: " " }, ctx())).toEqual(error("Skill name is empty"));
    expect(await t.run({ skill: "deplyo" }, ctx())).toEqual(
      error("Unknown skill: deplyo. Did you mean deploy?"),
    );
    expect((await t.run({ skill: "hidden" }, ctx())).content[0]).toMatchObject({
      text: expect.stringContaining("disable-model-invocation"),
    });
    const bad = await t.run({ skill: "deploy", extra: true }, ctx());
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toMatchObject({
      text: expect.stringMatching(/^<tool_use_error>Invalid input for Skill: /),
    });
    expect(requests).toEqual([]);
  });

  it("reads the skills at call time (a skill activated later is callable)", async () => {
    const skills: Skill[] = [];
    const { t } = tool(skills);
    expect((await t.run({ skill: "late" }, ctx())).isError).toBe(true);
    skills.push(makeSkill({ name: "late" }));
    expect((await t.run({ skill: "late" }, ctx())).isError).toBe(false);
  });

  it("passes the call to the pipeline as a model invocation with the turn, depth and agent id", async () => {
    const { t, requests } = tool(SKILLS, INLINE, { depth: 1, agentId: "fork-1" });
    const context = ctx();
    await t.run({ skill: "/deploy" }, context);
    expect(requests).toEqual([
      {
        skill: SKILLS[0],
        name: "deploy",
        args: "",
        origin: "model",
        turn: TURN,
        signal: context.signal,
        depth: 1,
        agentId: "fork-1",
      },
    ]);
  });

  it("inline: `Launching skill: {name}`, the expansion as a follow-up block and the turn patch", async () => {
    const { t } = tool(SKILLS);
    expect(await t.run({ skill: "deploy", args: "prod" }, ctx())).toEqual({
      content: [{ type: "text", text: "Launching skill: deploy" }],
      isError: false,
      touchedPaths: [],
      followUp: [{ type: "text", text: INLINE.kind === "inline" ? INLINE.text : "" }],
      patch: { model: "haiku" },
    });
  });

  it("refused: the pipeline's message as an error", async () => {
    const { t } = tool(SKILLS, { kind: "refused", message: "The user denied permission." });
    expect(await t.run({ skill: "deploy" }, ctx())).toEqual(error("The user denied permission."));
  });

  it.each([
    {
      outcome: {
        ok: true as const,
        text: 'Skill "deploy" completed (forked execution).\n\nResult:\nok',
        answer: "ok",
      },
      isError: false,
    },
    { outcome: { ok: false as const, text: "Fork ended with no text" }, isError: true },
  ])("fork: the fork's text as the result (isError $isError), no follow-up", async ({ outcome, isError }) => {
    const { t } = tool(SKILLS, { kind: "fork", outcome });
    expect(await t.run({ skill: "deploy" }, ctx())).toEqual({
      content: [{ type: "text", text: outcome.text }],
      isError,
      touchedPaths: [],
    });
  });

  it(`a forked skill is refused at depth ${MAX_FORK_DEPTH}, allowed one level above`, async () => {
    const forked = [makeSkill({ name: "research", context: "fork" })];
    const deep = tool(forked, INLINE, { depth: MAX_FORK_DEPTH });
    const result = await deep.t.run({ skill: "research" }, ctx());
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringContaining(`at most ${MAX_FORK_DEPTH} deep`),
    });
    expect(deep.requests).toEqual([]);
    const ok = tool(forked, INLINE, { depth: MAX_FORK_DEPTH - 1 });
    expect((await ok.t.run({ skill: "research" }, ctx())).isError).toBe(false);
    const inlineDeep = tool(SKILLS, INLINE, { depth: MAX_FORK_DEPTH });
    expect((await inlineDeep.t.run({ skill: "deploy" }, ctx())).isError).toBe(false);
  });

  it("the bare-name hint names the plugin skill", async () => {
    const { t } = tool(SKILLS, INLINE, { pluginSkillNames: () => ["tools:lint"] });
    expect(await t.run({ skill: "lint" }, ctx())).toEqual(
      error("Unknown skill: lint. Did you mean tools:lint? Invoke it by that full name."),
    );
  });
});

describe("createSkillTool: Claude Code's texts (SPEC §14)", () => {
  it("§14.4: `Launching skill:` names the skill as called: an alias stays the alias, the `/` is stripped", async () => {
    const aliased = [makeSkill({ name: "pdf-tools", alias: "pdf" })];
    const { t, requests } = tool(aliased);
    const result = await t.run({ skill: "/pdf" }, ctx());
    expect(result.content).toEqual([{ type: "text", text: "Launching skill: pdf" }]);
    expect(requests.map((r) => [r.skill.name, r.name])).toEqual([["pdf-tools", "pdf"]]);
  });

  it("§14.7: a call without `skill` is an InputValidationError", async () => {
    const { t, requests } = tool(SKILLS);
    expect(await t.run({ args: "x" }, ctx())).toEqual({
      content: [
        {
          type: "text",
          text:
            "<tool_use_error>InputValidationError: Skill failed due to the following issue:\n" +
            "The required parameter `skill` is missing</tool_use_error>",
        },
      ],
      isError: true,
      touchedPaths: [],
    });
    expect(requests).toEqual([]);
  });

  it.each(["help", "clear", "compact", "model", "reload", "exit"])(
    "§14.6: the UI command %s is refused with a pointer to the user",
    async (name) => {
      const { t, requests } = tool(SKILLS);
      expect(await t.run({ skill: `/${name}` }, ctx())).toEqual(
        error(
          `${name} is a UI command, not a skill. Ask the user to run /${name} themselves — it cannot be invoked via the Skill tool.`,
        ),
      );
      expect(requests).toEqual([]);
    },
  );

  it("§14.6: a skill named like a UI command is still a skill", async () => {
    const { t, requests } = tool([makeSkill({ name: "help" })]);
    expect((await t.run({ skill: "help" }, ctx())).isError).toBe(false);
    expect(requests).toHaveLength(1);
  });
});
