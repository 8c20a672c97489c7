import type * as z from "zod";
import { errorMessage } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import { lazy } from "../lazy.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatBytes,
  type TruncationLimits,
  truncateHead,
  truncateTail,
} from "./truncate.js";

/** A text block of a tool result. */
export interface TextContent {
  type: "text";
  text: string;
}

export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** An image block of a tool result, in the Messages API shape. */
export interface ImageContent {
  type: "image";
  source: { type: "base64"; media_type: ImageMediaType; data: string };
}

/**
 * A reference to a deferred tool (`defer_loading`), in the Messages API shape: a result that holds one reveals
 * that tool's definition to the model from then on.
 */
export interface ToolReferenceContent {
  type: "tool_reference";
  tool_name: string;
}

export type ToolContent = TextContent | ImageContent | ToolReferenceContent;

/** What a tool call runs with. `signal` aborts it; `onUpdate` receives progress text (e.g. command output). */
export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  toolUseId: string;
  onUpdate?: (text: string) => void;
}

/** What a tool's `execute` returns: a string is one text block. */
export interface ToolOutput {
  content: string | ToolContent[];
  isError?: boolean;
  /** For hosts and UIs (e.g. a diff); never sent to the model. */
  details?: unknown;
  /** Absolute paths the call read, wrote, edited or found. */
  touchedPaths?: readonly string[];
}

/** The outcome of `Tool.run`, ready to become a `tool_result`. */
export interface ToolResult {
  content: ToolContent[];
  isError: boolean;
  details?: unknown;
  /** Absolute paths the call read, wrote, edited or found, deduplicated, in first-seen order. */
  touchedPaths: string[];
}

/** A JSON schema for a tool's input, as the Messages API takes it (`input_schema`). */
export interface ToolInputSchema {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** A tool as the agent loop sees it: plain data plus `run`. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  /** True when the tool never changes anything (used for read-only agent types). */
  readonly readOnly: boolean;
  /**
   * The skill that owns the tool (`skill-tools:`): it is callable only once that skill was loaded in the
   * caller's conversation. Absent: a tool of the session's own.
   */
  readonly owner?: string;
  /**
   * Sent with `defer_loading: true` to models that support it: the model sees its definition only once a
   * `tool_reference` to it appears (the owner skill's result), while the tools array stays the same.
   */
  readonly deferLoading?: boolean;
  /**
   * The MCP server, one only skills need, this tool comes from: the result of a skill that needs that server
   * references it (`tool_reference`), as an owner skill's does its own tools. Absent: not such a tool.
   */
  readonly skillServer?: string;
  /** One line for the system prompt's tool list (`- {name}: {snippet}`); absent: the tool is not listed. */
  readonly snippet?: string;
  /** Advice lines the system prompt adds to its guidelines when the tool is offered. */
  readonly guidelines?: readonly string[];
  /**
   * What permission rules and hook matchers match against (`Bash(git add:*)` → the command, `Read(./src/**)`
   * → the path as the model wrote it). Undefined when the input is invalid or the tool has no subject.
   */
  subject(rawInput: unknown): string | undefined;
  /**
   * Parses the input and runs the tool. Never rejects: bad input, thrown errors, abort and timeout all become
   * `isError: true` results. Permissions and hooks are the caller's business, checked before this.
   */
  run(rawInput: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * What `defineTool` needs. `input` is an object schema (its parsed value is what `execute` gets), the single
 * source of the tool's input: the JSON schema the API gets is generated from it (`toToolInputSchema`). Given
 * eagerly, it is generated at once; given as a function building it (e.g. `lazy(() => z.object({…}))`), the
 * schema is built on first use (reading `inputSchema`, or the first `run` or `subject`) and reused.
 */
export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S | (() => S);
  /**
   * A literal JSON schema to send instead of generating it from a function `input` (tools that pin their
   * schema, generated at build time by scripts/tool-schemas.mjs; it must equal
   * `toToolInputSchema(name, input())`). With an eager `input` it is ignored.
   */
  inputSchema?: ToolInputSchema;
  readOnly: boolean;
  /** One line for the system prompt's tool list. */
  snippet?: string;
  /** Advice lines for the system prompt's guidelines. */
  guidelines?: readonly string[];
  subject?: (input: z.output<S>) => string | undefined;
  execute: (input: z.output<S>, ctx: ToolContext) => Promise<ToolOutput>;
  /** Stops the call after this many milliseconds. Default: none. */
  timeoutMs?: number;
  /** What the model reads when `timeoutMs` stops the call. Default: `{name} timed out after N seconds`. */
  timeoutText?: string;
  /** Which end of an over-long text result is kept: `head` (default) or `tail` (command output). */
  truncate?: "head" | "tail";
  /**
   * Deprecated input keys still accepted, each mapped to the key that replaced it (`{ path: "file_path" }`):
   * used only when the new key is absent. The model never sees them (they are not in the JSON schema).
   */
  legacyKeys?: Readonly<Record<string, string>>;
}

/** `raw` with each legacy key renamed to its replacement when the replacement is absent. Pure. */
export function applyLegacyKeys(
  raw: unknown,
  legacyKeys: Readonly<Record<string, string>> | undefined,
): unknown {
  if (legacyKeys === undefined || !isRecord(raw)) return raw;
  let out: Record<string, unknown> | undefined;
  for (const [old, key] of Object.entries(legacyKeys)) {
    if (raw[old] === undefined || raw[key] !== undefined) continue;
    out ??= { ...raw };
    out[key] = raw[old];
    delete out[old];
  }
  return out ?? raw;
}

/** Tool names the Messages API accepts. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Room above the default limits for the note a tool adds after truncating its own output, so that the
 * safety net below does not cut a result a tool has already cut to `DEFAULT_MAX_*`.
 */
export const TRUNCATION_NOTE_ALLOWANCE_LINES = 20;
export const TRUNCATION_NOTE_ALLOWANCE_BYTES = 2 * 1024;

/** The safety net: no text block of any tool result is longer than this. */
export const RESULT_LIMITS: Readonly<TruncationLimits> = Object.freeze({
  maxLines: DEFAULT_MAX_LINES + TRUNCATION_NOTE_ALLOWANCE_LINES,
  maxBytes: DEFAULT_MAX_BYTES + TRUNCATION_NOTE_ALLOWANCE_BYTES,
});

/** The text of a result for an aborted call. */
export const ABORTED_TEXT = "Aborted";

/** A result with one text block and `isError: true`. */
export function errorResult(text: string, details?: unknown): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text }], isError: true, touchedPaths: [] };
  if (details !== undefined) result.details = details;
  return result;
}

/** The model-readable message for input that failed `schema`: `Invalid input for {tool}: {path}: {issue}`. */
export function formatInputError(tool: string, error: z.ZodError): string {
  const issues = error.issues.map((issue) => {
    const path = issue.path.length === 0 ? "(input)" : issue.path.map(String).join(".");
    return `${path}: ${issue.message}`;
  });
  return `Invalid input for ${tool}: ${issues.join("; ")}`;
}

/** Drops the safe-integer bounds zod adds to every `.int()`: noise in the prompt, not a real limit. */
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = dropSafeIntegerBounds(value);
  }
  return out;
}

/**
 * The JSON schema (`input_schema`) for a tool's zod input schema: `z.toJSONSchema` of its input side, without
 * `$schema` and without the safe-integer bounds of `.int()`. Throws (a programmer error) when the schema is not
 * an object schema.
 */
export function toToolInputSchema(name: string, input: z.ZodType): ToolInputSchema {
  // The schema's own method, not `z.toJSONSchema`: the same function, without importing zod at run time (a
  // host importing the package loads zod only when it builds a schema, or opens a session).
  const generated = dropSafeIntegerBounds(input.toJSONSchema({ io: "input" })) as Record<string, unknown>;
  const { $schema: _ignored, ...schema } = generated;
  if (schema.type !== "object") throw new Error(`Tool ${name}: the input schema must be an object schema`);
  return schema as ToolInputSchema;
}

function capText(text: string, from: "head" | "tail"): string {
  const cut = from === "head" ? truncateHead(text, RESULT_LIMITS) : truncateTail(text, RESULT_LIMITS);
  if (!cut.truncated) return text;
  const note =
    `[Output truncated: kept the ${from === "head" ? "first" : "last"} ${cut.keptLines} of ${cut.totalLines} ` +
    `lines (${formatBytes(cut.keptBytes)} of ${formatBytes(cut.totalBytes)}).]`;
  return from === "head" ? `${cut.text}\n\n${note}` : `${note}\n\n${cut.text}`;
}

function finish(output: ToolOutput, from: "head" | "tail"): ToolResult {
  const blocks: ToolContent[] =
    typeof output.content === "string" ? [{ type: "text", text: output.content }] : output.content;
  const content = blocks.map(
    (b): ToolContent => (b.type === "text" ? { type: "text", text: capText(b.text, from) } : b),
  );
  const result: ToolResult = {
    content,
    isError: output.isError ?? false,
    touchedPaths: [...new Set(output.touchedPaths ?? [])],
  };
  if (output.details !== undefined) result.details = output.details;
  return result;
}

/**
 * Builds a `Tool` from a spec. `defineTool` alone owns: JSON-schema generation from the zod input (no `$schema`
 * key; at once for an eager input, on first read of `inputSchema` for a lazy one), building a lazy input on first
 * use (once, for the tool's lifetime), input parsing
 * with a model-readable error, abort (`Aborted` when the signal is aborted before or during the call), the
 * optional timeout, the safety-net truncation of text blocks (`RESULT_LIMITS`), and turning thrown errors into
 * `{tool} failed: {message}` results, and renaming `legacyKeys` before parsing. Throws (a programmer error) for a bad name or a non-object schema (a lazy one: when first read).
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  if (!TOOL_NAME_PATTERN.test(spec.name)) throw new Error(`Invalid tool name: ${spec.name}`);
  const { input } = spec;
  const schema: () => S = typeof input === "function" ? lazy(input) : () => input;
  const eager = typeof input === "function" ? spec.inputSchema : toToolInputSchema(spec.name, input);
  const inputSchema = eager === undefined ? lazy(() => toToolInputSchema(spec.name, schema())) : () => eager;
  const from = spec.truncate ?? "head";
  const timedOutText =
    spec.timeoutText ?? `${spec.name} timed out after ${(spec.timeoutMs ?? 0) / 1000} seconds`;

  return {
    name: spec.name,
    description: spec.description,
    get inputSchema() {
      return inputSchema();
    },
    readOnly: spec.readOnly,
    ...(spec.snippet === undefined ? {} : { snippet: spec.snippet }),
    ...(spec.guidelines === undefined ? {} : { guidelines: spec.guidelines }),
    subject(rawInput) {
      const parsed = schema().safeParse(applyLegacyKeys(rawInput, spec.legacyKeys));
      return parsed.success ? spec.subject?.(parsed.data) : undefined;
    },
    async run(rawInput, ctx) {
      if (ctx.signal.aborted) return errorResult(ABORTED_TEXT);
      const parsed = schema().safeParse(applyLegacyKeys(rawInput, spec.legacyKeys));
      if (!parsed.success) return errorResult(formatInputError(spec.name, parsed.error));

      const timeout = new AbortController();
      const signal = AbortSignal.any([ctx.signal, timeout.signal]);
      const stoppedText = () => (ctx.signal.aborted ? ABORTED_TEXT : timedOutText);
      let onStop = () => {};
      const stopped = new Promise<ToolResult>((resolve) => {
        onStop = () => resolve(errorResult(stoppedText()));
        signal.addEventListener("abort", onStop, { once: true });
      });
      const timer =
        spec.timeoutMs === undefined ? undefined : setTimeout(() => timeout.abort(), spec.timeoutMs);
      const work = (async (): Promise<ToolResult> => {
        try {
          const output = await spec.execute(parsed.data, { ...ctx, signal });
          return signal.aborted ? errorResult(stoppedText()) : finish(output, from);
        } catch (error) {
          if (signal.aborted) return errorResult(stoppedText());
          return errorResult(`${spec.name} failed: ${errorMessage(error)}`);
        }
      })();
      try {
        return await Promise.race([work, stopped]);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        signal.removeEventListener("abort", onStop);
      }
    },
  };
}

/** A `ToolOutput` with one text block and `isError: true`: for failures a tool expects and explains. */
export function toolError(text: string, details?: unknown): ToolOutput {
  return details === undefined ? { content: text, isError: true } : { content: text, isError: true, details };
}
