import { resolve } from "node:path";
import {
  Client,
  type FetchLike,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { assertNever } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import type { McpServerConfig } from "./config-schema.js";
import type { EnvVars } from "./expand-env.js";
import { createStdioTransport, type ProcessExit, type StdioTransport } from "./stdio-transport.js";
import { keepWasmAtBaseline } from "./wasm-tiering.js";

/** What we tell servers about ourselves in `initialize`. */
export interface McpClientInfo {
  name: string;
  version: string;
}

/** A server that answered `initialize`. */
export interface ConnectedServer {
  name: string;
  client: Client;
  transport: Transport;
  /** The stdio child's pid; undefined for HTTP servers. */
  pid: number | undefined;
  /** Stops the connection and, for stdio, the server's process group. Never rejects. */
  close(): Promise<void>;
  /** Why the connection ended, when it ended on its own (a crash); undefined while it is up. */
  lostReason(): string | undefined;
  /** The protocol version `initialize` settled on. */
  protocolVersion(): string | undefined;
}

export type ConnectOutcome = { ok: true; server: ConnectedServer } | { ok: false; reason: string };

/** What `connectServer` needs. `env` is the host's environment (stdio children get it plus `config.env`). */
export interface ConnectOptions {
  name: string;
  config: McpServerConfig;
  env: EnvVars;
  cwd: string;
  timeoutMs: number;
  clientInfo: McpClientInfo;
  signal?: AbortSignal;
  /** Called once when an established connection ends without `close()` (the server crashed or hung up). */
  onLost?: (reason: string) => void;
  /**
   * The `fetch` HTTP and SSE servers are reached with (default: the global one). `serve` passes one that refuses
   * private addresses (SSRF guard).
   */
  fetch?: FetchLike;
}

function stringEnv(env: EnvVars): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function createTransport(options: ConnectOptions): Transport | StdioTransport {
  const { config } = options;
  switch (config.type) {
    case undefined:
    case "stdio":
      return createStdioTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...stringEnv(options.env), ...config.env },
        cwd: resolve(options.cwd, config.cwd ?? "."),
      });
    case "http":
      keepWasmAtBaseline();
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers ?? {} },
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      });
    case "sse":
      keepWasmAtBaseline();
      return new SSEClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers ?? {} },
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      });
    default:
      return assertNever(config);
  }
}

function isStdio(transport: Transport): transport is StdioTransport {
  return "terminate" in transport && typeof transport.terminate === "function";
}

/** `exited with code 1`, `was killed by SIGTERM`, or the spawn error; then the end of stderr, if any. Pure. */
export function describeExit(exit: ProcessExit, stderrTail: string): string {
  const how =
    exit.error !== undefined
      ? exit.error
      : exit.signal !== undefined
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code ?? "unknown"}`;
  const tail = stderrTail.trim();
  return tail === "" ? how : `${how}; stderr: ${tail}`;
}

async function quietly(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch {
    // Cleanup of a connection that is already broken.
  }
}

/**
 * Starts (stdio) or reaches (HTTP) one server and runs `initialize`, giving up after `timeoutMs`. Never
 * rejects: a command that cannot start, a server that exits or answers with an error, a timeout and an abort
 * all become `{ ok: false, reason }`, and whatever was started is stopped before this returns.
 */
export async function connectServer(options: ConnectOptions): Promise<ConnectOutcome> {
  let transport: Transport | StdioTransport;
  try {
    transport = createTransport(options);
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
  // `auto`: offer the newest protocol (2026-07-28, `server/discover`) and fall back to `initialize` for older
  // servers, so a server that declares the MCP Skills extension only on the newer protocol is seen with it.
  const client = new Client(
    { name: options.clientInfo.name, version: options.clientInfo.version },
    { capabilities: {}, versionNegotiation: { mode: "auto" } },
  );
  const stdio = isStdio(transport) ? transport : undefined;
  const stop = () => (stdio === undefined ? quietly(() => client.close()) : quietly(() => stdio.terminate()));

  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const cutOff = new Promise<string>((resolveCut) => {
    timer = setTimeout(
      () => resolveCut(`no answer to initialize within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    onAbort = () => resolveCut("aborted");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  const connecting = client.connect(transport, { timeout: options.timeoutMs }).then(
    () => undefined,
    (error: unknown) => {
      const exit = stdio?.exit();
      if (exit !== undefined) return describeExit(exit, stdio?.stderrTail() ?? "");
      const message = errorMessage(error);
      const tail = stdio?.stderrTail().trim() ?? "";
      return tail === "" ? message : `${message}; stderr: ${tail}`;
    },
  );
  const failure = await Promise.race([connecting, cutOff]);
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  if (failure !== undefined) {
    await stop();
    return { ok: false, reason: failure };
  }

  let closing = false;
  let lost: string | undefined;
  const previous = client.onclose;
  client.onclose = () => {
    previous?.();
    if (closing) return;
    const exit = stdio?.exit();
    if (lost !== undefined) return;
    lost = exit === undefined ? "the connection closed" : describeExit(exit, stdio?.stderrTail() ?? "");
    options.onLost?.(lost);
  };
  return {
    ok: true,
    server: {
      name: options.name,
      client,
      transport,
      pid: stdio?.pid,
      lostReason: () => lost,
      protocolVersion: () => client.getNegotiatedProtocolVersion(),
      async close() {
        closing = true;
        await quietly(() => client.close());
        if (stdio !== undefined) await quietly(() => stdio.terminate());
      },
    },
  };
}
