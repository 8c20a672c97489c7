import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { AgentEvent, AgentResult } from "../../src/agent/events.js";
import { AGENT_ID_HEADER, type ModelToolResultBlock } from "../../src/agent/model-client.js";
import type { TranscriptEntry } from "../../src/agent/session-store.js";
import type { RecordedRequest } from "../../src/dev/model-server.js";
import { createEngine } from "../../src/engine.js";
import { type OpenedSession, type OpenSessionOptions, openSession } from "../../src/session/open.js";
import type { TestModel } from "../support/model-server.js";
import type { TmpTree } from "../support/tmp-tree.js";

/** The tree-relative dirs every session test uses: the project (a git repo) and the home dir. */
export const REPO = "repo";
export const HOME = "home";

/** Opens a real session (engine, built-in tools, file transcript store) on `tree`, talking to `model`. */
export async function openTestSession(
  tree: TmpTree,
  model: TestModel,
  options: Partial<OpenSessionOptions> = {},
): Promise<OpenedSession> {
  const engine = createEngine({
    cwd: tree.path(REPO),
    home: tree.path(HOME),
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
  });
  return openSession(engine, { client: model.client, ...options });
}

/** Runs one user turn to its end, collecting every event; `onEvent` sees each as it comes. */
export async function sendAll(
  opened: OpenedSession,
  prompt: string,
  options: { signal?: AbortSignal; onEvent?: (event: AgentEvent) => void | Promise<void> } = {},
): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const events: AgentEvent[] = [];
  let result: AgentResult | undefined;
  const sendOptions = options.signal === undefined ? {} : { signal: options.signal };
  for await (const event of opened.session.send(prompt, sendOptions)) {
    events.push(event);
    await options.onEvent?.(event);
    if (event.type === "done" && event.agentId === undefined) result = event.result;
  }
  expect(result, `no done event; events: ${events.map((e) => e.type).join(", ")}`).toBeDefined();
  return { events, result: result as AgentResult };
}

/** The session's JSONL transcript under the temp home, parsed line by line. */
export async function transcript(tree: TmpTree, sessionId: string): Promise<TranscriptEntry[]> {
  const text = await readFile(transcriptPath(tree, sessionId), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

/** Where the file store keeps a session under the temp home. */
export function transcriptPath(tree: TmpTree, sessionId: string): string {
  return join(tree.path(HOME), ".skillwright", "sessions", `${sessionId}.jsonl`);
}

/** A recorded request body in the shape these tests read. */
export interface RequestBody {
  model: string;
  system?: { type: string; text: string }[];
  tools?: { name: string }[];
  messages: {
    role: string;
    content: string | Array<{ type: string; text?: string; [k: string]: unknown }>;
  }[];
}

export function bodyOf(request: RecordedRequest | undefined): RequestBody {
  expect(request).toBeDefined();
  return request?.body as RequestBody;
}

/** Requests from the main agent (no agent-id header) and from sub-agents. */
export function mainRequests(model: TestModel): RecordedRequest[] {
  return model.server.requests.filter((r) => r.headers[AGENT_ID_HEADER] === undefined);
}

export function forkRequests(model: TestModel): RecordedRequest[] {
  return model.server.requests.filter((r) => r.headers[AGENT_ID_HEADER] !== undefined);
}

/** The tool_result blocks of a request's newest user message. */
export function toolResultsOf(request: RecordedRequest | undefined): ModelToolResultBlock[] {
  const last = bodyOf(request).messages.at(-1);
  if (last === undefined || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result") as unknown as ModelToolResultBlock[];
}

/** The text of a tool_result block. */
export function resultText(block: ModelToolResultBlock | undefined): string {
  if (block === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** Texts of the text blocks of a request's first message. */
export function firstMessageTexts(request: RecordedRequest | undefined): string[] {
  const first = bodyOf(request).messages[0];
  if (first === undefined) return [];
  if (typeof first.content === "string") return [first.content];
  return first.content.filter((b) => b.type === "text").map((b) => b.text ?? "");
}
