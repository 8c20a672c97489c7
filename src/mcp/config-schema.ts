import * as z from "zod";
import { lazy } from "../lazy.js";

// The zod schemas of MCP configs, loaded only when a config text has to be checked (mcp/config.ts). The types
// below are inferred from them; importing them (`import type`) loads no zod.

/** The transports a config entry may name. */
export const MCP_SERVER_TYPES = ["stdio", "http", "sse"] as const;

/** A stdio server entry's schema, built on first use. */
export const mcpStdioServerConfigSchema = lazy(() =>
  z.object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1, "command must not be empty"),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
);

/** An HTTP server entry's schema, built on first use. */
export const mcpHttpServerConfigSchema = lazy(() =>
  z.object({
    type: z.literal("http"),
    url: z.string().min(1, "url must not be empty"),
    headers: z.record(z.string(), z.string()).optional(),
  }),
);

/** An SSE server entry's schema, built on first use. */
export const mcpSseServerConfigSchema = lazy(() =>
  z.object({
    type: z.literal("sse"),
    url: z.string().min(1, "url must not be empty"),
    headers: z.record(z.string(), z.string()).optional(),
  }),
);

/** A server started as a child process that speaks MCP on stdin/stdout. `type: "stdio"` is optional. */
export type McpStdioServerConfig = z.infer<ReturnType<typeof mcpStdioServerConfigSchema>>;
/** A server reached over streamable HTTP. */
export type McpHttpServerConfig = z.infer<ReturnType<typeof mcpHttpServerConfigSchema>>;
/** A server reached over the older HTTP+SSE transport. */
export type McpSseServerConfig = z.infer<ReturnType<typeof mcpSseServerConfigSchema>>;

/** One entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig | McpSseServerConfig;

/**
 * The shape of a `.mcp.json` file or an inline `--mcp-config` string. Entries are checked one by one, and the
 * object is kept as parsed (a record schema would silently drop a `__proto__` key).
 */
export const mcpConfigFileSchema = lazy(() =>
  z.object({
    mcpServers: z.custom<Record<string, unknown>>(
      (v) => typeof v === "object" && v !== null && !Array.isArray(v),
      "mcpServers must be an object of servers by name",
    ),
  }),
);

/** The issues of a failed parse, joined into one message (`path: message; ...`). Pure. */
export function issuesText(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ");
}

/** One `mcpServers` entry checked against its transport's schema, or why it does not fit. Pure. */
export function parseEntry(value: unknown): { config: McpServerConfig } | { error: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "expected an object with `command` or `type` and `url`" };
  }
  const type = "type" in value ? value.type : undefined;
  const schema =
    type === undefined || type === "stdio"
      ? mcpStdioServerConfigSchema()
      : type === "http"
        ? mcpHttpServerConfigSchema()
        : type === "sse"
          ? mcpSseServerConfigSchema()
          : undefined;
  if (schema === undefined) {
    return { error: `unsupported type ${JSON.stringify(type)} (expected ${MCP_SERVER_TYPES.join(", ")})` };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { config: parsed.data } : { error: issuesText(parsed.error) };
}
