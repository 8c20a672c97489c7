import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { isValidSkillName } from "./fields.js";

/** Top-level keys the Agent Skills specification defines. */
export const SPEC_FIELDS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
] as const;
/** The specification's description length range. */
export const SPEC_DESCRIPTION_MAX = 1_024;

const SPEC_KEYS = new Set<string>(SPEC_FIELDS);

/**
 * The Agent Skills strict profile (SPEC §1 `validate --spec`), on the raw frontmatter: name required, valid
 * and equal to the dir; description 1–1,024 chars (over the limit is a warning: engines truncate rather than
 * refuse); no keys outside the specification. Pure.
 */
export function checkSpecProfile(data: Record<string, unknown>, dirName: string, path: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const name = data.name;
  if (typeof name !== "string" || name === "") {
    out.push(diagnostic("error", "spec-name-missing", "the spec requires a `name` field", path));
  } else if (name !== dirName) {
    out.push(
      diagnostic(
        "error",
        "spec-name-mismatch",
        `name "${name}" must equal the directory name "${dirName}"`,
        path,
      ),
    );
  } else if (!isValidSkillName(name)) {
    out.push(
      diagnostic(
        "error",
        "name-invalid",
        `name "${name}" must be [a-z0-9-], at most 64 chars, no edge or double hyphen`,
        path,
      ),
    );
  }
  const description = data.description;
  if (typeof description !== "string" || description.trim() === "") {
    out.push(
      diagnostic("error", "spec-description-length", "the spec requires a non-empty `description`", path),
    );
  } else if (description.length > SPEC_DESCRIPTION_MAX) {
    out.push(
      diagnostic(
        "warning",
        "spec-description-length",
        `description is ${description.length} chars; the spec allows at most ${SPEC_DESCRIPTION_MAX}`,
        path,
      ),
    );
  }
  for (const key of Object.keys(data)) {
    if (!SPEC_KEYS.has(key)) {
      out.push(diagnostic("error", "spec-unknown-key", `"${key}" is not an Agent Skills field`, path));
    }
  }
  return out;
}
