import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { supportsEffort } from "../models.js";
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
import { hasControlChar, neutralizeMarkup, stripControlChars } from "./neutralize-markup.js";
import { EFFORTS, type Effort, type SkillKind, type SkillMeta } from "./skill.js";
import { readSkillTools } from "./skill-tools.js";

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
  "background",
  "available-to",
  "user-invocable",
  "disable-model-invocation",
  "paths",
  "hooks",
  "skill-tools",
  "shell",
  "ttl-turns",
  "license",
  "compatibility",
  "metadata",
  "version",
] as const;

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
  /** A `name` that is not a valid skill name becomes `title` (a display title) instead of a warning. */
  titleName?: boolean;
}

/**
 * Turns parsed frontmatter into the fields the engine acts on. One bad field is a diagnostic and falls back
 * to its default; nothing here throws or drops the skill. A key whose name or value holds a control character
 * (NUL, ESC, … — not tab, newline or CR) is dropped with a `frontmatter-control-char` error. The texts the
 * listing and the user see (description, `when_to_use`, `argument-hint`) have any wrapper tag defused by
 * `neutralizeMarkup`, so no caller needs to.
 */
export function normalizeMeta(input: NormalizeInput): { meta: SkillMeta; diagnostics: Diagnostic[] } {
  const { kind, path } = input;
  const diagnostics: Diagnostic[] = [];
  const data = withoutControlChars(input.data, path, diagnostics);
  // The known fields copied once into one object of one shape: read from `data` (a shape per key set), each
  // field read below was a megamorphic lookup, most of them for keys the head does not have.
  const fields = knownFields();
  // One reader object, not a closure per field kind: this runs once per skill of every discovery.
  const r: FieldReader = { data: fields, path, diagnostics };

  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (!copyKnownField(fields, key, data[key])) {
      extra[key] = data[key];
      diagnostics.push(
        diagnostic("info", "field-unknown", `unknown frontmatter key "${key}" kept as extra`, path),
      );
    }
  }

  let alias: string | undefined;
  let title: string | undefined;
  const name = kind === "skill" ? readText(r, "name") : undefined;
  if (name !== undefined && name !== "" && name !== input.dirName) {
    if (isValidSkillName(name)) alias = name;
    else if (input.titleName === true) title = neutralizeMarkup(collapseNewlines(name));
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

  const written = readText(r, "description");
  let description = written === undefined ? "" : collapseNewlines(written);
  const descriptionFromBody = description === "";
  if (descriptionFromBody) {
    // A vertical tab or form feed is a space between the line's runs (as Claude Code keeps it); other control
    // characters are removed.
    const line =
      input.firstBodyLine === undefined
        ? ""
        : collapseNewlines(stripControlChars(input.firstBodyLine.replace(CONTROL_SPACES, " ")));
    description = line === "" ? DEFAULT_DESCRIPTION : line;
    diagnostics.push(
      diagnostic(
        "info",
        "description-fallback",
        `no description: using "${truncate(description, 60)}"`,
        path,
      ),
    );
  }

  const rawHint = fields["argument-hint"];
  const hint = rawHint === undefined ? undefined : toHint(rawHint);
  if (rawHint !== undefined && rawHint !== null && hint === undefined) {
    invalid(r, "argument-hint", "a string or a list of strings");
  }
  const model = readText(r, "model");
  const shell = readOneOf(r, "shell", SHELLS);
  const context = readOneOf(r, "context", CONTEXTS);
  const whenToUse = readText(r, "when_to_use");

  const meta: SkillMeta = {
    // A written description is detached already (`text` detaches what it returns).
    description: neutralizeMarkup(descriptionFromBody ? detach(description) : description),
    descriptionFromBody,
    argumentNames: readList(r, "arguments", toWords) ?? [],
    allowedTools: readList(r, "allowed-tools", toToolRules) ?? [],
    disallowedTools: readList(r, "disallowed-tools", toToolRules) ?? [],
    context: context ?? "inline",
    userInvocable: readBool(r, "user-invocable", true),
    disableModelInvocation: readBool(r, "disable-model-invocation", false),
    shell: shell ?? "bash",
    extra,
  };
  // The optional fields go through `setField` (one keyed store for all of them): stored here as `meta.x = …`,
  // each store saw a few of the many shapes `meta` takes on the way (which fields came before it), and the
  // optimised code was thrown away ("wrong map") and rebuilt each time a skill brought a new one.
  if (alias !== undefined) setField(meta, "alias", alias);
  if (title !== undefined) setField(meta, "title", title);
  if (whenToUse !== undefined && whenToUse !== "") {
    setField(meta, "whenToUse", neutralizeMarkup(collapseNewlines(whenToUse)));
  }
  if (hint !== undefined && hint !== null) setField(meta, "argumentHint", neutralizeMarkup(detach(hint)));
  if (model !== undefined && model !== "") setField(meta, "model", model);
  const effort = readOneOf<Effort>(r, "effort", EFFORTS);
  if (effort !== undefined) setField(meta, "effort", effort);
  if (
    effort !== undefined &&
    model !== undefined &&
    model !== "" &&
    model !== "inherit" &&
    !supportsEffort(model)
  ) {
    diagnostics.push(
      diagnostic(
        "warning",
        "effort-unsupported",
        `effort: ${effort} is not sent: the model ${model} takes no effort setting`,
        path,
      ),
    );
  }
  const agent = readText(r, "agent");
  if (agent !== undefined && agent !== "") setField(meta, "agent", agent);
  readBackground(r, meta);
  const availableTo = readList(r, "available-to", toToolRules);
  if (availableTo !== undefined && availableTo.length > 0) setField(meta, "availableTo", availableTo);
  if (kind === "skill") {
    const paths = readList(r, "paths", toGlobs);
    if (paths !== undefined && paths.length > 0) setField(meta, "paths", paths);
  }
  const hooks = fields.hooks;
  if (hooks !== undefined && hooks !== null) setField(meta, "hooks", hooks);
  const skillTools = fields["skill-tools"];
  if (skillTools !== undefined && skillTools !== null) {
    const read = readSkillTools(skillTools, path);
    diagnostics.push(...read.diagnostics);
    if (read.tools.length > 0) setField(meta, "skillTools", read.tools);
  }
  const ttlTurns = readCount(r, "ttl-turns");
  if (ttlTurns !== undefined) setField(meta, "ttlTurns", ttlTurns);
  const license = readText(r, "license");
  if (license !== undefined) setField(meta, "license", license);
  const compatibility = readText(r, "compatibility");
  if (compatibility !== undefined) setField(meta, "compatibility", compatibility);
  const version = readText(r, "version");
  if (version !== undefined) setField(meta, "version", version);
  const metadata = fields.metadata;
  if (metadata !== undefined) setField(meta, "metadata", metadata);
  return { meta, diagnostics };
}

/**
 * `background: true` (a forked skill returns to its caller at once; its answer comes later): stored on a
 * `context: fork` skill; on an inline skill it means nothing, so it is a `background-inline` warning and ignored.
 */
function readBackground(r: FieldReader, meta: SkillMeta): void {
  const raw = r.data.background;
  if (raw === undefined || raw === null) return;
  const value = toBoolean(raw);
  if (value === undefined) {
    invalid(r, "background", "true/false/yes/no/on/off/1/0");
    return;
  }
  if (!value) return;
  if (meta.context !== "fork") {
    r.diagnostics.push(
      diagnostic(
        "warning",
        "background-inline",
        "background: true means nothing on an inline skill (only a `context: fork` skill runs in the background); ignored",
        r.path,
      ),
    );
    return;
  }
  setField(meta, "background", true);
}

/** Adds one optional field to `meta`: a keyed store shared by every field, so its feedback is generic at once. */
function setField<K extends keyof SkillMeta>(meta: SkillMeta, key: K, value: SkillMeta[K]): void {
  meta[key] = value;
}

const SHELLS = ["bash", "sh"] as const;
const CONTEXTS = ["fork", "inline"] as const;

/** Every known field's raw value (undefined when absent), in one object of one shape. */
type KnownFields = Record<(typeof KNOWN_FIELDS)[number], unknown>;

/** A {@link KnownFields} with every field absent. */
function knownFields(): KnownFields {
  return {
    name: undefined,
    description: undefined,
    when_to_use: undefined,
    "argument-hint": undefined,
    arguments: undefined,
    "allowed-tools": undefined,
    "disallowed-tools": undefined,
    model: undefined,
    effort: undefined,
    context: undefined,
    agent: undefined,
    background: undefined,
    "available-to": undefined,
    "user-invocable": undefined,
    "disable-model-invocation": undefined,
    paths: undefined,
    hooks: undefined,
    "skill-tools": undefined,
    shell: undefined,
    "ttl-turns": undefined,
    license: undefined,
    compatibility: undefined,
    metadata: undefined,
    version: undefined,
  };
}

/**
 * Stores `value` as the known field `key` (a store by name per field: one shape, no keyed store); false when
 * `key` is not a known field.
 */
function copyKnownField(fields: KnownFields, key: string, value: unknown): boolean {
  switch (key) {
    case "name":
      fields.name = value;
      return true;
    case "description":
      fields.description = value;
      return true;
    case "when_to_use":
      fields.when_to_use = value;
      return true;
    case "argument-hint":
      fields["argument-hint"] = value;
      return true;
    case "arguments":
      fields.arguments = value;
      return true;
    case "allowed-tools":
      fields["allowed-tools"] = value;
      return true;
    case "disallowed-tools":
      fields["disallowed-tools"] = value;
      return true;
    case "model":
      fields.model = value;
      return true;
    case "effort":
      fields.effort = value;
      return true;
    case "context":
      fields.context = value;
      return true;
    case "available-to":
      fields["available-to"] = value;
      return true;
    case "agent":
      fields.agent = value;
      return true;
    case "background":
      fields.background = value;
      return true;
    case "user-invocable":
      fields["user-invocable"] = value;
      return true;
    case "disable-model-invocation":
      fields["disable-model-invocation"] = value;
      return true;
    case "paths":
      fields.paths = value;
      return true;
    case "hooks":
      fields.hooks = value;
      return true;
    case "skill-tools":
      fields["skill-tools"] = value;
      return true;
    case "shell":
      fields.shell = value;
      return true;
    case "ttl-turns":
      fields["ttl-turns"] = value;
      return true;
    case "license":
      fields.license = value;
      return true;
    case "compatibility":
      fields.compatibility = value;
      return true;
    case "metadata":
      fields.metadata = value;
      return true;
    case "version":
      fields.version = value;
      return true;
  }
  return false;
}

/** What the field readers below need: the fields, the file for diagnostics, and where they go. */
interface FieldReader {
  data: KnownFields;
  path: string;
  diagnostics: Diagnostic[];
}

function invalid(r: FieldReader, key: keyof KnownFields, expected: string): void {
  r.diagnostics.push(
    diagnostic(
      "warning",
      "field-invalid",
      `${key}: expected ${expected}, got ${describe(r.data[key])}`,
      r.path,
    ),
  );
}

/** A scalar field as trimmed text (detached from the file text), undefined when absent or invalid. */
function readText(r: FieldReader, key: keyof KnownFields): string | undefined {
  const raw = r.data[key];
  if (raw === undefined || raw === null) return undefined;
  const value = toText(raw);
  if (value === undefined) invalid(r, key, "a string");
  return value === undefined ? undefined : detach(value.trim());
}

function readList(
  r: FieldReader,
  key: keyof KnownFields,
  coerce: (v: unknown) => string[] | undefined,
): string[] | undefined {
  const raw = r.data[key];
  if (raw === undefined || raw === null) return undefined;
  const value = coerce(raw);
  if (value === undefined) invalid(r, key, "a string or a list of strings");
  return value?.map(detach);
}

function readBool(r: FieldReader, key: keyof KnownFields, fallback: boolean): boolean {
  const raw = r.data[key];
  if (raw === undefined || raw === null) return fallback;
  const value = toBoolean(raw);
  if (value === undefined) invalid(r, key, "true/false/yes/no/on/off/1/0");
  return value ?? fallback;
}

/** A whole number ≥ 0 (`3` or `"3"`), undefined when absent or invalid. */
function readCount(r: FieldReader, key: keyof KnownFields): number | undefined {
  const raw = r.data[key];
  if (raw === undefined || raw === null) return undefined;
  const text = toText(raw)?.trim();
  const value = text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
  if (value === undefined) invalid(r, key, "a whole number of user turns (0 or more)");
  return value;
}

function readOneOf<T extends string>(
  r: FieldReader,
  key: keyof KnownFields,
  allowed: readonly T[],
): T | undefined {
  const value = readText(r, key);
  if (value === undefined || value === "") return undefined;
  const lower = value.toLowerCase();
  for (const option of allowed) if (option === lower) return option;
  invalid(r, key, allowed.join(" | "));
  return undefined;
}

/**
 * `data` without the keys whose name or value (strings anywhere inside it) holds a control character, each
 * reported as a `frontmatter-control-char` error: the field is dropped, the skill still loads.
 */
function withoutControlChars(
  data: Record<string, unknown>,
  path: string,
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  // The check alone, in a function small enough to optimise cheaply: nearly no head has a bad field.
  for (const key of Object.keys(data)) {
    if (fieldHasControlChar(key, data[key])) return dropControlCharFields(data, path, diagnostics);
  }
  return data;
}

/** True when the key or (strings anywhere inside) the value holds a control character. */
function fieldHasControlChar(key: string, value: unknown): boolean {
  // Strings and other scalars (nearly every field) are checked without the WeakSet a nested value needs.
  return (
    hasControlChar(key) ||
    (typeof value === "string"
      ? hasControlChar(value)
      : typeof value === "object" && value !== null && holdsControlChar(value, 0, undefined))
  );
}

/** {@link withoutControlChars} for data that holds a bad field: a copy without them, each reported. */
function dropControlCharFields(
  data: Record<string, unknown>,
  path: string,
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  const out = { ...data };
  for (const key of Object.keys(data)) {
    if (!fieldHasControlChar(key, data[key])) continue;
    delete out[key];
    diagnostics.push(
      diagnostic(
        "error",
        "frontmatter-control-char",
        `frontmatter key "${stripControlChars(key)}" holds a control character (NUL, ESC, …); the field is ignored`,
        path,
      ),
    );
  }
  return out;
}

/**
 * Levels searched without remembering what was seen: a field's list or map and the values in it (`allowed-tools`,
 * `metadata`). Deeper, every object is searched once, so YAML aliases cannot multiply the work.
 */
const UNTRACKED_DEPTH = 2;

/**
 * True when a string anywhere in `value` (keys too) holds a control character. Above UNTRACKED_DEPTH every
 * part is searched as it comes (no WeakSet per list or map of every skill); deeper, shared and cyclic parts (YAML
 * aliases) are searched once.
 */
function holdsControlChar(value: unknown, depth: number, seen: WeakSet<object> | undefined): boolean {
  if (typeof value === "string") return hasControlChar(value);
  if (typeof value !== "object" || value === null) return false;
  let tracked = seen;
  if (depth >= UNTRACKED_DEPTH) {
    tracked ??= new WeakSet();
    if (tracked.has(value)) return false;
    tracked.add(value);
  }
  if (Array.isArray(value)) {
    for (const item of value) if (holdsControlChar(item, depth + 1, tracked)) return true;
    return false;
  }
  if (!isRecord(value)) return false;
  for (const key of Object.keys(value)) {
    if (hasControlChar(key) || holdsControlChar(value[key], depth + 1, tracked)) return true;
  }
  return false;
}

function isRecord(value: object): value is Record<string, unknown> {
  return !Array.isArray(value);
}

const LEADING_HASHES = /^[#\s]+/;
/** The control characters that are whitespace: vertical tab and form feed. */
const CONTROL_SPACES = /[\v\f]/g;

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
