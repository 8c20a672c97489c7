import { resolve } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import type { McpServerConfig, McpStdioServerConfig } from "./config-schema.js";
import { type EnvVars, expandEnv } from "./expand-env.js";

/** Where configs come from: a file path, inline JSON (a string starting with `{`), or an optional file. */
export type McpConfigInput = string | { path: string; optional?: boolean };

/** Servers by name, with where each came from, and everything that was wrong. */
export interface McpConfigs {
  servers: Record<string, McpServerConfig>;
  /** The file (or `--mcp-config (inline JSON)`) each server came from. */
  sources: Record<string, string>;
  diagnostics: Diagnostic[];
}

/** The `source` of a config given as inline JSON. */
export const INLINE_SOURCE = "--mcp-config (inline JSON)";

function expandRecord(
  record: Record<string, string> | undefined,
  expand: (text: string) => string,
): Record<string, string> | undefined {
  if (record === undefined) return undefined;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, expand(value)]));
}

/**
 * Applies `${VAR}` / `${VAR:-default}` to command, args, env values, cwd, url and header values. Returns the
 * names of unset variables without a default (their references stay as written). Pure.
 */
export function expandServerConfig(
  config: McpServerConfig,
  env: EnvVars,
): { config: McpServerConfig; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string) => {
    const result = expandEnv(text, env);
    for (const name of result.missing) missing.add(name);
    return result.text;
  };
  if (config.type === "http" || config.type === "sse") {
    const out = { ...config, url: expand(config.url) };
    const headers = expandRecord(config.headers, expand);
    if (headers !== undefined) out.headers = headers;
    return { config: out, missing: [...missing] };
  }
  const out: McpStdioServerConfig = { ...config, command: expand(config.command) };
  if (config.args !== undefined) out.args = config.args.map(expand);
  const childEnv = expandRecord(config.env, expand);
  if (childEnv !== undefined) out.env = childEnv;
  if (config.cwd !== undefined) out.cwd = expand(config.cwd);
  return { config: out, missing: [...missing] };
}

function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url ${JSON.stringify(url)} is not a valid URL`;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:"
    ? undefined
    : `url ${JSON.stringify(url)} must use http or https`;
}

/**
 * Parses one config text (a `.mcp.json` file or inline JSON) and expands env references; zod (the entries' schemas)
 * is loaded for a text that is valid JSON. Never throws: bad
 * JSON or a bad top level is one `settings-invalid` error; each bad server entry is its own error and is
 * left out while the others load; an unset variable is a `settings-invalid` warning (the server still loads).
 */
export async function parseMcpConfig(
  text: string,
  options: { source: string; env: EnvVars },
): Promise<{ servers: Record<string, McpServerConfig>; diagnostics: Diagnostic[] }> {
  const { source, env } = options;
  const diagnostics: Diagnostic[] = [];
  const servers: Record<string, McpServerConfig> = {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    diagnostics.push(
      diagnostic("error", "settings-invalid", `MCP config is not valid JSON: ${errorMessage(error)}`, source),
    );
    return { servers, diagnostics };
  }
  const { issuesText, mcpConfigFileSchema, parseEntry } = await import("./config-schema.js");
  const file = mcpConfigFileSchema().safeParse(json);
  if (!file.success) {
    diagnostics.push(
      diagnostic("error", "settings-invalid", `MCP config: ${issuesText(file.error)}`, source),
    );
    return { servers, diagnostics };
  }
  for (const [name, value] of Object.entries(file.data.mcpServers)) {
    const fail = (message: string) =>
      diagnostics.push(diagnostic("error", "settings-invalid", `MCP server "${name}": ${message}`, source));
    if (name.trim() === "" || name === "__proto__") {
      fail("the server name is empty or reserved");
      continue;
    }
    const entry = parseEntry(value);
    if ("error" in entry) {
      fail(entry.error);
      continue;
    }
    const { config, missing } = expandServerConfig(entry.config, env);
    if (missing.length > 0) {
      const list = missing.map((v) => `\${${v}}`).join(", ");
      diagnostics.push(
        diagnostic(
          "warning",
          "settings-invalid",
          `MCP server "${name}": ${list} ${missing.length === 1 ? "is" : "are"} not set; left as written`,
          source,
        ),
      );
    }
    const problem = config.type === "http" || config.type === "sse" ? urlProblem(config.url) : undefined;
    if (problem !== undefined) {
      fail(problem);
      continue;
    }
    servers[name] = config;
  }
  return { servers, diagnostics };
}

/**
 * Loads MCP server configs from `.mcp.json` files and `--mcp-config` values (paths, or inline JSON strings as
 * in Claude Code), in precedence order: on a name clash the first wins and the later one is reported as
 * `shadowed`. Relative paths resolve against `cwd`. A missing file is an error unless it is marked
 * `optional` (a project `.mcp.json`). Never throws.
 */
export async function loadMcpConfigs(options: {
  fs: FsOps;
  files: readonly McpConfigInput[];
  env: EnvVars;
  cwd?: string;
}): Promise<McpConfigs> {
  const result: McpConfigs = { servers: {}, sources: {}, diagnostics: [] };
  for (const input of options.files) {
    const spec = typeof input === "string" ? { path: input, optional: false } : input;
    let text: string;
    let source: string;
    if (spec.path.trimStart().startsWith("{")) {
      text = spec.path;
      source = INLINE_SOURCE;
    } else {
      source = options.cwd === undefined ? spec.path : resolve(options.cwd, spec.path);
      try {
        text = await options.fs.readFile(source);
      } catch (error) {
        if (spec.optional === true && errorCode(error) === "ENOENT") continue;
        result.diagnostics.push(
          diagnostic(
            "error",
            "settings-invalid",
            `Could not read MCP config: ${errorMessage(error)}`,
            source,
          ),
        );
        continue;
      }
    }
    const parsed = await parseMcpConfig(text, { source, env: options.env });
    result.diagnostics.push(...parsed.diagnostics);
    for (const [name, config] of Object.entries(parsed.servers)) {
      const winner = result.sources[name];
      if (winner !== undefined) {
        result.diagnostics.push(
          diagnostic(
            "warning",
            "shadowed",
            `MCP server "${name}" from ${source} is shadowed by the one from ${winner}`,
            source,
          ),
        );
        continue;
      }
      result.servers[name] = config;
      result.sources[name] = source;
    }
  }
  return result;
}
