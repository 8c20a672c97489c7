import type Anthropic from "@anthropic-ai/sdk";
import { createModelClient } from "../../src/agent/model-client.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { createServeApp } from "../../src/serve/http/app.js";
import type { ReadWebAsset } from "../../src/serve/http/env.js";
import type { PriceTable } from "../../src/serve/price-table.js";
import { createSessionRunner, type SessionRunnerOptions } from "../../src/serve/sessions/runner.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { listenInProcess, sdkClient } from "../serve/serve-process.js";
import { TEST_API_KEY } from "./model-server.js";
import { freshPgliteDriver } from "./pglite-template.js";

/** A served app in this process: its store, its runner, where it listens, and SDK clients for its keys. */
export interface ServedApp {
  store: Store;
  runner: ReturnType<typeof createSessionRunner>;
  url: string;
  /** The scripted model server the sessions talk to, when `modelTurns` were given. */
  model?: ModelServer;
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
  /** The operator's price table (`serve --prices`). */
  prices?: PriceTable;
  /** Serves the web page from these files. */
  readWebAsset?: ReadWebAsset;
  /**
   * Starts a scripted model server with these turns, and the runner's model client talks to it (over the
   * runner's other options); it is closed with the app.
   */
  modelTurns?: ScriptTurnInput[];
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
  const model =
    options.modelTurns === undefined
      ? undefined
      : await startModelServer({ apiKey: TEST_API_KEY, script: { turns: options.modelTurns } });
  const runner = createSessionRunner({
    ...options.runner,
    ...(model === undefined
      ? {}
      : { client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }) }),
    store,
  });
  const app = createServeApp({
    store,
    runner,
    ...(options.readWebAsset === undefined ? {} : { readWebAsset: options.readWebAsset }),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
  });
  const { url, close } = await listenInProcess(app);
  const firstKey = Object.values(keys)[0] ?? "k";
  return {
    store,
    runner,
    url,
    ...(model === undefined ? {} : { model }),
    client: (key = firstKey) => sdkClient(url, key),
    async close() {
      await close();
      await runner.close();
      await model?.close();
      if (options.store === undefined) await store.close();
    },
  };
}
