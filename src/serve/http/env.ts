import type { SandboxTier } from "../../sandbox/sandbox.js";
import type { MessagesDeps } from "../messages/create-message.js";
import type { PriceTable } from "../price-table.js";
import type { SessionRunner } from "../session-runner.js";
import type { Store } from "../store/store.js";
import type { ApiKeyCache } from "./api-key-cache.js";

/**
 * Reads one of the web page's files by its path under src/serve/web/ (`index.html`, `app.js`, `style.css`,
 * `vendor/marked.js`, …).
 */
export type ReadWebAsset = (name: string) => Promise<string>;

/** The Hono environment of every route: the caller's workspace and key, set by the auth middleware. */
export interface ServeEnv {
  Variables: {
    workspaceId: string;
    /** The id of the request's API key (a prefix of its hash, as `keys list` shows it): who wrote a memory. */
    apiKeyId: string;
    /** The request's id (`req_…`): its `request-id` header, its access log line, its error body's `request_id`. */
    requestId: string;
  };
}

/** What the routes work with: the store, and the session runner when events are served. */
export interface ServeDeps {
  store: Store;
  runner?: SessionRunner;
  /** What `POST /v1/messages` runs with (the upstream model, the containers' tier and limits); absent: a 503. */
  messages?: MessagesDeps;
  /** Finds each request's workspace by its API key; absent: a cache over the store with the default TTL. */
  apiKeys?: ApiKeyCache;
  /**
   * Where served sessions run code (`host` with `--host-tools`, else `serve --sandbox`'s tier); only under
   * `none` do skill versions list what will not run. Default serve's (`DEFAULT_SERVE_SANDBOX`).
   */
  sandboxTier?: SandboxTier;
  /** The key that may administer keys (`/v1/skillwright/keys`): serve's own `--api-key`; absent: none may. */
  operatorKey?: string;
  /** Reads the web page's files; absent: no page at `/`. */
  readWebAsset?: ReadWebAsset;
  /** The operator's prices (`serve --prices FILE`); absent: the page shows tokens and no cost. */
  prices?: PriceTable;
  /** Where each request's access log line goes (`serve`: stderr); absent: nowhere (the id is still sent). */
  accessLog?: (line: string) => void;
}
