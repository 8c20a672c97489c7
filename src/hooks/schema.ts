import * as z from "zod";
import { assertNever, type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import { lazy } from "../lazy.js";
import { HOOK_EVENTS, HOOK_TYPES } from "./hook-events.js";

const hookEventSchema = lazy(() => z.enum(HOOK_EVENTS));
/** One of {@link HOOK_EVENTS}. */
export type HookEvent = z.infer<ReturnType<typeof hookEventSchema>>;

const timeoutSchema = () => z.number().positive().optional();

const hookCommandSchema = lazy(() =>
  z.object({
    type: z.literal("command"),
    command: z.string().refine((s) => s.trim() !== "", "command is empty"),
    timeout: timeoutSchema(),
    once: z.boolean().optional(),
    /** Fire and forget: the turn does not wait for it, and its decision is ignored (Claude Code's `async`). */
    async: z.boolean().optional(),
  }),
);
/**
 * One command hook, as written in settings, plugin `hooks.json` or a skill's `hooks:` (seconds for `timeout`).
 * `shown` is never read from a file (the schema drops it): the plugin loader sets it to the command with its
 * sensitive `${user_config.KEY}` values left out, and messages name the hook by it.
 */
export type HookCommand = z.infer<ReturnType<typeof hookCommandSchema>> & { shown?: string };

const hookHttpSchema = lazy(() =>
  z.object({
    type: z.literal("http"),
    url: z.string().refine((s) => s.trim() !== "", "url is empty"),
    /** Request headers; `$VAR` / `${VAR}` in a value is filled only for names in `allowedEnvVars`. */
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
    timeout: timeoutSchema(),
    once: z.boolean().optional(),
  }),
);
/** One HTTP hook: the event JSON is POSTed to `url`; the response body is read like a command hook's stdout. */
export type HookHttp = z.infer<ReturnType<typeof hookHttpSchema>>;

/** A hook judged from its `prompt` (by the model in one request, or by a sub-agent), of type `type`. */
const judgedHookSchema = <T extends "prompt" | "agent">(type: T) =>
  z.object({
    type: z.literal(type),
    prompt: z.string().refine((s) => s.trim() !== "", "prompt is empty"),
    /** The model that judges (or the sub-agent's); default the session's. */
    model: z.string().optional(),
    timeout: timeoutSchema(),
    once: z.boolean().optional(),
  });

const hookPromptSchema = lazy(() => judgedHookSchema("prompt"));
/** One prompt hook: the model judges the event with `prompt` (`$ARGUMENTS` = the event JSON). */
export type HookPrompt = z.infer<ReturnType<typeof hookPromptSchema>>;

const hookAgentSchema = lazy(() => judgedHookSchema("agent"));
/**
 * One agent hook: a sub-agent with read-only tools (Read, Grep, Glob, LS) judges the event with `prompt`
 * (`$ARGUMENTS` = the event JSON) and answers as a prompt hook's model does.
 */
export type HookAgent = z.infer<ReturnType<typeof hookAgentSchema>>;

const hookMcpToolSchema = lazy(() =>
  z.object({
    type: z.literal("mcp_tool"),
    /** The MCP server's name, as configured (`.mcp.json`, `--mcp-config`, a plugin's). */
    server: z.string().refine((s) => s.trim() !== "", "server is empty"),
    tool: z.string().refine((s) => s.trim() !== "", "tool is empty"),
    /** The tool's arguments; `${path}` in a string is filled from the event JSON (`${tool_input.file_path}`). */
    input: z.record(z.string(), z.unknown()).optional(),
    timeout: timeoutSchema(),
    once: z.boolean().optional(),
  }),
);
/**
 * One MCP tool hook: calls `tool` of the session's MCP server `server` with `input`; the tool's text is read like
 * a command hook's stdout (decision JSON, or text).
 */
export type HookMcpTool = z.infer<ReturnType<typeof hookMcpToolSchema>>;

const hookHandlerSchema = lazy(() =>
  z.discriminatedUnion("type", [
    hookCommandSchema(),
    hookHttpSchema(),
    hookPromptSchema(),
    hookAgentSchema(),
    hookMcpToolSchema(),
  ]),
);
/** One hook of any type skillwright runs ({@link HOOK_TYPES}). */
export type HookHandler = HookCommand | HookHttp | HookPrompt | HookAgent | HookMcpTool;

/** What identifies a hook's action: its command, URL or prompt, or for an mcp_tool hook `mcp:{server}/{tool}` and its input. Pure. */
export function hookTarget(hook: HookHandler): string {
  switch (hook.type) {
    case "command":
      return hook.command;
    case "http":
      return hook.url;
    case "prompt":
    case "agent":
      return hook.prompt;
    case "mcp_tool":
      return `mcp:${hook.server}/${hook.tool}${hook.input === undefined ? "" : ` ${JSON.stringify(hook.input)}`}`;
    default:
      return assertNever(hook);
  }
}

const hookMatcherGroupSchema = lazy(() =>
  z.object({
    matcher: z.string().optional(),
    hooks: z.array(hookHandlerSchema()),
  }),
);
/** A matcher (tool name, `A|B`, regex, `*`, `Skill(name)`) and the hooks it triggers. */
export type HookMatcherGroup = z.infer<ReturnType<typeof hookMatcherGroupSchema>>;

const hooksConfigSchema = lazy(() => z.partialRecord(hookEventSchema(), z.array(hookMatcherGroupSchema())));

/**
 * The settings-shaped hooks object (event name → matcher groups) as a zod schema, for users of the package
 * barrel; this module validates entry by entry with {@link parseHooksConfig} instead. Marked pure so that a
 * bundle which never reads it (the CLI's) drops it and start-up does not build it.
 */
export const HooksConfig = /* @__PURE__ */ hooksConfigSchema();
/** The settings-shaped hooks object: event name → matcher groups. */
export type HooksConfig = z.infer<ReturnType<typeof hooksConfigSchema>>;

/** The `permissionDecision` values a PreToolUse hook may return. */
export const HOOK_PERMISSION_DECISIONS = ["allow", "deny", "ask"] as const;
/** One of {@link HOOK_PERMISSION_DECISIONS}. */
export type HookPermissionDecision = (typeof HOOK_PERMISSION_DECISIONS)[number];

/** The `behavior` values of a PermissionRequest hook's `hookSpecificOutput.decision`. */
export const PERMISSION_REQUEST_BEHAVIORS = ["allow", "deny"] as const;

const permissionRequestDecisionSchema = lazy(() =>
  z.looseObject({
    behavior: z.enum(PERMISSION_REQUEST_BEHAVIORS),
    message: z.string().optional(),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    interrupt: z.boolean().optional(),
  }),
);

const hookSpecificOutputSchema = lazy(() =>
  z.looseObject({
    hookEventName: z.string().optional(),
    /** PermissionRequest: answer the permission question (Claude Code's shape). */
    decision: permissionRequestDecisionSchema().optional(),
    permissionDecision: z.enum(HOOK_PERMISSION_DECISIONS).optional(),
    permissionDecisionReason: z.string().optional(),
    additionalContext: z.string().optional(),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    /** MessageDisplay: the text shown in place of the message's `delta`. */
    displayContent: z.string().optional(),
  }),
);
/** `hookSpecificOutput` of a hook's stdout JSON (Claude Code shape). Unknown keys are kept. */
export type HookSpecificOutput = z.infer<ReturnType<typeof hookSpecificOutputSchema>>;

const hookOutputSchema = lazy(() =>
  z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(["block", "approve"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: hookSpecificOutputSchema().optional(),
  }),
);
/** The JSON a hook may print on stdout with exit 0 (Claude Code shape). Unknown keys are kept. */
export type HookOutput = z.infer<ReturnType<typeof hookOutputSchema>>;

/** How a hook's stdout reads: JSON output, plain text, or something that starts like JSON but is not valid. */
export type ParsedHookStdout =
  | { kind: "json"; output: HookOutput }
  | { kind: "text"; text: string }
  | { kind: "invalid"; message: string };

/**
 * Reads a hook's stdout. Only stdout whose trimmed text starts with `{` is taken as JSON (as Claude Code does);
 * anything else is plain text. Never throws.
 */
export function parseHookStdout(stdout: string): ParsedHookStdout {
  const text = stdout.trim();
  if (!text.startsWith("{")) return { kind: "text", text };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: "invalid", message: `hook output is not valid JSON: ${errorMessage(error)}` };
  }
  const parsed = hookOutputSchema().safeParse(json);
  if (!parsed.success)
    return { kind: "invalid", message: `hook output JSON is invalid: ${issues(parsed.error)}` };
  return { kind: "json", output: parsed.data };
}

/** The result of reading a hooks object: what is usable, and why the rest was skipped. */
export interface ParsedHooksConfig {
  config: HooksConfig;
  diagnostics: Diagnostic[];
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(HOOK_EVENTS);

/** True when `name` is one of {@link HOOK_EVENTS}. */
export function isHookEvent(name: string): name is HookEvent {
  return KNOWN_EVENTS.has(name);
}

function issues(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/**
 * Validates a settings-shaped hooks object (`{ PreToolUse: [{ matcher, hooks: [...] }], … }`) entry by entry, so
 * one bad hook never costs the others. Never throws: `undefined`/`null` give an empty config; an event we do
 * not fire and a hook of a type we do not run (`agent`, …) are `hook-unsupported` warnings and skipped; any
 * other malformed event, group or hook is a `hooks-invalid` error and skipped. Groups left with
 * no hooks and events left with no groups are dropped. `path` is the file the object came from.
 */
export function parseHooksConfig(raw: unknown, path?: string): ParsedHooksConfig {
  const diagnostics: Diagnostic[] = [];
  const config: HooksConfig = {};
  const report: Report = (severity, where, message, code = "hooks-invalid") =>
    diagnostics.push(diagnostic(severity, code, `${where}: ${message}`, path));
  if (raw === undefined || raw === null) return { config, diagnostics };
  if (!isRecord(raw)) {
    report("error", "hooks", "must be an object mapping event names to lists of matcher groups");
    return { config, diagnostics };
  }
  for (const [event, groups] of Object.entries(raw)) {
    const where = `hooks.${event}`;
    if (!isHookEvent(event)) {
      report(
        "warning",
        where,
        `skillwright does not fire the hook event "${event}" (it fires: ${HOOK_EVENTS.join(", ")}); skipped`,
        "hook-unsupported",
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      report("error", where, "must be a list of matcher groups; skipped");
      continue;
    }
    const valid = groups.flatMap((group, index) => parseGroup(group, `${where}[${index}]`, report));
    if (valid.length > 0) config[event] = valid;
  }
  return { config, diagnostics };
}

type Report = (
  severity: "error" | "warning",
  where: string,
  message: string,
  code?: "hooks-invalid" | "hook-unsupported",
) => void;

const RUN_TYPES: ReadonlySet<string> = new Set(HOOK_TYPES);

function parseGroup(group: unknown, where: string, report: Report): HookMatcherGroup[] {
  if (!isRecord(group)) {
    report("error", where, "must be an object with `hooks` (and an optional `matcher`); skipped");
    return [];
  }
  const matcher = group.matcher ?? undefined;
  if (matcher !== undefined && typeof matcher !== "string") {
    report("error", `${where}.matcher`, "must be a string; group skipped");
    return [];
  }
  if (!Array.isArray(group.hooks)) {
    report("error", `${where}.hooks`, "must be a list of hooks; group skipped");
    return [];
  }
  const hooks = group.hooks.flatMap((hook, index) => parseHook(hook, `${where}.hooks[${index}]`, report));
  if (hooks.length === 0) return [];
  return [matcher === undefined ? { hooks } : { matcher, hooks }];
}

function parseHook(hook: unknown, where: string, report: Report): HookHandler[] {
  if (isRecord(hook) && typeof hook.type === "string" && !RUN_TYPES.has(hook.type)) {
    report(
      "warning",
      where,
      `skillwright does not run hooks of type "${hook.type}" (it runs: ${HOOK_TYPES.join(", ")}); skipped`,
      "hook-unsupported",
    );
    return [];
  }
  const parsed = hookHandlerSchema().safeParse(hook);
  if (!parsed.success) {
    report("error", where, `${issues(parsed.error)}; skipped`);
    return [];
  }
  return [parsed.data];
}

/**
 * Reads a plugin `hooks/hooks.json` document: `{ description?, hooks: {…} }`. A document without a `hooks`
 * key is read as the hooks object itself. Same diagnostics as {@link parseHooksConfig}; never throws.
 */
export function parseHooksFile(raw: unknown, path?: string): ParsedHooksConfig {
  if (isRecord(raw) && "hooks" in raw) return parseHooksConfig(raw.hooks, path);
  return parseHooksConfig(raw, path);
}
