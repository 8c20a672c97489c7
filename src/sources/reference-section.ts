import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import type { ReferenceInfo } from "../skill/reference.js";
import type { Skill } from "../skill/skill.js";

/** The name of the tool that reads a skill's references. */
export const LOAD_REFERENCE_TOOL_NAME = "load_reference";

/**
 * True when a skill's references are named in its Skill tool result: skills with no folder of their own
 * (memory, app and code-registered skills). A file skill gets its base directory instead, as in Claude Code.
 */
export function namesReferences(skill: Pick<Skill, "filePath" | "references">): boolean {
  return skill.filePath === "" && skill.references !== undefined;
}

/**
 * The lines added to a skill's expansion that name its references (name and description, never where they are
 * stored) and say how to read them; empty when there are none. Pure.
 */
export function referenceSection(skillName: string, references: readonly ReferenceInfo[]): string {
  if (references.length === 0) return "";
  const lines = references.map((r) =>
    r.description === "" ? `- ${r.name}` : `- ${r.name}: ${r.description.replace(/\s+/g, " ")}`,
  );
  return neutralizeMarkup(
    [
      `References of this skill (read one with the ${LOAD_REFERENCE_TOOL_NAME} tool: skill "${skillName}", name as listed):`,
      ...lines,
    ].join("\n"),
  );
}
