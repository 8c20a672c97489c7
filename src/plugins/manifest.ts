import { isAbsolute, relative, resolve, sep } from "node:path";
import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { isValidSkillName, MAX_NAME_LENGTH } from "../skill/fields.js";

/** `author`: a string (`"Jane <jane@x.org> (https://x.org)"`) or `{ name, email?, url? }`. */
export const PluginAuthor = z.union([
  z.string(),
  z.looseObject({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
]);
export type PluginAuthor = z.infer<typeof PluginAuthor>;

/** `skills` / `commands` / `agents`: one relative path or a list of them. */
export const PathList = z.union([z.string(), z.array(z.string())]);
export type PathList = z.infer<typeof PathList>;

const InlineObject = z.record(z.string(), z.unknown());

/** `hooks` / `mcpServers`: a path to a JSON file, an inline object, or a list mixing both. */
export const ConfigRef = z.union([z.string(), InlineObject, z.array(z.union([z.string(), InlineObject]))]);
export type ConfigRef = z.infer<typeof ConfigRef>;

/** The optional fields skillwright reads, each validated on its own so one bad value costs only itself. */
const FIELDS = {
  version: z.string(),
  description: z.string(),
  author: PluginAuthor,
  homepage: z.string(),
  repository: z.union([z.string(), z.looseObject({ url: z.string() })]),
  license: z.string(),
  keywords: z.array(z.string()),
  skills: PathList,
  commands: PathList,
  agents: PathList,
  hooks: ConfigRef,
  mcpServers: ConfigRef,
} as const;

const PLUGIN_NAME_RULE = `[a-z0-9-], at most ${MAX_NAME_LENGTH} chars, no edge or double hyphen`;

/** `.claude-plugin/plugin.json` (SPEC §11). Unknown keys are kept. */
export const PluginManifest = z.looseObject({
  name: z.string().refine(isValidSkillName, `must be a valid name (${PLUGIN_NAME_RULE})`),
  version: FIELDS.version.optional(),
  description: FIELDS.description.optional(),
  author: FIELDS.author.optional(),
  homepage: FIELDS.homepage.optional(),
  repository: FIELDS.repository.optional(),
  license: FIELDS.license.optional(),
  keywords: FIELDS.keywords.optional(),
  skills: FIELDS.skills.optional(),
  commands: FIELDS.commands.optional(),
  agents: FIELDS.agents.optional(),
  hooks: FIELDS.hooks.optional(),
  mcpServers: FIELDS.mcpServers.optional(),
});
export type PluginManifest = z.infer<typeof PluginManifest>;

/** Component fields whose values name files or dirs in the plugin (merged, not replaced, across sources). */
export const COMPONENT_FIELDS = ["skills", "commands", "agents", "hooks", "mcpServers"] as const;

/** Claude Code manifest fields skillwright knows but does not act on: kept, with an info diagnostic. */
export const CLAUDE_CODE_ONLY_FIELDS = [
  "$schema",
  "displayName",
  "outputStyles",
  "lspServers",
  "userConfig",
  "channels",
  "monitors",
  "settings",
  "dependencies",
] as const;

type FieldName = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

function isFieldName(key: string): key is FieldName {
  return (FIELD_NAMES as string[]).includes(key);
}
const CLAUDE_CODE_ONLY = new Set<string>(CLAUDE_CODE_ONLY_FIELDS);
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? "invalid" : issue.message;
}

/**
 * Validates parsed `plugin.json` content. Never throws. Not an object, or `name` missing or invalid: an
 * error and no manifest. Any other known field of the wrong type: a `plugin-invalid` warning and the field is
 * dropped. A `version` that is not semver: a warning (kept). Unknown keys are kept with an info
 * (`field-unknown`). `path` is the file the diagnostics point at. Pure.
 */
export function parseManifest(
  json: unknown,
  path: string,
): { manifest?: PluginManifest; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (!isRecord(json)) {
    diagnostics.push(diagnostic("error", "plugin-invalid", "plugin manifest must be a JSON object", path));
    return { diagnostics };
  }
  const { name } = json;
  if (typeof name !== "string" || name.trim() === "") {
    diagnostics.push(diagnostic("error", "plugin-invalid", "plugin manifest needs a `name`", path));
    return { diagnostics };
  }
  if (!isValidSkillName(name)) {
    diagnostics.push(
      diagnostic("error", "plugin-invalid", `plugin name "${name}" is not valid (${PLUGIN_NAME_RULE})`, path),
    );
    return { diagnostics };
  }
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === "__proto__") continue;
    if (key !== "name" && !isFieldName(key)) {
      const message = CLAUDE_CODE_ONLY.has(key)
        ? `"${key}" is a Claude Code plugin field skillwright does not act on; kept`
        : `unknown manifest key "${key}" kept`;
      diagnostics.push(diagnostic("info", "field-unknown", message, path));
      clean[key] = value;
      continue;
    }
    if (key === "name") {
      clean[key] = value;
      continue;
    }
    if (value === undefined || value === null) continue;
    const parsed = FIELDS[key].safeParse(value);
    if (!parsed.success) {
      diagnostics.push(
        diagnostic("warning", "plugin-invalid", `${key}: ${firstIssue(parsed.error)}; ignored`, path),
      );
      continue;
    }
    clean[key] = parsed.data;
  }
  if (typeof clean.version === "string" && !SEMVER.test(clean.version)) {
    diagnostics.push(
      diagnostic(
        "warning",
        "plugin-invalid",
        `version "${clean.version}" is not semver (MAJOR.MINOR.PATCH)`,
        path,
      ),
    );
  }
  const result = PluginManifest.safeParse(clean);
  if (!result.success) {
    diagnostics.push(diagnostic("error", "plugin-invalid", firstIssue(result.error), path));
    return { diagnostics };
  }
  return { manifest: result.data, diagnostics };
}

/** A path list as an array (a single string becomes a one-item list; undefined an empty one). Pure. */
export function componentPaths(value: PathList | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

/** Where a component path leads: inside the plugin (with an optional style warning), or refused. */
export type PluginPath = { ok: true; path: string; warning?: string } | { ok: false; reason: string };

const ROOT_VAR = /^\$\{CLAUDE_PLUGIN_ROOT\}/;

/**
 * Resolves a manifest component path against the plugin root. Refused: empty, absolute, or leading outside
 * the root (`../x`, `./a/../../x`). Accepted with a warning: a path without the `./` prefix Claude Code asks
 * for. A leading `${CLAUDE_PLUGIN_ROOT}` counts as `.`. Lexical only (symlinks are not followed). Pure.
 */
export function resolvePluginPath(root: string, raw: string): PluginPath {
  let text = raw.trim();
  text = text.replace(ROOT_VAR, ".");
  if (text === "") return { ok: false, reason: "empty path" };
  if (isAbsolute(text) || /^[A-Za-z]:[\\/]/.test(text)) {
    return { ok: false, reason: `"${raw}" is absolute; use a ./relative path inside the plugin` };
  }
  const path = resolve(root, text);
  const rel = relative(root, path);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, reason: `"${raw}" leads outside the plugin root; refused` };
  }
  if (!text.startsWith("./") && text !== ".") {
    return { ok: true, path, warning: `"${raw}" should start with ./ (relative to the plugin root)` };
  }
  return { ok: true, path };
}
