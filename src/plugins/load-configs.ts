import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { HOOK_EVENTS } from "../hooks/hook-events.js";
import { type HooksConfig, parseHooksFile } from "../hooks/schema.js";
import type { FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import { checkConfined } from "./confine.js";
import { readJsonFile } from "./json-file.js";
import { type PluginVars, substitutePluginHooks, substitutePluginValue } from "./plugin-vars.js";

/** One place hooks or MCP servers come from: a JSON file (`required` = named by the manifest) or an inline value. */
export type ConfigSource =
  | { kind: "file"; path: string; required: boolean }
  | { kind: "inline"; value: unknown; where: string };

/** Reads each source once (a file named twice is read once), in order. */
async function readSources(
  fs: FsOps,
  sources: readonly ConfigSource[],
  what: string,
  code: "hooks-invalid" | "plugin-invalid",
  realRoot: string,
  diagnostics: Diagnostic[],
): Promise<{ value: unknown; where: string }[]> {
  const seen = new Set<string>();
  const out: { value: unknown; where: string }[] = [];
  for (const source of sources) {
    if (source.kind === "inline") {
      out.push({ value: source.value, where: source.where });
      continue;
    }
    if (seen.has(source.path)) continue;
    seen.add(source.path);
    const outside = await checkConfined(fs, source.path, realRoot);
    if (outside !== undefined) {
      diagnostics.push(outside);
      continue;
    }
    const read = await readJsonFile(fs, source.path, code);
    if (read.kind === "missing") {
      if (source.required) {
        diagnostics.push(
          diagnostic(
            "warning",
            "plugin-invalid",
            `${what} file from the manifest does not exist`,
            source.path,
          ),
        );
      }
      continue;
    }
    if (read.kind === "invalid") {
      diagnostics.push(read.diagnostic);
      continue;
    }
    out.push({ value: read.value, where: source.path });
  }
  return out;
}

/**
 * Loads a plugin's hooks from `hooks/hooks.json` and the manifest's `hooks` (files or inline objects, each the
 * `{ description?, hooks: {...} }` document or the hooks object itself), concatenating matcher groups per event
 * in source order, with `${CLAUDE_PLUGIN_ROOT}`/`${CLAUDE_PLUGIN_DATA}` substituted in every command. Invalid
 * entries are `hooks-invalid` diagnostics (see `parseHooksConfig`); a file whose real path leaves `realRoot` (the
 * plugin root's real path) is refused with `plugin-path-escape`. Never throws for bad content.
 */
export async function loadPluginHooks(
  fs: FsOps,
  sources: readonly ConfigSource[],
  vars: PluginVars,
  realRoot: string,
): Promise<{ hooks: HooksConfig; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const merged: HooksConfig = {};
  for (const { value, where } of await readSources(
    fs,
    sources,
    "hooks",
    "hooks-invalid",
    realRoot,
    diagnostics,
  )) {
    const parsed = parseHooksFile(value, where);
    diagnostics.push(...parsed.diagnostics);
    for (const event of HOOK_EVENTS) {
      const groups = parsed.config[event];
      if (groups !== undefined) merged[event] = [...(merged[event] ?? []), ...groups];
    }
  }
  return { hooks: substitutePluginHooks(merged, vars), diagnostics };
}

/**
 * Loads a plugin's MCP server configs from `.mcp.json` and the manifest's `mcpServers` (files or inline
 * objects; each either `{ mcpServers: {...} }` or the server map itself). The configs stay raw (their shape is
 * checked by `checkMcpServers`), with `${CLAUDE_PLUGIN_ROOT}`/`${CLAUDE_PLUGIN_DATA}` substituted in every
 * string. A server that is not an object is skipped with a warning; a name seen twice: first wins, `shadowed`; a
 * file whose real path leaves `realRoot` is refused with `plugin-path-escape`.
 */
export async function loadPluginMcpServers(
  fs: FsOps,
  sources: readonly ConfigSource[],
  vars: PluginVars,
  realRoot: string,
): Promise<{ mcpServers: Record<string, unknown>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const servers: Record<string, unknown> = {};
  const origin = new Map<string, string>();
  for (const { value, where } of await readSources(
    fs,
    sources,
    "MCP config",
    "plugin-invalid",
    realRoot,
    diagnostics,
  )) {
    if (!isRecord(value)) {
      diagnostics.push(diagnostic("error", "plugin-invalid", "MCP config must be a JSON object", where));
      continue;
    }
    const map = isRecord(value.mcpServers) ? value.mcpServers : value;
    for (const [name, config] of Object.entries(map)) {
      if (name === "__proto__") continue;
      if (!isRecord(config)) {
        diagnostics.push(
          diagnostic("warning", "plugin-invalid", `MCP server "${name}" must be an object; skipped`, where),
        );
        continue;
      }
      const first = origin.get(name);
      if (first !== undefined) {
        diagnostics.push(
          diagnostic(
            "warning",
            "shadowed",
            `MCP server "${name}" in ${where} is shadowed by the one in ${first}`,
            where,
          ),
        );
        continue;
      }
      origin.set(name, where);
      servers[name] = substitutePluginValue(config, vars);
    }
  }
  return { mcpServers: servers, diagnostics };
}
