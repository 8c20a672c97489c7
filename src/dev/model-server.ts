import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";
import { AGENT_ID_HEADER } from "../agent/model-types.js";
import {
  headerRecord,
  MAX_BODY_BYTES,
  readBody,
  sendError,
  sendHttpFault,
  sendJson,
  writeFlushed,
} from "./http-reply.js";
import {
  ModelScript,
  type ModelScriptInput,
  pickTurn,
  type RequestView,
  requestView,
  type ScriptFault,
  ScriptTurn,
  type ScriptTurnInput,
} from "./model-script.js";
import {
  buildMessage,
  estimateTokens,
  messageEvents,
  newId,
  sseText,
  type WireMessage,
} from "./wire-message.js";

/** The server listens here unless told otherwise. */
export const DEFAULT_HOST = "127.0.0.1";

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
  /** Set once a `stall` fault holds this request's response. */
  stalled?: boolean;
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

  /** Holds the response until `signal` aborts (the client left, or the server closes). */
  async function stall(record: RecordedRequest, signal: AbortSignal): Promise<void> {
    record.stalled = true;
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  async function streamMessage(
    res: ServerResponse,
    record: RecordedRequest,
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
      if (fault?.kind === "stall" && i === fault.afterEvents) {
        await stall(record, signal);
        res.destroy();
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
    if (body.data.stream === true) return streamMessage(res, record, message, fault, signal);
    if (fault?.kind === "cut") return void res.socket?.destroy();
    if (fault?.kind === "stall") {
      await stall(record, signal);
      return void res.destroy();
    }
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
