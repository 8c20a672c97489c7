import type Anthropic from "@anthropic-ai/sdk";
import { createServeApp } from "../../src/serve/http/app.js";
import type { ReadWebAsset } from "../../src/serve/http/env.js";
import { createSessionRunner, type SessionRunnerOptions } from "../../src/serve/sessions/runner.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { listenInProcess, sdkClient } from "../serve/serve-process.js";
import { freshPgliteDriver } from "./pglite-template.js";

/** A served app in this process: its store, its runner, where it listens, and SDK clients for its keys. */
export interface ServedApp {
  store: Store;
  runner: ReturnType<typeof createSessionRunner>;
  url: string;
  /** The official SDK client with API key `key` (default: the first of `keys`). */
  client(key?: string): Anthropic;
  /** Stops listening, closes the runner, and closes the store when it was opened here. */
  close(): Promise<void>;
}

/** What {@link startServedApp} sets up; everything is optional. */
export interface ServedAppOptions {
  /** The store to serve; absent: an in-memory PGlite store, closed with the app. */
  store?: Store;
  /** API keys by workspace name (each workspace is created). Default `{ default: "k" }`. */
  keys?: Record<string, string>;
  /** The runner's options besides the store (the model client, host tools, turn locks, ...). */
  runner?: Omit<SessionRunnerOptions, "store">;
  /** Serves the web page from these files. */
  readWebAsset?: ReadWebAsset;
}

/**
 * The set-up the in-process serve tests share: a store (real PGlite unless given), API keys, a session runner
 * and the HTTP app over them, listening on a free port.
 */
export async function startServedApp(options: ServedAppOptions = {}): Promise<ServedApp> {
  const store = options.store ?? (await createStore(await freshPgliteDriver()));
  const keys = options.keys ?? { default: "k" };
  for (const [workspace, key] of Object.entries(keys)) {
    await addApiKey(store.db, await ensureWorkspace(store.db, workspace), key);
  }
  const runner = createSessionRunner({ ...options.runner, store });
  const app = createServeApp({
    store,
    runner,
    ...(options.readWebAsset === undefined ? {} : { readWebAsset: options.readWebAsset }),
  });
  const { url, close } = await listenInProcess(app);
  const firstKey = Object.values(keys)[0] ?? "k";
  return {
    store,
    runner,
    url,
    client: (key = firstKey) => sdkClient(url, key),
    async close() {
      await close();
      await runner.close();
      if (options.store === undefined) await store.close();
    },
  };
}
