import {
  createModelClient,
  type ModelClient,
  type ModelClientOptions,
} from "../../src/agent/model-client.js";
import type { ScriptMatch, ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, type ModelServerOptions, startModelServer } from "../../src/dev/model-server.js";

/** The key the test server demands and the test client sends. */
export const TEST_API_KEY = "sk-ant-test-key";

/** A scripted server plus a real-SDK client pointed at it. Call `close()` in `afterEach`. */
export interface TestModel {
  server: ModelServer;
  client: ModelClient;
  close(): Promise<void>;
}

/**
 * Starts the scripted Messages API server with `turns` and a {@link ModelClient} over the real SDK aimed at
 * it. Retries default to 2 as in production; keep scripted waits tiny (`retryAfterMs: 1`).
 */
export async function startTestModel(
  turns: ScriptTurnInput[],
  options: { server?: Omit<ModelServerOptions, "script">; client?: ModelClientOptions } = {},
): Promise<TestModel> {
  const server = await startModelServer({ apiKey: TEST_API_KEY, ...options.server, script: { turns } });
  const client = createModelClient({ apiKey: TEST_API_KEY, baseURL: server.url, ...options.client });
  return { server, client, close: () => server.close() };
}

/** A turn that answers with text. */
export function textTurn(text: string, match?: ScriptMatch): ScriptTurnInput {
  return { ...(match === undefined ? {} : { match }), response: { content: [{ type: "text", text }] } };
}

/** A turn that calls one tool (optionally after some text). */
export function toolTurn(
  name: string,
  input: Record<string, unknown>,
  options: { id?: string; text?: string; match?: ScriptMatch } = {},
): ScriptTurnInput {
  const call = {
    type: "tool_use" as const,
    name,
    input,
    ...(options.id === undefined ? {} : { id: options.id }),
  };
  const content = options.text === undefined ? [call] : [{ type: "text" as const, text: options.text }, call];
  return { ...(options.match === undefined ? {} : { match: options.match }), response: { content } };
}

/** A turn that fails with an HTTP status, asking for a 1 ms retry wait. */
export function httpFaultTurn(status: number, match?: ScriptMatch): ScriptTurnInput {
  return { ...(match === undefined ? {} : { match }), fault: { kind: "http", status, retryAfterMs: 1 } };
}
