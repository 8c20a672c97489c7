import type { AgentEvent } from "../../src/agent/events.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { createEngine, type Engine } from "../../src/engine.js";
import type { AskPermission } from "../../src/permissions/decision.js";
import { type OpenedSession, type OpenSessionOptions, openSession } from "../../src/session/open.js";
import { INIT_COMMAND_DESCRIPTION } from "../../src/skill-tool/builtin-commands.js";
import { startTestModel, type TestModel } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

/** The listing entry of the built-in `init` command, last in every session's first listing (SPEC §14.6). */
export const INIT_ENTRY = `- init: ${INIT_COMMAND_DESCRIPTION}`;

/** A fixed clock for every session test: 2025-06-01T12:00:00Z. */
export const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

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

/** One end-to-end session over a real temp tree, a real engine and the scripted model server. */
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
  /** The bodies of every `/v1/messages` request so far, in order. */
  bodies(): RequestBody[];
  /** The body of the `index`-th `/v1/messages` request; throws when there is none. */
  body(index: number): RequestBody;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Tree entries; `project/…` is the cwd (a git root), `home/…` the home dir. */
  files?: Record<string, TreeEntry>;
  turns: ScriptTurnInput[];
  env?: Record<string, string>;
  askPermission?: AskPermission;
  session?: Partial<OpenSessionOptions>;
}

/**
 * Builds `tmpTree(files)` with `project/.git` and `home/`, an engine over it (managed dir pointed inside the
 * tree so the machine's `/etc/skillwright` never leaks in), the scripted model, and an opened session with a
 * fixed clock and the default file stores under the temp home.
 */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const tree = await tmpTree({ "project/.git": { dir: true }, "home/.keep": "", ...options.files });
  const cwd = tree.path("project");
  const home = tree.path("home");
  const engine = createEngine({
    cwd,
    home,
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed"), ...options.env },
  });
  const model = await startTestModel(options.turns);
  let opened: OpenedSession;
  try {
    opened = await openSession(engine, {
      client: model.client,
      now: () => FIXED_NOW,
      ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
      ...options.session,
    });
  } catch (error) {
    await model.close();
    await tree.cleanup();
    throw error;
  }
  const bodies = () =>
    model.server.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body as RequestBody);
  return {
    tree,
    cwd,
    home,
    engine,
    model,
    opened,
    async send(prompt) {
      const events: AgentEvent[] = [];
      for await (const event of opened.session.send(prompt)) events.push(event);
      return events;
    },
    bodies,
    body(index) {
      const found = bodies()[index];
      if (found === undefined) throw new Error(`no request #${index} (${bodies().length} made)`);
      return found;
    },
    async close() {
      await model.close();
      await tree.cleanup();
    },
  };
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

/** The text of a tool_result block (string or text blocks joined). */
export function resultText(block: BodyBlock): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((b) => b.text ?? "").join("");
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
