import type * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { isRecord } from "../is-record.js";

/**
 * A tool a SKILL.md declares in `skill-tools:`: offered from a session's first request, callable once its skill
 * is loaded. `command` runs in the skill's folder with the input as JSON on stdin; its stdout is the result.
 */
export interface CommandToolSpec {
  kind: "command";
  name: string;
  description: string;
  /** A JSON schema whose `type` is `object`. */
  inputSchema: Record<string, unknown>;
  command: string;
}

/** What a code tool's `execute` gets besides its input. */
export interface CodeToolContext {
  cwd: string;
  signal: AbortSignal;
}

/** What a code tool answers: text, or text marked as an error. */
export type CodeToolOutput = string | { text: string; isError?: boolean };

/**
 * A tool an application's memory skill declares (`tools` of a skill definition): a zod schema for its input and
 * an `execute` that gets the parsed input. Build one with `defineSkillTool` (typed input).
 */
export interface CodeToolSpec {
  kind: "code";
  name: string;
  description: string;
  input: z.ZodType;
  execute(input: unknown, context: CodeToolContext): Promise<CodeToolOutput>;
}

/** A tool a skill owns: a SKILL.md's command tool or a memory skill's code tool. */
export type SkillToolSpec = CommandToolSpec | CodeToolSpec;

/** A code tool with `execute` typed by its schema (the library's `defineSkillTool`). */
export function defineSkillTool<S extends z.ZodType>(spec: {
  name: string;
  description: string;
  input: S;
  execute(input: z.output<S>, context: CodeToolContext): Promise<CodeToolOutput>;
}): CodeToolSpec {
  return {
    kind: "code",
    name: spec.name,
    description: spec.description,
    input: spec.input,
    // The input reaches `execute` only after `input` parsed it (see the session's skill tools).
    execute: (input, context) => spec.execute(input as z.output<S>, context),
  };
}

/** What a tool name may be: the Messages API's rule for tool names. */
export const SKILL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/**
 * Names a skill's tool may never take: the built-in tools and those the engine adds (a test keeps the list equal to
 * theirs). Names starting `mcp__` are MCP servers' and refused as well.
 */
export const RESERVED_TOOL_NAMES: readonly string[] = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Grep",
  "Glob",
  "LS",
  "Skill",
  "SkillSearch",
  "load_reference",
];

/** The most tools one skill may declare. */
export const MAX_SKILL_TOOLS = 16;
/** The longest description a skill tool may have. */
export const MAX_SKILL_TOOL_DESCRIPTION = 1024;

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "a mapping" : typeof value;
}

/** One entry, or the reason it is refused. */
function readEntry(entry: unknown): CommandToolSpec | string {
  if (!isRecord(entry)) return `expected a mapping, got ${describeValue(entry)}`;
  const { name, description, command } = entry;
  const schema = entry.input_schema;
  if (typeof name !== "string" || !SKILL_TOOL_NAME.test(name)) {
    return `name: expected 1-64 letters, digits, _ or -, got ${typeof name === "string" ? JSON.stringify(name) : describeValue(name)}`;
  }
  if (RESERVED_TOOL_NAMES.includes(name) || name.startsWith("mcp__")) {
    return `${name}: the name of a built-in or MCP tool, which a skill's tool cannot shadow`;
  }
  if (typeof description !== "string" || description.trim() === "") return `${name}: description is missing`;
  if (description.length > MAX_SKILL_TOOL_DESCRIPTION) {
    return `${name}: description is ${description.length} characters, over ${MAX_SKILL_TOOL_DESCRIPTION}`;
  }
  if (typeof command !== "string" || command.trim() === "") return `${name}: command is missing`;
  if (
    schema !== undefined &&
    (!isRecord(schema) || (schema.type !== undefined && schema.type !== "object"))
  ) {
    return `${name}: input_schema must be a JSON schema of type object`;
  }
  if (schema !== undefined && schema.properties !== undefined && !isRecord(schema.properties)) {
    return `${name}: input_schema.properties must be a mapping`;
  }
  return {
    kind: "command",
    name,
    description: description.trim(),
    inputSchema: { ...(schema ?? {}), type: "object" },
    command: command.trim(),
  };
}

/**
 * A skill's `skill-tools:` list, read: each entry needs a `name` (the API's tool-name rule), a `description`, a
 * `command`, and may give an `input_schema` (a JSON schema of type object; default: any object). A bad entry, a
 * repeated name or one past the sixteenth is a `skill-tool-invalid` warning and left out; the skill still loads.
 * Pure.
 */
export function readSkillTools(
  raw: unknown,
  path: string,
): { tools: SkillToolSpec[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const warn = (message: string) =>
    diagnostics.push(
      diagnostic("warning", "skill-tool-invalid", `skill-tools: ${message}; the tool is left out`, path),
    );
  if (!Array.isArray(raw)) {
    warn(`expected a list of tools, got ${describeValue(raw)}`);
    return { tools: [], diagnostics };
  }
  const tools: CommandToolSpec[] = [];
  for (const entry of raw) {
    const read = readEntry(entry);
    if (typeof read === "string") warn(read);
    else if (tools.some((t) => t.name === read.name)) warn(`${read.name} is declared twice`);
    else if (tools.length >= MAX_SKILL_TOOLS) warn(`${read.name} is past the ${MAX_SKILL_TOOLS}-tool limit`);
    else tools.push(read);
  }
  return { tools, diagnostics };
}
