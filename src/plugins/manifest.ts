import { isAbsolute, relative, resolve, sep } from "node:path";
import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { isRecord } from "../is-record.js";
import { lazy } from "../lazy.js";
import { isValidSkillName, MAX_NAME_LENGTH } from "../skill/fields.js";

const pluginAuthorSchema = lazy(() =>
  z.union([
    z.string(),
    z.looseObject({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
  ]),
);
/** `author`: a string (`"Jane <jane@x.org> (https://x.org)"`) or `{ name, email?, url? }`. */
export type PluginAuthor = z.infer<ReturnType<typeof pluginAuthorSchema>>;

const pathListSchema = lazy(() => z.union([z.string(), z.array(z.string())]));
/** `skills` / `commands` / `agents`: one relative path or a list of them. */
export type PathList = z.infer<ReturnType<typeof pathListSchema>>;

const configRefSchema = lazy(() => {
  const inline = z.record(z.string(), z.unknown());
  return z.union([z.string(), inline, z.array(z.union([z.string(), inline]))]);
});
/** `hooks` / `mcpServers`: a path to a JSON file, an inline object, or a list mixing both. */
export type ConfigRef = z.infer<ReturnType<typeof configRefSchema>>;

/** The optional fields skillwright reads, each validated on its own so one bad value costs only itself. */
const fieldSchemas = lazy(() => ({
  version: z.string(),
  description: z.string(),
  author: pluginAuthorSchema(),
  homepage: z.string(),
  repository: z.union([z.string(), z.looseObject({ url: z.string() })]),
  license: z.string(),
  keywords: z.array(z.string()),
  skills: pathListSchema(),
  commands: pathListSchema(),
  agents: pathListSchema(),
  hooks: configRefSchema(),
  mcpServers: configRefSchema(),
}));

const PLUGIN_NAME_RULE = `[a-z0-9-], at most ${MAX_NAME_LENGTH} chars, no edge or double hyphen`;

const pluginManifestSchema = lazy(() => {
  const fields = fieldSchemas();
  return z.looseObject({
    name: z.string().refine(isValidSkillName, `must be a valid name (${PLUGIN_NAME_RULE})`),
    version: fields.version.optional(),
    description: fields.description.optional(),
    author: fields.author.optional(),
    homepage: fields.homepage.optional(),
    repository: fields.repository.optional(),
    license: fields.license.optional(),
    keywords: fields.keywords.optional(),
    skills: fields.skills.optional(),
    commands: fields.commands.optional(),
    agents: fields.agents.optional(),
    hooks: fields.hooks.optional(),
    mcpServers: fields.mcpServers.optional(),
  });
});
/** `.claude-plugin/plugin.json` (SPEC §11). Unknown keys are kept. */
export type PluginManifest = z.infer<ReturnType<typeof pluginManifestSchema>>;

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

type FieldName = keyof ReturnType<typeof fieldSchemas>;
const fieldNames = lazy(() => Object.keys(fieldSchemas()) as FieldName[]);

function isFieldName(key: string): key is FieldName {
  return (fieldNames() as string[]).includes(key);
}
const CLAUDE_CODE_ONLY = new Set<string>(CLAUDE_CODE_ONLY_FIELDS);
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

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
    const parsed = fieldSchemas()[key].safeParse(value);
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
  const result = pluginManifestSchema().safeParse(clean);
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
