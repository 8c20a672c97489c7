import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { lazy } from "../lazy.js";

/** A stdio server: a command to spawn (Claude Code's `.mcp.json` shape). */
const stdioServerSchema = lazy(() =>
  z.looseObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1, "command is empty"),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
);

/** A remote server: streamable HTTP or SSE at a URL. */
const remoteServerSchema = lazy(() =>
  z.looseObject({
    type: z.enum(["http", "sse"]),
    url: z.string().min(1, "url is empty"),
    headers: z.record(z.string(), z.string()).optional(),
  }),
);

/** The transport of a server config that passed {@link checkMcpServers}. */
export type McpTransport = "stdio" | "http" | "sse";

function typeOf(config: unknown): unknown {
  return typeof config === "object" && config !== null && "type" in config ? config.type : undefined;
}

/** The transport a raw config asks for, or undefined when it names none skillwright supports. Pure. */
export function mcpTransport(config: unknown): McpTransport | undefined {
  if (typeof config !== "object" || config === null) return undefined;
  const type = typeOf(config);
  if (type === undefined) return "command" in config ? "stdio" : undefined;
  return type === "stdio" || type === "http" || type === "sse" ? type : undefined;
}

/**
 * Checks the shape of raw MCP server configs (stdio `command`/`args`/`env`/`cwd`, or `type: "http"|"sse"` with
 * `url`/`headers`); each problem is a `plugin-invalid` error naming the server. A URL holding `${…}`
 * placeholders is not parsed (they are expanded at connect time). Pure.
 */
export function checkMcpServers(servers: Record<string, unknown>, path?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (name: string, message: string) =>
    out.push(diagnostic("error", "plugin-invalid", `MCP server "${name}": ${message}`, path));
  for (const [name, config] of Object.entries(servers)) {
    const transport = mcpTransport(config);
    if (transport === undefined) {
      const type = typeOf(config);
      report(
        name,
        type === undefined
          ? 'needs a `command` (stdio) or a `type` ("http" or "sse") with a `url`'
          : `type ${JSON.stringify(type)} is not supported (use "stdio", "http" or "sse")`,
      );
      continue;
    }
    const parsed = (transport === "stdio" ? stdioServerSchema() : remoteServerSchema()).safeParse(config);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        report(name, `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
      }
      continue;
    }
    if (transport !== "stdio" && "url" in parsed.data) {
      const url = String(parsed.data.url);
      if (url.includes("${")) continue;
      if (!URL.canParse(url)) report(name, `url "${url}" is not a valid URL`);
      else if (!["http:", "https:"].includes(new URL(url).protocol))
        report(name, `url "${url}" must use http or https`);
    }
  }
  return out;
}
