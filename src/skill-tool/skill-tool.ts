import type { AgentTool, AgentToolResult } from "../agent/loop.js";
import type { Skill } from "../skill/skill.js";
import type { DisabledSkill } from "../skill-filter.js";
import { SKILL_INPUT_SCHEMA } from "../tools/input-schemas.js";
import type { InvocationOutcome, InvocationRequest } from "./invoke.js";
import { SKILL_TOOL_DESCRIPTION, SKILL_TOOL_NAME } from "./prompt.js";
import { parseSkillToolInput, toolUseError, validateSkillCall } from "./validate.js";

/** Forks nest at most this deep (SPEC §7): the main agent is depth 0. */
export const MAX_FORK_DEPTH = 3;

export interface SkillToolOptions {
  /** The skills the model may call now (activated conditional skills included, others not). */
  skills: () => readonly Skill[];
  /** Plugin skill names, for the bare-name hint. */
  pluginSkillNames: () => readonly string[];
  /** The disabled skill called `name`, so a call of it says which setting or flag disabled it. */
  disabled?: (name: string) => DisabledSkill | undefined;
  /** True when a skill called `name` was found but skipped by an error at discovery. */
  skipped?: (name: string) => boolean;
  /** The refusal for a skill outside the calling agent's scope (`Skill "x" is not available to agent y`). */
  outOfScope?: (name: string) => string | undefined;
  invoke: (request: InvocationRequest) => Promise<InvocationOutcome>;
  /**
   * The deferred tools a skill reveals in this session (its own, its MCP servers'): an inline invocation's result references them
   * (`tool_reference`), which reveals their definitions to the model. Absent: none.
   */
  ownedTools?: (skill: Skill) => readonly string[];
  /** The depth of the agent this tool belongs to. */
  depth: number;
  agentId?: string;
}

function errorText(message: string): AgentToolResult {
  return { content: [{ type: "text", text: toolUseError(message) }], isError: true, touchedPaths: [] };
}

/**
 * The `Skill` tool (SPEC §4): validates the call, then hands it to the one invocation pipeline. Inline skills
 * answer `Launching skill: {name}` (the name as called, SPEC §14.4) with the expansion as a follow-up text block and a turn patch; forked
 * skills answer with the fork's result (SPEC §7). Its `input_schema` is generated from `SkillToolInput` (the single
 * source) at build time (scripts/tool-schemas.mjs): the same object every request. Failures are `<tool_use_error>` results, never throws.
 */
export function createSkillTool(options: SkillToolOptions): AgentTool {
  return {
    name: SKILL_TOOL_NAME,
    description: SKILL_TOOL_DESCRIPTION,
    inputSchema: SKILL_INPUT_SCHEMA,
    readOnly: false,
    subject: (raw) => {
      const parsed = parseSkillToolInput(raw);
      return parsed.ok ? parsed.input.skill : undefined;
    },
    async run(raw, ctx) {
      const parsed = parseSkillToolInput(raw);
      if (!parsed.ok) return errorText(parsed.message);
      const valid = validateSkillCall(parsed.input, {
        skills: options.skills(),
        pluginSkillNames: options.pluginSkillNames(),
        ...(options.disabled === undefined ? {} : { disabled: options.disabled }),
        ...(options.skipped === undefined ? {} : { skipped: options.skipped }),
        ...(options.outOfScope === undefined ? {} : { outOfScope: options.outOfScope }),
      });
      if (!valid.ok) return errorText(valid.message);
      const { skill, name } = valid;
      if (skill.context === "fork" && options.depth >= MAX_FORK_DEPTH) {
        return errorText(
          `Skill ${skill.name} runs as a fork, and forks nest at most ${MAX_FORK_DEPTH} deep.`,
        );
      }
      const outcome = await options.invoke({
        skill,
        name,
        args: parsed.input.args ?? "",
        origin: "model",
        turn: ctx.turn,
        signal: ctx.signal,
        depth: options.depth,
        ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
      });
      switch (outcome.kind) {
        case "refused":
          return outcome.shell === true
            ? { content: [{ type: "text", text: outcome.message }], isError: true, touchedPaths: [] }
            : errorText(outcome.message);
        case "inline":
          return {
            content: [
              { type: "text", text: `Launching skill: ${name}` },
              ...(options.ownedTools?.(skill) ?? []).map((tool) => ({
                type: "tool_reference" as const,
                tool_name: tool,
              })),
            ],
            isError: false,
            touchedPaths: [],
            followUp: [
              ...(outcome.note === undefined ? [] : [{ type: "text" as const, text: outcome.note }]),
              { type: "text", text: outcome.text },
              ...(outcome.modelNote === undefined
                ? []
                : [{ type: "text" as const, text: outcome.modelNote }]),
            ],
            patch: outcome.patch,
          };
        case "fork":
          return {
            content: [{ type: "text", text: outcome.outcome.text }],
            isError: !outcome.outcome.ok,
            touchedPaths: [],
          };
      }
    },
  };
}
