import * as z from "zod";
import { AGENT_ID_HEADER, STOP_REASONS } from "../agent/model-types.js";
import type { FsOps } from "../io/fs.js";

/** A text block of a scripted response. */
export const ScriptTextBlock = z.object({ type: z.literal("text"), text: z.string() }).strict();

/** A tool call. Without `id` the server makes one (`toolu_…`). */
export const ScriptToolUseBlock = z
  .object({
    type: z.literal("tool_use"),
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** A content block of a scripted response: text or a tool call. */
export const ScriptContentBlock = z.discriminatedUnion("type", [ScriptTextBlock, ScriptToolUseBlock]);
export type ScriptContentBlock = z.infer<typeof ScriptContentBlock>;

/** Token counts to report; missing ones are estimated (characters / 4). */
export const ScriptUsage = z
  .object({
    input_tokens: z.number().int().nonnegative().optional(),
    output_tokens: z.number().int().nonnegative().optional(),
    cache_read_input_tokens: z.number().int().nonnegative().optional(),
    cache_creation_input_tokens: z.number().int().nonnegative().optional(),
  })
  .strict();

/** The assistant message to send. `stop_reason` defaults to `tool_use` when there is a tool call, else `end_turn`. */
export const ScriptResponse = z
  .object({
    content: z.array(ScriptContentBlock),
    stop_reason: z.enum(STOP_REASONS).optional(),
    usage: ScriptUsage.optional(),
    /** The model the message claims to be from; default: the requested model. */
    model: z.string().min(1).optional(),
  })
  .strict();
export type ScriptResponse = z.infer<typeof ScriptResponse>;

/**
 * When a turn applies; every given field must hold. `agentId`: a string = that sub-agent's header, `"*"` = any
 * sub-agent, `null` = the main agent only (no header). `hasToolResultFor`: the newest user message holds a
 * tool_result for a tool_use with this id or this tool name.
 */
export const ScriptMatch = z
  .object({
    agentId: z.string().min(1).nullable().optional(),
    /** A text, or several that must all be there. */
    lastUserTextIncludes: z.union([z.string(), z.array(z.string())]).optional(),
    toolResultIncludes: z.string().optional(),
    hasToolResultFor: z.string().min(1).optional(),
    systemIncludes: z.string().optional(),
    model: z.string().min(1).optional(),
    hasTool: z.string().min(1).optional(),
  })
  .strict();
export type ScriptMatch = z.infer<typeof ScriptMatch>;

/**
 * A failure to play instead of (`http`) or during (`cut`, `slow`, `stream_error`) the response.
 * - `http`: that status with an Anthropic error body (type from the status unless `errorType`), `retry-after`
 *   / `retry-after-ms` headers when given, `x-should-retry` when `shouldRetry` is given.
 * - `cut`: the socket is destroyed after `afterEvents` SSE events (non-streaming: before any byte).
 * - `slow`: status and headers go out at once; the first body byte waits `firstByteDelayMs`.
 * - `stream_error`: an SSE `error` event after `afterEvents` events, then the stream ends.
 * - `stall`: after `afterEvents` SSE events (non-streaming: before any byte) the response stops and holds
 *   until the client goes away or the server closes: a turn held mid-stream (its request is marked `stalled`).
 */
export const ScriptFault = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("http"),
      status: z.number().int().min(400).max(599),
      retryAfterSeconds: z.number().nonnegative().optional(),
      retryAfterMs: z.number().nonnegative().optional(),
      shouldRetry: z.boolean().optional(),
      errorType: z.string().min(1).optional(),
      message: z.string().optional(),
      /** Replaces the whole JSON body. */
      body: z.unknown().optional(),
    })
    .strict(),
  z.object({ kind: z.literal("cut"), afterEvents: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal("slow"), firstByteDelayMs: z.number().int().nonnegative() }).strict(),
  z.object({ kind: z.literal("stall"), afterEvents: z.number().int().nonnegative() }).strict(),
  z
    .object({
      kind: z.literal("stream_error"),
      afterEvents: z.number().int().nonnegative(),
      errorType: z.string().min(1).default("overloaded_error"),
      message: z.string().default("Overloaded"),
    })
    .strict(),
]);
export type ScriptFault = z.infer<typeof ScriptFault>;

/** One scripted turn. `delayMs` holds back the whole response (headers too). `label` names it in errors. */
export const ScriptTurn = z
  .object({
    label: z.string().optional(),
    match: ScriptMatch.optional(),
    response: ScriptResponse.optional(),
    fault: ScriptFault.optional(),
    delayMs: z.number().int().nonnegative().optional(),
    repeat: z.boolean().default(false),
  })
  .strict()
  .refine((turn) => turn.response !== undefined || turn.fault?.kind === "http", {
    message: "a turn needs a response (only an http fault can stand alone)",
  });
export type ScriptTurn = z.infer<typeof ScriptTurn>;
/** A {@link ScriptTurn} as written, before defaults are applied. */
export type ScriptTurnInput = z.input<typeof ScriptTurn>;

/**
 * A script for the scripted Messages API server (src/dev/model-server.ts): the assistant turns it plays, in
 * order. For each request the server takes the first turn that is not used up and whose `match` fits; a turn
 * is used up once served, unless `repeat: true`.
 *
 * ```json
 * { "turns": [
 *   { "match": { "agentId": null, "lastUserTextIncludes": "deploy" },
 *     "response": { "content": [{ "type": "tool_use", "name": "Skill", "input": { "skill": "deploy" } }] } },
 *   { "match": { "hasToolResultFor": "Skill" }, "response": { "content": [{ "type": "text", "text": "Done." }] } },
 *   { "fault": { "kind": "http", "status": 529, "retryAfterSeconds": 0 } }
 * ] }
 * ```
 */
export const ModelScript = z.object({ turns: z.array(ScriptTurn) }).strict();
export type ModelScript = z.infer<typeof ModelScript>;
/** A {@link ModelScript} as written, before defaults are applied. */
export type ModelScriptInput = z.input<typeof ModelScript>;

/** Validates a script's JSON text. `source` names it in the error. */
export function parseScript(
  text: string,
  source: string,
): { ok: true; script: ModelScript } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `Model script ${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const parsed = ModelScript.safeParse(json);
  if (parsed.success) return { ok: true, script: parsed.data };
  return { ok: false, error: `Model script ${source} is invalid:\n${z.prettifyError(parsed.error)}` };
}

/** Reads and validates a JSON script file. Throws an Error whose message names the file and each problem. */
export async function loadScript(path: string, fs: FsOps): Promise<ModelScript> {
  const result = parseScript(await fs.readFile(path), path);
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

/** What the matchers look at in a request. */
export interface RequestView {
  /** The agent-id header, undefined for the main agent. */
  agentId: string | undefined;
  model: string;
  system: string;
  toolNames: string[];
  /** Text of the newest user message (string content and text blocks, joined with newlines). */
  lastUserText: string;
  /** Text of the tool_result blocks in the newest user message. */
  toolResultText: string;
  /** Ids and tool names of the tool_uses answered by the newest user message. */
  toolResultsFor: string[];
}

const LooseBlock = z.looseObject({ type: z.string() });
const RequestShape = z.looseObject({
  model: z.string().catch(""),
  system: z.union([z.string(), z.array(z.looseObject({ text: z.string() }))]).catch(""),
  tools: z.array(z.looseObject({ name: z.string() })).catch([]),
  messages: z
    .array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(LooseBlock)]) }))
    .catch([]),
});

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "text" in b && typeof b.text === "string" ? b.text : "",
    )
    .filter((t) => t !== "")
    .join("\n");
}

/** Reduces a request body (any JSON) and its lower-cased headers to what matchers use. Never throws. */
export function requestView(body: unknown, headers: Readonly<Record<string, string>>): RequestView {
  const req = RequestShape.safeParse(body ?? {});
  const data = req.success ? req.data : { model: "", system: "", tools: [], messages: [] };
  const toolNames = new Map<string, string>();
  for (const message of data.messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
        toolNames.set(block.id, block.name);
      }
    }
  }
  const lastUser = data.messages.findLast((m) => m.role === "user");
  const blocks = lastUser === undefined || typeof lastUser.content === "string" ? [] : lastUser.content;
  const results = blocks.filter((b) => b.type === "tool_result");
  const toolResultsFor = results.flatMap((b) => {
    const id = typeof b.tool_use_id === "string" ? b.tool_use_id : "";
    const name = toolNames.get(id);
    return name === undefined ? [id] : [id, name];
  });
  return {
    agentId: headers[AGENT_ID_HEADER],
    model: data.model,
    system: textOf(data.system),
    toolNames: data.tools.map((t) => t.name),
    lastUserText: lastUser === undefined ? "" : textOf(lastUser.content),
    toolResultText: results.map((b) => textOf(b.content)).join("\n"),
    toolResultsFor,
  };
}

/** True when every field of `match` holds for the request (an absent matcher matches everything). */
export function matchesTurn(match: ScriptMatch | undefined, view: RequestView): boolean {
  if (match === undefined) return true;
  if (match.agentId === null && view.agentId !== undefined) return false;
  if (typeof match.agentId === "string") {
    if (view.agentId === undefined) return false;
    if (match.agentId !== "*" && match.agentId !== view.agentId) return false;
  }
  const userTexts =
    typeof match.lastUserTextIncludes === "string"
      ? [match.lastUserTextIncludes]
      : (match.lastUserTextIncludes ?? []);
  if (userTexts.some((text) => !view.lastUserText.includes(text))) {
    return false;
  }
  if (match.toolResultIncludes !== undefined && !view.toolResultText.includes(match.toolResultIncludes)) {
    return false;
  }
  if (match.hasToolResultFor !== undefined && !view.toolResultsFor.includes(match.hasToolResultFor))
    return false;
  if (match.systemIncludes !== undefined && !view.system.includes(match.systemIncludes)) return false;
  if (match.model !== undefined && match.model !== view.model) return false;
  if (match.hasTool !== undefined && !view.toolNames.includes(match.hasTool)) return false;
  return true;
}

/** The index of the first turn not in `used` whose matcher fits, or undefined. Pure. */
export function pickTurn(
  turns: readonly ScriptTurn[],
  used: ReadonlySet<number>,
  view: RequestView,
): number | undefined {
  const index = turns.findIndex((turn, i) => !used.has(i) && matchesTurn(turn.match, view));
  return index === -1 ? undefined : index;
}
