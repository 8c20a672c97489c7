import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHttpFetch, type Fetch } from "../../src/agent/http-fetch.js";
import { MessagesClient } from "../../src/agent/sdk.js";
import { startTestModel, TEST_API_KEY, textTurn } from "../support/model-server.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const ok: Handler = (_req, res) => void res.end("ok");
let handler: Handler = ok;
let seen: { method: string; headers: IncomingMessage["headers"]; body: Buffer }[] = [];
let connections = 0;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks) });
    await handler(req, res);
  }).listen(0, "127.0.0.1");
  server.on("connection", () => connections++);
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Every plain request must stay on node:http: the fallback only records that it was (wrongly) called.
const fallbackCalls: unknown[] = [];
const httpFetch = createHttpFetch(async (...args) => {
  fallbackCalls.push(args);
  return new Response("from fallback");
});
afterEach(() => {
  expect(fallbackCalls).toEqual([]);
  handler = ok;
  seen = [];
  connections = 0;
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(() => undefined).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

const text = "héllo → wörld 😀";
const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);

describe("request", () => {
  // [case, init, headers the server must see]; the body must arrive byte for byte.
  it.each<[string, RequestInit, Record<string, string>]>([
    [
      "lower-case method, multi-byte UTF-8 text, Headers instance",
      { method: "post", body: text, headers: new Headers({ "X-One": "1", "Content-Type": "text/plain" }) },
      { "x-one": "1", "content-type": "text/plain", "content-length": String(Buffer.byteLength(text)) },
    ],
    [
      "Uint8Array body, record headers",
      { method: "put", body: bytes, headers: { "X-Rec": "a b", Authorization: "Bearer k" } },
      { "x-rec": "a b", authorization: "Bearer k", "content-length": "256" },
    ],
    [
      "ArrayBuffer body, [name, value] pairs",
      {
        method: "PATCH",
        body: bytes.slice().buffer,
        headers: Object.entries({ "x-pair": "1", "x-other": "2" }),
      },
      { "x-pair": "1", "x-other": "2", "content-length": "256" },
    ],
    // "011" is a valid length of 11 spelled unlike the one the fetch would compute.
    [
      "the caller's own content-length",
      { method: "POST", body: "hello world", headers: { "Content-Length": "011" } },
      { "content-length": "011" },
    ],
  ])("%s", async (_name, init, headers) => {
    await (await httpFetch(`${base}/echo`, init)).text();
    expect(seen).toMatchObject([{ method: String(init.method).toUpperCase(), headers }]);
    const sent = typeof init.body === "string" ? Buffer.from(init.body) : Buffer.from(bytes);
    expect(seen[0]?.body.equals(sent)).toBe(true);
  });

  it("sends a GET without a body or a length, from a string or a URL", async () => {
    await (await httpFetch(`${base}/a`)).text();
    await (await httpFetch(new URL("/b", base), { method: "get" })).text();
    expect(seen.map((s) => s.method)).toEqual(["GET", "GET"]);
    for (const s of seen) {
      expect(s.body).toHaveLength(0);
      expect(s.headers["content-length"]).toBeUndefined();
      expect(s.headers["transfer-encoding"]).toBeUndefined();
    }
  });
});

describe("response", () => {
  it("carries status, statusText, repeated headers and a JSON body", async () => {
    handler = (_req, res) => {
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2"]);
      res.setHeader("x-multi", ["1", "2"]);
      res.writeHead(201, "Made It", { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, text }));
    };
    const response = await httpFetch(`${base}/json`);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made It");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2"]);
    expect(response.headers.get("x-multi")).toBe("1, 2");
    expect(await response.json()).toEqual({ ok: true, text });
  });

  it("streams the body: the first chunk is readable before the server writes the rest", async () => {
    const firstRead = deferred();
    handler = async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" }).write("first");
      await firstRead.promise;
      res.end("rest");
    };
    const reader = (await httpFetch(`${base}/stream`)).body?.getReader();
    expect(Buffer.from((await reader?.read())?.value ?? []).toString()).toBe("first");
    firstRead.resolve();
    expect(Buffer.from((await reader?.read())?.value ?? []).toString()).toBe("rest");
    expect((await reader?.read())?.done).toBe(true);
  }, 3_000);

  const payload = `${"data: compressible line\n".repeat(200)}${text}`;
  it.each([
    { encoding: "gzip", compress: gzipSync },
    { encoding: "x-gzip", compress: gzipSync },
    { encoding: "GZIP", compress: gzipSync },
    { encoding: "deflate", compress: deflateSync },
    { encoding: "br", compress: brotliCompressSync },
  ])("decodes a $encoding body", async ({ encoding, compress }) => {
    const compressed = compress(Buffer.from(payload));
    handler = (_req, res) => {
      res.writeHead(200, { "content-encoding": encoding }).write(compressed.subarray(0, 10));
      res.end(compressed.subarray(10));
    };
    const response = await httpFetch(`${base}/z`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(await response.text()).toBe(payload);
  });

  it("passes a body in an unknown encoding through untouched", async () => {
    const raw = gzipSync(Buffer.from(payload));
    handler = (_req, res) => void res.writeHead(200, { "content-encoding": "x-custom" }).end(raw);
    const response = await httpFetch(`${base}/raw`);
    expect(Buffer.from(await response.arrayBuffer()).equals(raw)).toBe(true);
  });

  it.each([
    { status: 204, method: "GET" },
    { status: 304, method: "GET" },
    { status: 200, method: "head" },
  ])("gives a null body for $status to $method", async ({ status, method }) => {
    handler = (_req, res) => void res.writeHead(status, { "content-length": "5" }).end();
    const response = await httpFetch(`${base}/empty`, { method });
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe("");
  });
});

describe("abort and failures", () => {
  // As undici does, every abort rejects with the signal's reason: the SDK ends a stream quietly on an AbortError.
  it("rejects with the AbortError and sends nothing when the signal is already aborted", async () => {
    const signal = AbortSignal.abort();
    const error = await rejection(httpFetch(`${base}/never`, { signal }));
    expect(error.name).toBe("AbortError");
    expect(error).toBe(signal.reason);
    await new Promise((r) => setTimeout(r, 20));
    expect(connections).toBe(0);
    expect(seen).toEqual([]);
  });

  it("rejects with the AbortError when aborted while waiting for headers, and drops the connection", async () => {
    const arrived = deferred();
    const dropped = deferred();
    handler = (_req, res) => {
      res.on("close", dropped.resolve);
      arrived.resolve();
    };
    const controller = new AbortController();
    const pending = httpFetch(`${base}/hang`, { method: "POST", body: "{}", signal: controller.signal });
    await arrived.promise;
    controller.abort();
    expect(await rejection(pending)).toBe(controller.signal.reason);
    await dropped.promise;
  }, 3_000);

  // The first event, then nothing: a gzip prefix is flushed so it decodes in full but does not end.
  const firstEvent = "event: ping\n\n";
  const encodings = [
    { encoding: "identity", first: Buffer.from(firstEvent) },
    { encoding: "gzip", first: gzipSync(firstEvent, { finishFlush: constants.Z_SYNC_FLUSH }) },
  ];
  async function readFirstEvent(response: Response): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(Buffer.from((await reader.read()).value ?? []).toString()).toBe(firstEvent);
    return reader;
  }
  async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    while (!(await reader.read()).done) {}
  }

  // How a response left open after its first event ends, with what the body read then gives.
  const endings = [
    { ending: "the caller aborts", expect: "the abort reason" },
    { ending: "the server cuts the socket", expect: "an error" },
    { ending: "the caller cancels the body", expect: "a closed connection" },
  ] as const;
  it.each(endings.flatMap((row) => encodings.map((enc) => ({ ...row, ...enc }))))(
    "when $ending mid-body ($encoding), the body read gives $expect",
    async ({ ending, encoding, first }) => {
      const firstRead = deferred();
      const dropped = deferred();
      handler = async (_req, res) => {
        res.on("close", dropped.resolve);
        res
          .writeHead(200, { "content-type": "text/event-stream", "content-encoding": encoding })
          .write(first);
        await firstRead.promise;
        if (ending === "the server cuts the socket") res.socket?.destroy();
      };
      const controller = new AbortController();
      const reader = await readFirstEvent(await httpFetch(`${base}/mid`, { signal: controller.signal }));
      if (ending === "the caller aborts") controller.abort();
      if (ending === "the caller cancels the body") await reader.cancel();
      firstRead.resolve();
      if (ending !== "the caller cancels the body") {
        const error = await rejection(drain(reader));
        if (ending === "the caller aborts") expect(error).toBe(controller.signal.reason);
      }
      await dropped.promise;
    },
    3_000,
  );

  it("rejects a refused connection with TypeError 'fetch failed' and the socket error as cause", async () => {
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejection(httpFetch(`http://127.0.0.1:${port}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("fetch failed");
    expect(error.cause).toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("fallback", () => {
  const url = "http://127.0.0.1:1/";
  it.each<[string, Parameters<Fetch>[0], RequestInit]>([
    ["a Request object", new Request(url), {}],
    ["a ReadableStream body", url, { method: "POST", body: new ReadableStream(), duplex: "half" }],
    ["a URLSearchParams body", url, { method: "POST", body: new URLSearchParams("a=1") }],
    ["a FormData body", url, { method: "POST", body: new FormData() }],
    ["a Blob body", url, { method: "POST", body: new Blob(["x"]) }],
    ["a data: URL", "data:text/plain,hi", {}],
    ["a file: URL", new URL("file:///etc/hostname"), { method: "GET" }],
  ])("hands %s to the fallback with the same arguments", async (_name, input, init) => {
    const reply = new Response("from fallback");
    const calls: Parameters<Fetch>[] = [];
    const fetch = createHttpFetch(async (...args) => {
      calls.push(args);
      return reply;
    });
    expect(await fetch(input, init)).toBe(reply);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toBe(input);
    expect(calls[0]?.[1]).toBe(init);
  });
});

describe("through the SDK", () => {
  it("streams a message to completion", async () => {
    const model = await startTestModel([textTurn("Streamed over node:http, all the way.")]);
    try {
      const options = { baseURL: model.server.url, apiKey: TEST_API_KEY, fetch: httpFetch, maxRetries: 0 };
      const messages = [{ role: "user" as const, content: "hi" }];
      const stream = new MessagesClient(options).messages.stream({
        model: "sonnet",
        max_tokens: 64,
        messages,
      });
      const deltas: string[] = [];
      stream.on("text", (delta) => deltas.push(delta));
      const message = await stream.finalMessage();
      expect(message.content).toEqual([{ type: "text", text: "Streamed over node:http, all the way." }]);
      expect(message.stop_reason).toBe("end_turn");
      expect(deltas.length).toBeGreaterThan(1);
      expect(model.server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TEST_API_KEY}`]);
    } finally {
      await model.close();
    }
  });
});
