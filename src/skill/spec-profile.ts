import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { SpecParseInfo } from "./spec-read.js";

/** Top-level keys the Agent Skills specification defines. */
export const SPEC_FIELDS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
] as const;
/** The specification's name length limit, in code points after NFKC. */
export const SPEC_NAME_MAX = 64;
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
 * Why `name` breaks the specification's name rule, as the reference validator reads it (NFKC, then: at most
 * 64 code points, lowercase, letters (any script), digits and hyphens, no hyphen at either end, none doubled);
 * empty when it keeps it. Pure.
 */
export function specNameProblems(name: string): string[] {
  const n = name.trim().normalize("NFKC");
  const out: string[] = [];
  if (length(n) > SPEC_NAME_MAX) out.push(`over ${SPEC_NAME_MAX} chars (${length(n)})`);
  if (n !== n.toLowerCase()) out.push("not lowercase");
  if (n.startsWith("-") || n.endsWith("-")) out.push("starts or ends with a hyphen");
  if (n.includes("--")) out.push("has consecutive hyphens");
  if (!/^[\p{L}\p{N}-]*$/u.test(n)) out.push("has characters other than letters, digits and hyphens");
  return out;
}

/** A spec diagnostic about one frontmatter key (`field` names it, so a caller can tell keys apart). */
function about(d: Diagnostic, field: string): Diagnostic {
  return { ...d, field };
}

/**
 * What makes the reference tool refuse to read a skill at all (`read_properties`, which its `to-prompt` uses):
 * a file that does not start with `---` (a BOM included), an unclosed or non-YAML frontmatter, bytes that are
 * not UTF-8, or a `name` or `description` that is missing or not non-empty text. Pure.
 */
export function checkSpecRead(
  data: Record<string, unknown>,
  path: string,
  parse: SpecParseInfo,
): Diagnostic[] {
  const out = parseProblems(path, parse);
  if (out.some((d) => d.code === "spec-yaml-invalid")) return out;
  const name = data.name;
  if (name === undefined || name === null || (typeof name === "string" && name.trim() === "")) {
    out.push(
      about(diagnostic("error", "spec-name-missing", "the spec requires a `name` field", path), "name"),
    );
  } else if (typeof name !== "string") {
    out.push(
      about(
        diagnostic("error", "spec-field-invalid", `name must be text, got ${kindOf(name)}`, path),
        "name",
      ),
    );
  }
  const description = data.description;
  if (description !== undefined && description !== null && typeof description !== "string") {
    out.push(
      about(
        diagnostic(
          "error",
          "spec-field-invalid",
          `description must be text, got ${kindOf(description)}`,
          path,
        ),
        "description",
      ),
    );
  } else if (typeof description !== "string" || description.trim() === "") {
    out.push(
      about(
        diagnostic("error", "spec-description-length", "the spec requires a non-empty `description`", path),
        "description",
      ),
    );
  }
  return out;
}

function parseProblems(path: string, parse: SpecParseInfo): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (code: Diagnostic["code"], message: string) =>
    out.push(diagnostic("error", code, message, path));
  if (parse.bom === true) {
    error(
      "spec-bom",
      "the file starts with a UTF-8 byte order mark: the reference validator refuses it (the file must start with ---); save it as UTF-8 without BOM",
    );
  }
  if (parse.invalidUtf8 === true) error("spec-encoding", "the file is not valid UTF-8 text");
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
  return out;
}

/**
 * The Agent Skills strict profile (SPEC §1 `validate --spec`) on the frontmatter as {@link parseSpecText} reads
 * it (every scalar is text), rule by rule as docs/behaviour.md's table says: everything {@link checkSpecRead}
 * refuses; a name that breaks the name rule ({@link specNameProblems}) or differs from `dirName`; a description
 * over 1,024 code points; `compatibility` not text or over 500; `metadata` not a map of text (stricter than
 * the reference, which does not check it: the specification states it); `allowed-tools` not text or a list of
 * text; keys outside the specification (each diagnostic's `field` names its key). When the block is missing,
 * unclosed or not YAML, that alone is reported (the reference stops there too). Engine limits (file size) are
 * not its business. Pure.
 */
export function checkSpecProfile(
  data: Record<string, unknown>,
  dirName: string,
  path: string,
  parse: SpecParseInfo = {},
): Diagnostic[] {
  const out = checkSpecRead(data, path, parse);
  // As the reference validator: fields are not judged from a block that is not YAML.
  if (out.some((d) => d.code === "spec-yaml-invalid")) return out;
  const error = (code: Diagnostic["code"], message: string, field: string) =>
    out.push(about(diagnostic("error", code, message, path), field));

  const name = data.name;
  if (typeof name === "string" && name.trim() !== "") {
    const problems = specNameProblems(name);
    if (problems.length > 0) {
      error("name-invalid", `name "${name}" breaks the spec's name rule: ${problems.join(", ")}`, "name");
    }
    if (name.trim().normalize("NFKC") !== dirName.normalize("NFKC")) {
      error("spec-name-mismatch", `name "${name}" must equal the directory name "${dirName}"`, "name");
    }
  }

  const description = data.description;
  if (typeof description === "string" && length(description) > SPEC_DESCRIPTION_MAX) {
    error(
      "spec-description-length",
      `description is ${length(description)} chars; the spec allows at most ${SPEC_DESCRIPTION_MAX}`,
      "description",
    );
  }

  const compatibility = data.compatibility;
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") {
      error(
        "spec-field-invalid",
        `compatibility must be text, got ${kindOf(compatibility)}`,
        "compatibility",
      );
    } else if (length(compatibility) > SPEC_COMPATIBILITY_MAX) {
      error(
        "spec-compatibility-length",
        `compatibility is ${length(compatibility)} chars; the spec allows at most ${SPEC_COMPATIBILITY_MAX}`,
        "compatibility",
      );
    }
  }

  const metadata = data.metadata;
  if (metadata !== undefined) {
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      error(
        "spec-field-invalid",
        `metadata must be a map from string keys to string values, got ${kindOf(metadata)}`,
        "metadata",
      );
    } else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== "string") {
          error("spec-field-invalid", `metadata.${key} must be text, got ${kindOf(value)}`, "metadata");
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
    error(
      "spec-field-invalid",
      `allowed-tools must be text or a list of text, got ${kindOf(tools)}`,
      "allowed-tools",
    );
  }

  for (const key of Object.keys(data)) {
    if (!SPEC_KEYS.has(key)) error("spec-unknown-key", `"${key}" is not an Agent Skills field`, key);
  }
  return out;
}
