/**
 * `skillwright/testing`: helpers for testing a host of skillwright without the real API. The scripted Messages
 * API server speaks the wire protocol the real `@anthropic-ai/sdk` expects, so a test drives the real client
 * (`createModelClient({ baseURL: server.url })`) through turns it scripts. Not part of the main entry.
 */

export {
  loadScript,
  ModelScript,
  type ModelScriptInput,
  parseScript,
  type ScriptContentBlock,
  type ScriptFault,
  type ScriptMatch,
  type ScriptResponse,
  type ScriptTurn,
  type ScriptTurnInput,
} from "./dev/model-script.js";
export {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  startModelServer,
} from "./dev/model-server.js";
