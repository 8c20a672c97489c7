// The one harness of the session-level tests (test/session, test/e2e, test/audit, …): a real temp tree, a real
// engine (plugins, MCP), the scripted model server driven by the real SDK, and an opened session; plus readers for
// the request bodies the model server recorded.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { AgentEvent, AgentResult } from "../../src/agent/events.js";
import { AGENT_ID_HEADER, type ModelToolResultBlock } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RecordedRequest } from "../../src/dev/model-server.js";
import { createEngine, type Engine, type EngineOptions } from "../../src/engine/engine.js";
import { createNodeShell } from "../../src/io/shell.js";
import type { AskPermission } from "../../src/permissions/decision.js";
import { openSession } from "../../src/session/open.js";
import type { OpenedSession, OpenSessionOptions } from "../../src/session/open-options.js";
import type { TranscriptEntry } from "../../src/session/transcript-store.js";
import { INIT_COMMAND_DESCRIPTION } from "../../src/skill-tool/builtin-commands.js";
import { startTestModel, type TestModel } from "./model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "./tmp-tree.js";

/** The shipped example plugins (plugins/ at the package root). */
export const PLUGINS_DIR = fileURLToPath(new URL("../../plugins", import.meta.url));

/** The listing entry of the built-in `init` command, last in every session's first listing (SPEC §14.6). */
export const INIT_ENTRY = `- init: ${INIT_COMMAND_DESCRIPTION}`;

/** A fixed clock for every session test: 2025-06-01T12:00:00Z. */
export const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

/** The header of the full listing and of listing deltas (SPEC §3), written out: the tests pin the text. */
export const LISTING_HEADER = "The following skills are available for use with the Skill tool:";

/** A listing block (SPEC §3) holding exactly `entries`, byte-exact. */
export function listingBlock(...entries: string[]): string {
  return ["<system-reminder>", LISTING_HEADER, "", ...entries, "</system-reminder>"].join("\n");
}

/** A content block of a recorded request body (cache_control left as the SDK sent it). */
export interface BodyBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: string | Array<{ type: string; text?: string }>;
  is_error?: boolean;
  name?: string;
  input?: unknown;
  cache_control?: unknown;
}

/** A recorded `/v1/messages` body, as far as the tests look at it. */
export interface RequestBody {
  model: string;
  system?: Array<{ type: string; text: string }>;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: string | BodyBlock[] }>;
  output_config?: { effort?: string };
}

/** One end-to-end session: a real temp tree, engine (plugins, MCP), scripted model and an opened session. */
export interface Harness {
  tree: TmpTree;
  /** The project dir (a git root) and the session's cwd. */
  cwd: string;
  home: string;
  engine: Engine;
  model: TestModel;
  opened: OpenedSession;
  /** Sends a prompt and collects every event up to the end of the turn. */
  send(prompt: string): Promise<AgentEvent[]>;
  /** Opens another session on the same engine and model (e.g. `resume`). */
  reopen(options: Partial<OpenSessionOptions>): Promise<OpenedSession>;
  /** Bodies of every `/v1/messages` request so far (main agent and sub-agents), in order. */
  allBodies(): RequestBody[];
  /** Bodies of the main agent's `/v1/messages` requests, in order. */
  bodies(): RequestBody[];
  /** The `index`-th main-agent body; throws when there is none. */
  body(index: number): RequestBody;
  /** Requests made by sub-agents (with the agent-id header). */
  forkRequests(): RecordedRequest[];
  /** Closes the engine (MCP servers), the model server and removes the tree. Idempotent. */
  close(): Promise<void>;
}

/** What {@link startHarness} builds. */
export interface HarnessOptions {
  /** Tree entries; `project/…` is the cwd (a git root), `home/…` the home dir. */
  files?: Record<string, TreeEntry>;
  turns: ScriptTurnInput[];
  /** The engine's environment (PATH is always passed, for `node` in plugin configs). */
  env?: Record<string, string>;
  /** Engine options beyond cwd/home/env; `pluginDirs` and `mcpConfigs` may use `{tree}` for the tree root. */
  engine?: Omit<EngineOptions, "cwd" | "home" | "env">;
  askPermission?: AskPermission;
  /** Session options; the clock defaults to {@link FIXED_NOW}. */
  session?: Partial<OpenSessionOptions>;
}

/**
 * Builds `tmpTree(files)` with `project/.git` and `home/`, an engine over it (managed dir pointed inside the
 * tree so the machine's `/etc/skillwright` never leaks in, PATH in its env), the scripted model, and an opened
 * session with a fixed clock and the default file stores under the temp home. On a failure while opening,
 * everything started so far is closed again.
 */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const tree = await tmpTree({ "project/.git": { dir: true }, "home/.keep": "", ...options.files });
  const cwd = tree.path("project");
  const home = tree.path("home");
  const engineOptions = options.engine ?? {};
  const inTree = (values: readonly string[] | undefined) =>
    values?.map((v) => v.replaceAll("{tree}", tree.root));
  const pluginDirs = inTree(engineOptions.pluginDirs);
  const mcpConfigs = inTree(engineOptions.mcpConfigs);
  const engine = createEngine({
    ...engineOptions,
    ...(pluginDirs === undefined ? {} : { pluginDirs }),
    ...(mcpConfigs === undefined ? {} : { mcpConfigs }),
    cwd,
    home,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      ...options.env,
    },
  });
  let model: TestModel | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await engine.close();
    await model?.close();
    await tree.cleanup();
  };
  try {
    const started = await startTestModel(options.turns);
    model = started;
    const open = (extra: Partial<OpenSessionOptions>) =>
      openSession(engine, {
        client: started.client,
        shell: createNodeShell(),
        now: () => FIXED_NOW,
        ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
        ...options.session,
        ...extra,
      });
    const opened = await open({});
    const messages = () => started.server.requests.filter((r) => r.path === "/v1/messages");
    const bodies = () =>
      messages()
        .filter((r) => r.headers[AGENT_ID_HEADER] === undefined)
        .map((r) => r.body as RequestBody);
    return {
      tree,
      cwd,
      home,
      engine,
      model: started,
      opened,
      send: (prompt) => sendOn(opened, prompt),
      reopen: open,
      allBodies: () => messages().map((r) => r.body as RequestBody),
      bodies,
      body(index) {
        const found = bodies()[index];
        if (found === undefined) throw new Error(`no request #${index} (${bodies().length} made)`);
        return found;
      },
      forkRequests: () => messages().filter((r) => r.headers[AGENT_ID_HEADER] !== undefined),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Sends `prompt` on an opened session and collects its events. */
export async function sendOn(opened: OpenedSession, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of opened.session.send(prompt)) events.push(event);
  return events;
}

/** A SKILL.md text: the frontmatter lines between `---` fences, then the body. */
export function skillMd(frontmatter: string, body: string): string {
  return `---\n${frontmatter.trim()}\n---\n${body}`;
}

/** The text blocks of a message's content (a string content is one block). */
export function textBlocks(content: string | BodyBlock[]): string[] {
  if (typeof content === "string") return [content];
  return content.filter((b) => b.type === "text").map((b) => b.text ?? "");
}

/** A message's blocks without the prompt-cache marks, for byte-exact comparison. */
export function plainBlocks(content: string | BodyBlock[]): BodyBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map(({ cache_control: _cache, ...rest }) => rest);
}

/** The newest user message of a request body. */
export function lastUser(body: RequestBody): { role: string; content: string | BodyBlock[] } {
  const message = body.messages.findLast((m) => m.role === "user");
  if (message === undefined) throw new Error("request has no user message");
  return message;
}

/** The text of a tool_result block (string or text blocks joined); "" for none. */
export function resultText(
  block: { content?: string | ReadonlyArray<{ type: string; text?: string }> } | undefined,
): string {
  if (block === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
}

/** The tool_result blocks of the newest user message. */
export function toolResults(body: RequestBody): BodyBlock[] {
  const { content } = lastUser(body);
  return typeof content === "string" ? [] : content.filter((b) => b.type === "tool_result");
}

/** The `done` event's result. */
export function doneResult(events: readonly AgentEvent[]) {
  const done = events.findLast((e) => e.type === "done");
  if (done?.type !== "done") throw new Error("no done event");
  return done.result;
}

/**
 * Opens a real session (engine, built-in tools, file transcript store) on a caller's `tree` (project dir `repo`,
 * home `home`), talking to the caller's `model`: for tests that set up the tree and script themselves.
 */
export async function openTestSession(
  tree: TmpTree,
  model: TestModel,
  options: Partial<OpenSessionOptions> = {},
): Promise<OpenedSession> {
  const engine = createEngine({
    cwd: tree.path("repo"),
    home: tree.path("home"),
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
  });
  return openSession(engine, { client: model.client, shell: createNodeShell(), ...options });
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

/** The session's JSONL transcript under the temp home (`home`), parsed line by line. */
export async function transcript(tree: TmpTree, sessionId: string): Promise<TranscriptEntry[]> {
  const text = await readFile(transcriptPath(tree, sessionId), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

/** Where the file store keeps a session under the temp home (`home`). */
export function transcriptPath(tree: TmpTree, sessionId: string): string {
  return join(tree.path("home"), ".skillwright", "sessions", `${sessionId}.jsonl`);
}

/** The body of a recorded request; fails the test when there is no request. */
export function bodyOf(request: RecordedRequest | undefined): RequestBody {
  expect(request).toBeDefined();
  return request?.body as RequestBody;
}

/** The tool_result blocks of a request's newest user message. */
export function toolResultsOf(request: RecordedRequest | undefined): ModelToolResultBlock[] {
  const last = bodyOf(request).messages.at(-1);
  if (last === undefined || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result") as unknown as ModelToolResultBlock[];
}

/** Texts of the text blocks of a request's first message. */
export function firstMessageTexts(request: RecordedRequest | undefined): string[] {
  const first = bodyOf(request).messages[0];
  if (first === undefined) return [];
  return textBlocks(first.content);
}

/** Requests from the main agent (no agent-id header). */
export function mainRequests(model: TestModel): RecordedRequest[] {
  return model.server.requests.filter((r) => r.headers[AGENT_ID_HEADER] === undefined);
}

/** Requests from sub-agents (with the agent-id header). */
export function forkRequests(model: TestModel): RecordedRequest[] {
  return model.server.requests.filter((r) => r.headers[AGENT_ID_HEADER] !== undefined);
}
