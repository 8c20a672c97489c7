// The floor of the serve-turn bench: a tiny HTTP server that answers the same SDK calls as `serve` for one
// served turn (create a session, stream its events, send a user message) with the same row writes, through
// the store's own SQL against the same schema (dist/serve/store: the session row, each batch of events with
// the session row's update and the transcript rows in one statement), the same streamed requests to the
// scripted model, and the same SSE stream to the client, but no engine: no skills listing, no tools, no
// session objects, the conversation kept in a plain array. Started like `serve`:
//   node bench/serve-turn-floor.js serve --port 0 --db DIR|URL --api-key KEY   (ANTHROPIC_BASE_URL/_API_KEY)
// and prints `listening on URL`.
//
// Why this is the floor (issue 47, item 3): it is the least durable work the same turn allows, no more, no less.
// - Statements: one per point where the turn must know its events are stored before going on, and no other:
//   (1) the user's message with `session.status_running` (the send's answer names the stored message);
//   (2) `span.model_request_start` (a request's start is stored before the request is made);
//   (3) the first response's `span.model_request_end` with `agent.tool_use` and the response's transcript
//   rows: a tool call's use is stored before the tool runs (the served-tools rule: a crash after the tool ran
//   must find its use, test/serve/crash.test.ts), so the use cannot wait for the result;
//   (4) `agent.tool_result` with the next `span.model_request_start` and the tool result's transcript rows;
//   (5) `agent.message`, the last `span.model_request_end`, `session.status_idle` and the last transcript rows.
//   Merging (3) and (4) would store a use only after its tool ran; splitting any other would add a statement
//   that durability does not ask for.
// - The model: the same two streamed requests to the same server, parsed as a client must (content blocks,
//   tool input JSON, usage).
// - The stream: each stored batch is written to the client's socket in one write, with the SSE framing
//   `serve` uses; nothing is read back from the database for the instance's own streams.
// - What it leaves out is what the engine adds on top: skills, listing, prompt, tools, permissions, hooks,
//   session objects, zod validation of requests, hono's routing. Those are skillwright's cost, measured against it.
// On PostgreSQL the statements' own cost (the database's processes) is counted apart ("PG" in the table), and is
// the same for both servers when they make the same statements.
import { createServer, request } from "node:http";
import { parseArgs } from "node:util";
import { createDbTranscripts } from "../dist/serve/sessions/db-transcripts.js";
import { openDriver } from "../dist/serve/store/open-driver.js";
import { createStore } from "../dist/serve/store/store.js";
import { DEFAULT_WORKSPACE, ensureWorkspace } from "../dist/serve/store/workspaces.js";

/** The skill the scripted model calls, as the Skill tool would expand it. */
const SKILL_NAME = "bench";
const SKILL_BODY = "Do it.\n";
/** The agent snapshot each session row holds (the shape `serve` stores). @type {any} */
const AGENT = {
  type: "agent",
  id: "agent_floor",
  version: 1,
  name: "bench",
  description: null,
  model: { id: "claude-sonnet-4-6", speed: "standard" },
  system: null,
  tools: [],
  mcp_servers: [],
  skills: [{ type: "custom", skill_id: "skill_floor", version: "latest" }],
  metadata: {},
};
/** The one tool the floor offers the model. */
const SKILL_TOOL = {
  name: "Skill",
  description: "Run a skill by name.",
  input_schema: { type: "object", properties: { skill: { type: "string" } }, required: ["skill"] },
};

const { values } = parseArgs({
  options: { port: { type: "string" }, db: { type: "string" }, "api-key": { type: "string" } },
  allowPositionals: true,
});
const apiKey = values["api-key"] ?? "";
const modelUrl = new URL("/v1/messages", process.env.ANTHROPIC_BASE_URL ?? "http://127.0.0.1:1");
const db = await openDriver(values.db ?? "");
const store = await createStore(db);
const ws = await ensureWorkspace(db, DEFAULT_WORKSPACE);
/** @type {Map<string, import("node:http").ServerResponse>} */
const streams = new Map();
/** @type {Map<string, { role: "user" | "assistant", content: any }[]>} */
const conversations = new Map();

/** @param {import("node:http").IncomingMessage} req @returns {Promise<any>} */
async function jsonOf(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** @param {import("node:http").ServerResponse} res @param {number} status @param {unknown} body */
function reply(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Stored events to the session's stream, each as `serve` sends it. @param {string} id @param {{ id: string, type: string }[]} events */
function push(id, events) {
  const res = streams.get(id);
  if (res === undefined || events.length === 0) return;
  res.write(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\nid: ${e.id}\n\n`).join(""));
}

/**
 * Appends `events` in one statement (the store's), then streams them as stored.
 * @param {string} id @param {({ type: string } & Record<string, unknown>)[]} events @param {import("../dist/serve/store/sessions.js").AppendOptions} [options]
 */
async function append(id, events, options) {
  const stored = await store.sessions.appendEvents(ws, id, events, options);
  push(id, stored);
  return stored;
}

/**
 * One streamed model request; resolves with the assistant message's content and usage.
 * @param {unknown[]} messages
 * @returns {Promise<{ content: any[], usage: Record<string, number> }>}
 */
function callModel(messages) {
  const body = JSON.stringify({
    model: AGENT.model.id,
    max_tokens: 4096,
    stream: true,
    system: "You are a bench agent.",
    tools: [SKILL_TOOL],
    messages,
  });
  return new Promise((resolve, reject) => {
    const req = request(
      modelUrl,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": process.env.ANTHROPIC_API_KEY ?? "",
          "anthropic-version": "2023-06-01",
        },
      },
      (res) => {
        /** @type {any[]} */
        const content = [];
        /** @type {Record<string, number>} */
        const usage = {};
        const partial = /** @type {string[]} */ ([]);
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          buffer += chunk;
          for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").find((line) => line.startsWith("data: "));
            if (data === undefined) continue;
            const event = JSON.parse(data.slice(6));
            if (event.type === "message_start") Object.assign(usage, event.message.usage);
            if (event.type === "content_block_start") {
              content[event.index] = { ...event.content_block };
              partial[event.index] = "";
            }
            if (event.type === "content_block_delta") {
              const block = content[event.index];
              if (event.delta.type === "text_delta") block.text += event.delta.text;
              if (event.delta.type === "input_json_delta") partial[event.index] += event.delta.partial_json;
            }
            if (event.type === "content_block_stop" && content[event.index]?.type === "tool_use")
              content[event.index].input = JSON.parse(partial[event.index] || "{}");
            if (event.type === "message_delta") Object.assign(usage, event.usage);
          }
        });
        res.on("end", () => resolve({ content, usage }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Messages as transcript entries (the engine's `message` entries).
 * @param {{ role: "user" | "assistant", content: any }[]} messages
 * @returns {import("../dist/session/transcript-store.js").TranscriptEntry[]}
 */
const entries = (messages) => {
  const at = new Date().toISOString();
  return messages.map((message) => ({ type: "message", message, at }));
};

/** @param {Record<string, number>} usage */
const modelUsage = (usage) => ({
  input_tokens: usage.input_tokens ?? 0,
  output_tokens: usage.output_tokens ?? 0,
  cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
});

/**
 * One turn: the model requests (a Skill call answered, then the final answer), each batch of events written
 * and streamed as the turn reaches it, with the transcript rows of each model response in its statement.
 * @param {string} id @param {string} text
 */
async function runTurn(id, text) {
  const messages = conversations.get(id) ?? [];
  conversations.set(id, messages);
  const transcripts = createDbTranscripts(db, id);
  messages.push({ role: "user", content: [{ type: "text", text }] });
  let [start] = await append(id, [{ type: "span.model_request_start" }]);
  for (;;) {
    const { content, usage } = await callModel(messages);
    messages.push({ role: "assistant", content });
    const end = {
      type: "span.model_request_end",
      model_request_start_id: start?.id ?? "",
      is_error: false,
      model_usage: modelUsage(usage),
    };
    const call = content.find((b) => b?.type === "tool_use");
    if (call === undefined) {
      const answer = content.flatMap((b) => (b?.type === "text" ? [b.text] : [])).join("");
      await append(
        id,
        [
          { type: "agent.message", content: [{ type: "text", text: answer }] },
          end,
          { type: "session.status_idle", stop_reason: { type: "end_turn" }, stop_details: null },
        ],
        { status: "idle", transcript: transcripts.rows(entries(messages.slice(-1))) },
      );
      return;
    }
    // The tool call's use is stored (with the request's end and the response's transcript rows) before the
    // tool runs; its result and the next request's start are the next statement.
    const [, use] = await append(id, [end, { type: "agent.tool_use", name: call.name, input: call.input }], {
      transcript: transcripts.rows(entries(messages.slice(-2))),
    });
    const result = `Launching skill: ${call.input.skill ?? SKILL_NAME}`;
    messages.push({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: call.id, content: result },
        { type: "text", text: SKILL_BODY },
      ],
    });
    const stored = await append(
      id,
      [
        {
          type: "agent.tool_result",
          tool_use_id: use?.id ?? "",
          content: [{ type: "text", text: result }],
          is_error: false,
        },
        { type: "span.model_request_start" },
      ],
      { transcript: transcripts.rows(entries(messages.slice(-1))) },
    );
    start = stored[1];
  }
}

const server = createServer(async (req, res) => {
  try {
    const key = req.headers["x-api-key"] ?? req.headers.authorization?.replace(/^Bearer /, "");
    if (key !== apiKey)
      return reply(res, 401, { type: "error", error: { type: "authentication_error", message: "bad key" } });
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (req.method === "POST" && path === "/v1/sessions") {
      await jsonOf(req);
      const session = await store.sessions.create(ws, {
        agent: AGENT,
        environmentId: "env_floor",
        title: null,
        metadata: {},
        vault_ids: [],
      });
      return reply(res, 200, session);
    }
    const match = /^\/v1\/sessions\/([^/]+)\/events(\/stream)?$/.exec(path);
    if (match === null) return reply(res, 404, { type: "error" });
    const id = match[1] ?? "";
    await store.sessions.get(ws, id);
    if (req.method === "GET" && match[2] !== undefined) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.flushHeaders();
      streams.set(id, res);
      res.on("close", () => {
        if (streams.get(id) === res) streams.delete(id);
      });
      return;
    }
    const body = await jsonOf(req);
    const message = body.events?.[0] ?? {};
    const stored = await append(id, [message, { type: "session.status_running" }], {
      status: "running",
      startsTurn: true,
    });
    reply(res, 200, { data: stored.slice(0, 1) });
    const text = (message.content ?? []).map((/** @type {any} */ b) => b.text ?? "").join("");
    runTurn(id, text).catch((error) => console.error(error));
  } catch (error) {
    if (!res.headersSent) reply(res, 500, { type: "error", error: { message: String(error) } });
  }
});
server.listen(Number(values.port ?? 0), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`floor listening on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  for (const res of streams.values()) res.end();
  store.close().finally(() => process.exit(0));
});
