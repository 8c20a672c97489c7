import type { Middleware } from "@anthropic-ai/sdk";
import { collectMessage } from "./collect-message.js";
import type { Fetch } from "./http-fetch.js";
import { ModelError, type Sdk, toModelError } from "./model-error.js";
import {
  AGENT_ID_HEADER,
  type AssistantMessage,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelStreamOptions,
} from "./model-types.js";
import { buildRequestBody } from "./request-body.js";

/** How many times the SDK retries a failed request (429, 5xx, 529, connection errors) by default. */
export const DEFAULT_MAX_RETRIES = 2;

/** Calls the model. One implementation wraps `@anthropic-ai/sdk`; tests point it at the scripted server. */
export interface ModelClient {
  /**
   * Streams one response and resolves with the complete message. Rejects with {@link ModelError} (never
   * with a half message): on an HTTP error after the SDK's retries, an abort, a stream that ends before
   * `message_stop`, or an `error` event inside the stream.
   */
  stream(request: ModelRequest, options: ModelStreamOptions): Promise<AssistantMessage>;
}

/** Options of {@link createModelClient}; all optional. Unset credentials and URL come from `env`, as the SDK's. */
export interface ModelClientOptions {
  /** Sent as the API key. Default: `ANTHROPIC_API_KEY` of `env`. */
  apiKey?: string;
  /** A bearer token instead of an API key. Default: `ANTHROPIC_AUTH_TOKEN` of `env`. */
  authToken?: string;
  /** Default: `ANTHROPIC_BASE_URL` of `env`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /**
   * Where unset options are read from, as the official SDK reads them (`ANTHROPIC_API_KEY`,
   * `ANTHROPIC_AUTH_TOKEN`, `ANTHROPIC_BASE_URL`). Default `process.env`; pass `{}` to read nothing.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Retries for 408/409/429/5xx/529 and connection errors, honouring `retry-after`. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in ms (SDK default: 10 minutes). */
  timeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /**
   * How requests go out. Default: a small fetch over node:http(s) (see `http-fetch.ts`), which starts ~35 ms
   * faster than Node's built-in fetch; pass `globalThis.fetch` (or a proxying fetch) to use another.
   */
  fetch?: Fetch;
  /**
   * Start loading the SDK now, in the background, instead of at the first call: for hosts that will call the
   * model soon and have other start-up work (discovery) to overlap it with. Errors surface at the first call.
   */
  preload?: boolean;
}

/** Where requests go when no `baseURL` is given. */
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * A {@link ModelClient} over the real `@anthropic-ai/sdk`, loaded on the first call (so start-up stays fast)
 * and reused afterwards. Retries are the SDK's own (`maxRetries`, honouring `retry-after`); each one is
 * reported as a `retry` event. The `x-skillwright-agent-id` header is sent only when `agentId` is given.
 * Unset credentials and base URL are read from `env` (default `process.env`) as the official SDK reads them. A
 * base URL of its own is enough on its own (a local gateway answers without a key: no auth header is sent); the
 * public API without `apiKey` or `authToken` makes `stream` reject with an `auth` error before any request.
 */
export function createModelClient(options: ModelClientOptions = {}): ModelClient {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? (env.ANTHROPIC_API_KEY || undefined);
  const authToken = options.authToken ?? (env.ANTHROPIC_AUTH_TOKEN || undefined);
  const baseURL = options.baseURL ?? (env.ANTHROPIC_BASE_URL || DEFAULT_BASE_URL);
  const keyless = apiKey === undefined && authToken === undefined;
  let loaded: Promise<{ sdk: Sdk; client: InstanceType<Sdk["MessagesClient"]> }> | undefined;
  const load = () => {
    loaded ??= import("./sdk.js").then((sdk) => ({
      sdk,
      client: sdk.createMessagesClient({
        apiKey: apiKey ?? null,
        authToken: apiKey === undefined ? (authToken ?? null) : null,
        baseURL,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
        // Keyless (a gateway of one's own): the SDK sends no auth header when told it is left out on purpose.
        ...(options.defaultHeaders === undefined && !keyless
          ? {}
          : { defaultHeaders: { ...options.defaultHeaders, ...(keyless ? { authorization: null } : {}) } }),
      }),
    }));
    return loaded;
  };
  if (options.preload === true) load().catch(() => undefined);

  return {
    async stream(request, { signal, agentId, onEvent }) {
      if (keyless && baseURL === DEFAULT_BASE_URL) {
        throw new ModelError(
          "auth",
          "No model credentials: set ANTHROPIC_API_KEY (or pass apiKey), or ANTHROPIC_BASE_URL for a gateway of your own.",
        );
      }
      const { sdk, client } = await load();
      let attempts = 0;
      let streaming = false;
      const progress = { events: 0 };
      let callbackError: unknown;
      const emit = (event: ModelStreamEvent): void => {
        try {
          onEvent?.(event);
        } catch (error) {
          callbackError = error;
          throw error;
        }
      };
      const countAttempts: Middleware = async (req, next) => {
        attempts += 1;
        if (attempts > 1) emit({ type: "retry", attempt: attempts - 1 });
        return next(req);
      };
      try {
        const events = await client.messages.create(buildRequestBody(request), {
          signal,
          middleware: [countAttempts],
          ...(agentId === undefined ? {} : { headers: { [AGENT_ID_HEADER]: agentId } }),
        });
        streaming = true;
        return await collectMessage(events, signal, emit, progress);
      } catch (error) {
        if (callbackError !== undefined && error === callbackError) throw error;
        throw toModelError(error, sdk.SDK_ERRORS, {
          signal,
          attempts,
          streaming,
          baseURL,
          events: progress.events,
        });
      }
    },
  };
}
