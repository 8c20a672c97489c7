import { isValidSkillName, MAX_NAME_LENGTH } from "../../skill/fields.js";
import { parseFrontmatter } from "../../skill/frontmatter.js";
import { splitFrontmatter } from "../../skill/frontmatter-core.js";
import { MAX_SKILL_FILE_BYTES, unclosedMessage } from "../../skill/load-skill.js";
import { firstBodyLine, normalizeMeta } from "../../skill/schema.js";
import { invalid } from "../errors.js";
import type { SkillUpload } from "../store/skill-upload.js";
import type { SkillTree } from "./skill-files.js";

/**
 * Parses the tree's SKILL.md with the engine's own parser into a {@link SkillUpload}. Refused (400, the
 * parser's diagnostics in the message): an unclosed or invalid frontmatter, an error diagnostic, no valid
 * kebab-case name (frontmatter `name`, else the enclosing dir), no frontmatter `description` (the model
 * picks skills by it).
 */
export function parseSkillUpload(tree: SkillTree): SkillUpload {
  const file = tree.files.find((f) => f.path === "SKILL.md");
  if (file === undefined) throw invalid("no SKILL.md at the root of the upload");
  if (file.content.length > MAX_SKILL_FILE_BYTES) {
    throw invalid(`SKILL.md is ${file.content.length} bytes; the limit is ${MAX_SKILL_FILE_BYTES}`);
  }
  if (file.content.includes(0)) throw invalid("SKILL.md holds NUL bytes: it must be UTF-8 text");
  const split = splitFrontmatter(Buffer.from(file.content).toString("utf8"));
  const malformed = (detail: string) => invalid(`SKILL.md is malformed: ${detail}`);
  if (split.unclosed) throw malformed(`frontmatter-unclosed: ${unclosedMessage(split.body)}`);
  if (split.frontmatter === undefined) {
    throw malformed("no frontmatter; start the file with ---, then name: and description:, then ---");
  }
  const parsed = parseFrontmatter(split.frontmatter);
  if (parsed.yamlError !== undefined) throw malformed(`yaml-invalid: ${parsed.yamlError}`);
  const rawName = parsed.data.name;
  const name = typeof rawName === "string" && rawName.trim() !== "" ? rawName.trim() : tree.dirName;
  if (name === undefined) {
    throw malformed("no name: add `name:` to the frontmatter or upload the files inside a directory");
  }
  if (!isValidSkillName(name)) {
    throw malformed(
      `name-invalid: ${JSON.stringify(name)} must be lowercase letters, digits and single hyphens, at most ${MAX_NAME_LENGTH} chars`,
    );
  }
  const { meta, diagnostics } = normalizeMeta({
    data: parsed.data,
    kind: "skill",
    dirName: name,
    firstBodyLine: firstBodyLine(split.body),
    path: "SKILL.md",
  });
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw malformed(errors.map((d) => `${d.code}: ${d.message}`).join("; "));
  if (meta.descriptionFromBody) {
    throw malformed("no description: add `description:` to the frontmatter (the model picks skills by it)");
  }
  const head: Record<string, unknown> = { ...meta };
  return { name, description: meta.description, head, files: tree.files };
}
