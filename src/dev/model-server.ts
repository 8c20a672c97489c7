import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AGENT_ID_HEADER } from "../agent/model-client.js";
import {
  ModelScript,
  type ModelScriptInput,
  pickTurn,
  type RequestView,
  requestView,
  type ScriptFault,
  type ScriptResponse,
  ScriptTurn,
  type ScriptTurnInput,
} from "./model-script.js";

/** Text is streamed in this many `text_delta` chunks (fewer for very short text)… */
export const TEXT_DELTA_PARTS = 3;
/** …each at most this many characters, so long text makes many deltas. Tool input JSON is split the same way. */
export const MAX_DELTA_CHARS = 64;
/** The token estimate used for usage and count_tokens: characters divided by this. */
export const CHARS_PER_TOKEN = 4;
/** Request bodies above this size get a 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The server listens here unless told otherwise. */
export const DEFAULT_HOST = "127.0.0.1";

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ID_LENGTH = 22;

/** One request as the server saw it. `turn` is the index of the script turn that answered, if any. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  time: number;
  agentId: string | undefined;
  turn: number | undefined;
}

/** What {@link startModelServer} serves and where. */
export interface ModelServerOptions {
  script: ModelScriptInput;
  /** Default 0: any free port. */
  port?: number;
  host?: string;
  /** Delay between SSE events, in ms (default 0). */
  latencyMs?: number;
  /** When set, requests must carry it (`x-api-key` or `authorization: Bearer`), else 401. */
  apiKey?: string;
}

/** A running scripted server. */
export interface ModelServer {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request, in arrival order (a live array). */
  requests: RecordedRequest[];
  /** Appends turns (validated; throws on an invalid turn: a test bug). */
  addTurns(turns: ScriptTurnInput[]): void;
  /** Turns not used up yet (repeat turns always count). */
  remainingTurns(): ScriptTurn[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

type WireBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: Record<string, number>;
}

function newId(prefix: string): string {
  const bytes = randomBytes(ID_LENGTH);
  return `${prefix}01${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
}

/** Splits text into about {@link TEXT_DELTA_PARTS} chunks of at most {@link MAX_DELTA_CHARS} code points. */
export function splitChunks(text: string): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.min(MAX_DELTA_CHARS, Math.ceil(chars.length / TEXT_DELTA_PARTS)));
  const chunks: string[] = [];
  for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(""));
  return chunks;
}

/** The assistant message for a scripted response; ids are made for tool calls that have none. */
export function buildMessage(
  response: ScriptResponse,
  requestModel: string,
  inputTokens: number,
): WireMessage {
  const content = response.content.map(
    (b): WireBlock =>
      b.type === "text"
        ? { type: "text", text: b.text }
        : { type: "tool_use", id: b.id ?? newId("toolu_"), name: b.name, input: b.input },
  );
  const hasToolUse = content.some((b) => b.type === "tool_use");
  const outputText = content.map((b) => (b.type === "text" ? b.text : JSON.stringify(b.input))).join("");
  return {
    id: newId("msg_"),
    type: "message",
    role: "assistant",
    model: response.model ?? requestModel,
    content,
    stop_reason: response.stop_reason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: response.usage?.input_tokens ?? inputTokens,
      output_tokens: response.usage?.output_tokens ?? estimateTokens(outputText),
      cache_creation_input_tokens: response.usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: response.usage?.cache_read_input_tokens ?? 0,
    },
  };
}

/**
 * The SSE events the real API sends for a message, in order: `message_start`, `ping`, then per block
 * `content_block_start`, its deltas (`text_delta` / `input_json_delta`, the first JSON delta empty as the API
 * sends it) and `content_block_stop`, then `message_delta` and `message_stop`.
 */
export function messageEvents(message: WireMessage): SseEvent[] {
  const start = { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } };
  const events: SseEvent[] = [
    { event: "message_start", data: { type: "message_start", message: start } },
    { event: "ping", data: { type: "ping" } },
  ];
  message.content.forEach((block, index) => {
    const head = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: head },
    });
    const deltas =
      block.type === "text"
        ? splitChunks(block.text).map((text) => ({ type: "text_delta", text }))
        : ["", ...splitChunks(JSON.stringify(block.input))].map((partial_json) => ({
            type: "input_json_delta",
            partial_json,
          }));
    for (const delta of deltas) {
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The Anthropic error type for an HTTP status (`api_error` for other 5xx, `invalid_request_error` for 4xx). */
export function errorTypeForStatus(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function sseText(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": newId("req_"),
    ...headers,
  });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { type: "error", error: { type: errorTypeForStatus(status), message } }, headers);
}

function sendHttpFault(res: ServerResponse, fault: Extract<ScriptFault, { kind: "http" }>): void {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.shouldRetry !== undefined) headers["x-should-retry"] = String(fault.shouldRetry);
  const type = fault.errorType ?? errorTypeForStatus(fault.status);
  const body = fault.body ?? { type: "error", error: { type, message: fault.message ?? `Scripted ${type}` } };
  sendJson(res, fault.status, body, headers);
}

/** Writes and waits until the chunk reached the socket, or until the request is gone. */
function writeFlushed(res: ServerResponse, text: string, signal: AbortSignal): Promise<void> {
  if (signal.aborted || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    res.write(text, done);
  });
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

const MessagesBody = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(z.unknown()),
});
const CountTokensBody = z.looseObject({ model: z.string().min(1), messages: z.array(z.unknown()) });

function describeView(view: RequestView): string {
  const text = view.lastUserText.length > 200 ? `${view.lastUserText.slice(0, 200)}…` : view.lastUserText;
  return `agent: ${view.agentId ?? "main"}, last user text: ${JSON.stringify(text)}, tool results for: [${view.toolResultsFor.join(", ")}]`;
}

/**
 * Starts a scripted Messages API server on node:http that speaks `POST /v1/messages` as the real API does
 * (SSE with `stream: true`, a JSON Message otherwise) and `POST /v1/messages/count_tokens` (chars / 4).
 * Each request is answered by the first unused matching script turn (see {@link ModelScript}); with none, a
 * 500 `api_error` that says so, with `x-should-retry: false` so the SDK fails at once. Throws when the
 * script is invalid.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const turns: ScriptTurn[] = [...validated(ModelScript, options.script, "model script").turns];
  const used = new Set<number>();
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const latencyMs = options.latencyMs ?? 0;

  const authorized = (headers: Record<string, string>): boolean =>
    options.apiKey === undefined ||
    headers["x-api-key"] === options.apiKey ||
    headers.authorization === `Bearer ${options.apiKey}`;

  async function streamMessage(
    res: ServerResponse,
    message: WireMessage,
    fault: ScriptFault | undefined,
    signal: AbortSignal,
  ) {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "request-id": newId("req_"),
    });
    res.flushHeaders();
    if (fault?.kind === "slow") await sleep(fault.firstByteDelayMs, undefined, { signal });
    const events = messageEvents(message);
    for (const [i, event] of events.entries()) {
      if (fault?.kind === "cut" && i === fault.afterEvents) {
        res.socket?.destroy();
        return;
      }
      if (fault?.kind === "stream_error" && i === fault.afterEvents) {
        const error = { type: "error", error: { type: fault.errorType, message: fault.message } };
        res.end(sseText({ event: "error", data: error }));
        return;
      }
      if (i > 0 && latencyMs > 0) await sleep(latencyMs, undefined, { signal });
      await writeFlushed(res, sseText(event), signal);
      if (signal.aborted) return;
    }
    res.end();
  }

  async function answerMessages(res: ServerResponse, record: RecordedRequest, signal: AbortSignal) {
    if (!authorized(record.headers)) return sendError(res, 401, "invalid x-api-key");
    const body = MessagesBody.safeParse(record.body);
    if (!body.success) return sendError(res, 400, z.prettifyError(body.error));
    const view = requestView(record.body, record.headers);
    const index = pickTurn(turns, used, view);
    const turn = index === undefined ? undefined : turns[index];
    if (index === undefined || turn === undefined) {
      const message = `model-server: no script turn matches this request (${describeView(view)}); ${turns.length - used.size} turns unused`;
      return sendError(res, 500, message, { "x-should-retry": "false" });
    }
    if (!turn.repeat) used.add(index);
    record.turn = index;
    if (turn.delayMs !== undefined) await sleep(turn.delayMs, undefined, { signal });
    const fault = turn.fault;
    if (fault?.kind === "http") return sendHttpFault(res, fault);
    if (turn.response === undefined) return sendError(res, 500, "model-server: turn has no response");
    const inputTokens = estimateTokens(
      JSON.stringify([body.data.system, body.data.messages, body.data.tools]),
    );
    const message = buildMessage(turn.response, body.data.model, inputTokens);
    if (body.data.stream === true) return streamMessage(res, message, fault, signal);
    if (fault?.kind === "cut") return void res.socket?.destroy();
    if (fault?.kind === "slow") await sleep(fault.firstByteDelayMs, undefined, { signal });
    if (fault?.kind === "stream_error")
      return sendHttpFault(res, {
        kind: "http",
        status: 529,
        errorType: fault.errorType,
        message: fault.message,
      });
    sendJson(res, 200, message);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gone = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === undefined || raw === "" ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const headers = headerRecord(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      headers,
      body,
      time: Date.now(),
      agentId: headers[AGENT_ID_HEADER],
      turn: undefined,
    };
    requests.push(record);
    if (raw === undefined) return sendError(res, 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    if (raw !== "" && body === undefined) return sendError(res, 400, "Request body is not valid JSON");
    if (record.method === "POST" && path === "/v1/messages") return answerMessages(res, record, signal);
    if (record.method === "POST" && path === "/v1/messages/count_tokens") {
      const parsed = CountTokensBody.safeParse(body);
      if (!parsed.success) return sendError(res, 400, z.prettifyError(parsed.error));
      return sendJson(res, 200, { input_tokens: estimateTokens(JSON.stringify(body)) });
    }
    sendError(res, 404, `Not found: ${record.method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (signalAborted(error)) return;
      if (!res.headersSent) sendError(res, 500, `model-server: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? DEFAULT_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  const host = options.host ?? DEFAULT_HOST;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    requests,
    addTurns(more) {
      for (const turn of more) turns.push(validated(ScriptTurn, turn, "script turn"));
    },
    remainingTurns: () => turns.filter((turn, i) => turn.repeat || !used.has(i)),
    close() {
      closing.abort();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parses test input; an invalid script is a bug in the test, so this throws with zod's readable text. */
function validated<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`Invalid ${what}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function signalAborted(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}
