import { type Diagnostic, diagnostic } from "../diagnostics.js";
import {
  collapseNewlines,
  detach,
  isValidSkillName,
  toBoolean,
  toGlobs,
  toHint,
  toText,
  toToolRules,
  toWords,
} from "./fields.js";
import { EFFORTS, type Effort, type SkillKind, type SkillMeta } from "./skill.js";

/** Every top-level frontmatter key the engine knows (SPEC §1). Others go to `extra`. */
export const KNOWN_FIELDS = [
  "name",
  "description",
  "when_to_use",
  "argument-hint",
  "arguments",
  "allowed-tools",
  "disallowed-tools",
  "model",
  "effort",
  "context",
  "agent",
  "user-invocable",
  "disable-model-invocation",
  "paths",
  "hooks",
  "shell",
  "license",
  "compatibility",
  "metadata",
  "version",
] as const;

const KNOWN = new Set<string>(KNOWN_FIELDS);

/** The description when neither the frontmatter nor the body gives one. */
export const DEFAULT_DESCRIPTION = "Skill";

export interface NormalizeInput {
  data: Record<string, unknown>;
  kind: SkillKind;
  /** The directory (or command) name the skill answers to. */
  dirName: string;
  /** The first non-empty body line, for the description fallback; undefined for an empty body. */
  firstBodyLine: string | undefined;
  path: string;
}

/**
 * Turns parsed frontmatter into the fields the engine acts on. One bad field is a diagnostic and falls back
 * to its default; nothing here throws or drops the skill.
 */
export function normalizeMeta(input: NormalizeInput): { meta: SkillMeta; diagnostics: Diagnostic[] } {
  const { data, kind, path } = input;
  const diagnostics: Diagnostic[] = [];
  const invalid = (key: string, expected: string) =>
    diagnostics.push(
      diagnostic(
        "warning",
        "field-invalid",
        `${key}: expected ${expected}, got ${describe(data[key])}`,
        path,
      ),
    );

  const text = (key: string): string | undefined => {
    if (data[key] === undefined || data[key] === null) return undefined;
    const value = toText(data[key]);
    if (value === undefined) invalid(key, "a string");
    return value === undefined ? undefined : detach(value.trim());
  };
  const list = (key: string, coerce: (v: unknown) => string[] | undefined): string[] | undefined => {
    if (data[key] === undefined || data[key] === null) return undefined;
    const value = coerce(data[key]);
    if (value === undefined) invalid(key, "a string or a list of strings");
    return value?.map(detach);
  };
  const bool = (key: string, fallback: boolean): boolean => {
    if (data[key] === undefined || data[key] === null) return fallback;
    const value = toBoolean(data[key]);
    if (value === undefined) invalid(key, "true/false/yes/no/on/off/1/0");
    return value ?? fallback;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
    const value = text(key);
    if (value === undefined || value === "") return undefined;
    const lower = value.toLowerCase();
    if ((allowed as readonly string[]).includes(lower)) return lower as T;
    invalid(key, allowed.join(" | "));
    return undefined;
  };

  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (!KNOWN.has(key)) {
      extra[key] = data[key];
      diagnostics.push(
        diagnostic("info", "field-unknown", `unknown frontmatter key "${key}" kept as extra`, path),
      );
    }
  }

  let alias: string | undefined;
  const name = kind === "skill" ? text("name") : undefined;
  if (name !== undefined && name !== "" && name !== input.dirName) {
    if (isValidSkillName(name)) alias = name;
    else {
      diagnostics.push(
        diagnostic(
          "warning",
          "alias-invalid",
          `name "${name}" is not a valid skill name ([a-z0-9-], at most 64 chars, no edge or double hyphen); the skill answers to "${input.dirName}"`,
          path,
        ),
      );
    }
  }

  const written = text("description");
  let description = written === undefined ? "" : collapseNewlines(written);
  const descriptionFromBody = description === "";
  if (descriptionFromBody) {
    description = input.firstBodyLine === undefined ? DEFAULT_DESCRIPTION : input.firstBodyLine;
    diagnostics.push(
      diagnostic(
        "info",
        "description-fallback",
        `no description: using "${truncate(description, 60)}"`,
        path,
      ),
    );
  }

  const hint = data["argument-hint"] === undefined ? undefined : toHint(data["argument-hint"]);
  if (data["argument-hint"] !== undefined && data["argument-hint"] !== null && hint === undefined) {
    invalid("argument-hint", "a string or a list of strings");
  }
  const model = text("model");
  const shell = oneOf("shell", ["bash", "sh"] as const);
  const context = oneOf("context", ["fork", "inline"] as const);
  const whenToUse = text("when_to_use");

  const meta: SkillMeta = {
    // A written description is detached already (`text` detaches what it returns).
    description: descriptionFromBody ? detach(description) : description,
    descriptionFromBody,
    argumentNames: list("arguments", toWords) ?? [],
    allowedTools: list("allowed-tools", toToolRules) ?? [],
    disallowedTools: list("disallowed-tools", toToolRules) ?? [],
    context: context ?? "inline",
    userInvocable: bool("user-invocable", true),
    disableModelInvocation: bool("disable-model-invocation", false),
    shell: shell ?? "bash",
    extra,
  };
  if (alias !== undefined) meta.alias = alias;
  if (whenToUse !== undefined && whenToUse !== "") meta.whenToUse = collapseNewlines(whenToUse);
  if (hint !== undefined && hint !== null) meta.argumentHint = detach(hint);
  if (model !== undefined && model !== "") meta.model = model;
  const effort = oneOf<Effort>("effort", EFFORTS);
  if (effort !== undefined) meta.effort = effort;
  const agent = text("agent");
  if (agent !== undefined && agent !== "") meta.agent = agent;
  if (kind === "skill") {
    const paths = list("paths", toGlobs);
    if (paths !== undefined && paths.length > 0) meta.paths = paths;
  }
  if (data.hooks !== undefined && data.hooks !== null) meta.hooks = data.hooks;
  const license = text("license");
  if (license !== undefined) meta.license = license;
  const compatibility = text("compatibility");
  if (compatibility !== undefined) meta.compatibility = compatibility;
  const version = text("version");
  if (version !== undefined) meta.version = version;
  if (data.metadata !== undefined) meta.metadata = data.metadata;
  return { meta, diagnostics };
}

const LEADING_HASHES = /^[#\s]+/;

/** The first non-empty line of a body with leading `#`s and spaces removed, or undefined. */
export function firstBodyLine(body: string): string | undefined {
  let start = 0;
  while (start < body.length) {
    const end = body.indexOf("\n", start);
    const line = body.slice(start, end === -1 ? body.length : end);
    const cleaned = line.replace(LEADING_HASHES, "").trim();
    if (cleaned !== "") return detach(cleaned);
    if (end === -1) break;
    start = end + 1;
  }
  return undefined;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "a mapping" : `${typeof value} ${JSON.stringify(value)}`;
}
