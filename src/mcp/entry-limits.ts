import { isValidSkillName } from "../skill/fields.js";
import { SPEC_COMPATIBILITY_MAX, SPEC_DESCRIPTION_MAX } from "../skill/spec-profile.js";

/** Length in Unicode code points, as the MCP Skills extension counts. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * What in a `skills/list` entry's frontmatter breaks the MCP Skills extension's rules (SEP-2640, the Agent
 * Skills limits): a name of 1–64 lowercase letters, digits and single hyphens equal to the last segment of the
 * skill's path; a description of 1–1,024 characters; a `compatibility` of 1–500 characters; `metadata` mapping
 * strings to strings. The SDK's skills client refuses to read such a skill, so it could never load. Empty when
 * the entry keeps them. Pure.
 */
export function entryLimitProblems(frontmatter: Record<string, unknown>, skillPath: string): string[] {
  const problems: string[] = [];
  const { name, description, compatibility, metadata } = frontmatter;
  const dir = skillPath.slice(skillPath.lastIndexOf("/") + 1);
  if (typeof name !== "string" || name === "" || !isValidSkillName(name)) {
    problems.push(
      `its name ${JSON.stringify(name)} is not 1-64 lowercase letters, digits and single hyphens`,
    );
  } else if (name !== dir) {
    problems.push(`its name "${name}" is not the last segment of its path ("${dir}")`);
  }
  if (typeof description !== "string" || description === "") {
    problems.push("its description is empty");
  } else if (length(description) > SPEC_DESCRIPTION_MAX) {
    problems.push(
      `its description is ${length(description).toLocaleString("en")} characters, over ${SPEC_DESCRIPTION_MAX.toLocaleString("en")}`,
    );
  }
  if (
    compatibility !== undefined &&
    (typeof compatibility !== "string" ||
      compatibility === "" ||
      length(compatibility) > SPEC_COMPATIBILITY_MAX)
  ) {
    problems.push(`its compatibility is not a text of 1-${SPEC_COMPATIBILITY_MAX} characters`);
  }
  const isStringMap =
    typeof metadata === "object" &&
    metadata !== null &&
    !Array.isArray(metadata) &&
    Object.values(metadata).every((v) => typeof v === "string");
  if (metadata !== undefined && !isStringMap) problems.push("its metadata does not map strings to strings");
  return problems;
}
