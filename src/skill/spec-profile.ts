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
/** The specification's `compatibility` length limit. */
export const SPEC_COMPATIBILITY_MAX = 500;

/**
 * The specification's rules this profile checks, in its own words (agentskills.io/specification), and what the
 * reference validator `skills-ref` does with them.
 */
export const SPEC_RULES = {
  frontmatter: "The SKILL.md file must contain YAML frontmatter followed by Markdown content.",
  name: "Must be 1-64 characters. May only contain unicode lowercase alphanumeric characters and hyphens (a-z and -). Must not start or end with -. Must not contain consecutive hyphens. Must match the parent directory name.",
  description: "Must be 1-1024 characters.",
  compatibility: "Must be 1-500 characters if provided.",
  metadata: "A map from string keys to string values.",
  allowedTools: "A space-delimited list of tools that are pre-approved to run.",
} as const;

const SPEC_KEYS = new Set<string>(SPEC_FIELDS);

/** How the frontmatter parsed, as far as the spec profile cares (see `ParsedFrontmatter`). */
export interface SpecParseInfo {
  /** No frontmatter at all, or a `---` that never closes. */
  fence?: "missing" | "unclosed";
  /** Why `yaml` refused the block (the engine then read it line by line). */
  yamlError?: string;
  /** `yaml`'s messages for keys written twice. */
  duplicateKeys?: readonly string[];
}

/** Length in Unicode code points, as the reference validator (Python `len`) counts. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "a mapping" : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * The Agent Skills strict profile (SPEC §1 `validate --spec`), on the raw frontmatter, agreeing with the
 * reference validator `skills-ref`: frontmatter present, closed and valid YAML (a YAML error, a tab indent or a
 * duplicate key is an error here, though the engine reads such a block leniently); name a string, valid and
 * equal to the dir; description a string of 1–1,024 chars; `compatibility` a string of at most 500 chars;
 * `metadata` a map of strings to strings; `allowed-tools` a string or a list of strings; no keys outside the
 * specification. When the block is missing, unclosed or not YAML, that alone is reported (the reference stops
 * there too). Engine limits (file size) are not its business. Pure.
 */
export function checkSpecProfile(
  data: Record<string, unknown>,
  dirName: string,
  path: string,
  parse: SpecParseInfo = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (code: Diagnostic["code"], message: string) =>
    out.push(diagnostic("error", code, message, path));

  if (parse.fence === "missing") {
    error("spec-yaml-invalid", "SKILL.md must start with YAML frontmatter (---)");
  } else if (parse.fence === "unclosed") {
    error("spec-yaml-invalid", "the frontmatter is not closed with a --- line");
  }
  if (parse.yamlError !== undefined) {
    error("spec-yaml-invalid", `the frontmatter is not valid YAML: ${parse.yamlError}`);
  }
  for (const message of parse.duplicateKeys ?? []) {
    error("spec-yaml-invalid", `the frontmatter is not valid YAML: ${message}`);
  }
  // As the reference validator: fields are not judged from a block that is not YAML.
  if (out.length > 0) return out;

  const name = data.name;
  if (name === undefined || name === null || name === "") {
    error("spec-name-missing", "the spec requires a `name` field");
  } else if (typeof name !== "string") {
    error("name-invalid", `name must be a string, got ${kindOf(name)} (quote it: name: "${String(name)}")`);
  } else if (name !== dirName) {
    error("spec-name-mismatch", `name "${name}" must equal the directory name "${dirName}"`);
  } else if (!isValidSkillName(name)) {
    error("name-invalid", `name "${name}" must be [a-z0-9-], at most 64 chars, no edge or double hyphen`);
  }

  const description = data.description;
  if (description === undefined || description === null) {
    error("spec-description-length", "the spec requires a non-empty `description`");
  } else if (typeof description !== "string") {
    error("spec-field-invalid", `description must be a string, got ${kindOf(description)}`);
  } else if (description.trim() === "") {
    error("spec-description-length", "the spec requires a non-empty `description`");
  } else if (length(description) > SPEC_DESCRIPTION_MAX) {
    error(
      "spec-description-length",
      `description is ${length(description)} chars; the spec allows at most ${SPEC_DESCRIPTION_MAX}`,
    );
  }

  const compatibility = data.compatibility;
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") {
      error("spec-field-invalid", `compatibility must be a string, got ${kindOf(compatibility)}`);
    } else if (length(compatibility) > SPEC_COMPATIBILITY_MAX) {
      error(
        "spec-compatibility-length",
        `compatibility is ${length(compatibility)} chars; the spec allows at most ${SPEC_COMPATIBILITY_MAX}`,
      );
    }
  }

  const metadata = data.metadata;
  if (metadata !== undefined) {
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      error(
        "spec-field-invalid",
        `metadata must be a map from string keys to string values, got ${kindOf(metadata)}`,
      );
    } else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== "string") {
          error(
            "spec-field-invalid",
            `metadata.${key} must be a string, got ${kindOf(value)} (quote it in the YAML)`,
          );
        }
      }
    }
  }

  const tools = data["allowed-tools"];
  if (
    tools !== undefined &&
    typeof tools !== "string" &&
    !(Array.isArray(tools) && tools.every((item) => typeof item === "string"))
  ) {
    error("spec-field-invalid", `allowed-tools must be a string or a list of strings, got ${kindOf(tools)}`);
  }

  for (const key of Object.keys(data)) {
    if (!SPEC_KEYS.has(key)) error("spec-unknown-key", `"${key}" is not an Agent Skills field`);
  }
  return out;
}
