import type { AgentTool } from "../agent/loop.js";
import type { DisabledSkill } from "../skill-filter.js";
import { disabledSkillText } from "../skill-filter.js";
import {
  findSkill,
  normalizeSkillName,
  readSkillToolInputFast,
  toolUseError,
} from "../skill-tool/validate.js";
import type { SkillView } from "./skill-view.js";

/**
 * The disabled skill a Skill tool input names, when it names no enabled skill (an enabled skill of that name or
 * alias wins). Undefined for anything else, which the Skill tool validates as usual. Pure over the view.
 */
export function disabledSkillCalled(raw: unknown, view: SkillView): DisabledSkill | undefined {
  const input = readSkillToolInputFast(raw);
  if (input === undefined) return undefined;
  const name = normalizeSkillName(input.skill);
  if (name === "" || findSkill(view.visible(), name) !== undefined) return undefined;
  return view.disabled(name);
}

/**
 * Wraps a Skill tool so that a call naming a disabled skill (settings `skills.disabled`, `--skills`,
 * `--no-skills`) gets a `<tool_use_error>` saying which setting or flag disabled it, instead of "Unknown skill".
 */
export function guardDisabledSkills(tool: AgentTool, view: SkillView): AgentTool {
  return {
    ...tool,
    async run(raw, ctx) {
      const off = disabledSkillCalled(raw, view);
      if (off === undefined) return tool.run(raw, ctx);
      return {
        content: [{ type: "text", text: toolUseError(disabledSkillText(off.skill.name, off.by)) }],
        isError: true,
        touchedPaths: [],
      };
    },
  };
}
