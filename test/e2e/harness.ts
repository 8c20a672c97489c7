import { fileURLToPath } from "node:url";
import type { AgentEvent } from "../../src/agent/events.js";
import { AGENT_ID_HEADER } from "../../src/agent/model-client.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RecordedRequest } from "../../src/dev/model-server.js";
import { createEngine, type Engine, type EngineOptions } from "../../src/engine.js";
import { type OpenedSession, type OpenSessionOptions, openSession } from "../../src/session/open.js";
import type { RequestBody } from "../session/harness.js";
import { startTestModel, type TestModel } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

export {
  type BodyBlock,
  FIXED_NOW,
  INIT_ENTRY,
  lastUser,
  plainBlocks,
  type RequestBody,
  resultText,
  skillMd,
  textBlocks,
  toolResults,
} from "../session/harness.js";

/** The shipped example plugins (plugins/ at the package root). */
export const PLUGINS_DIR = fileURLToPath(new URL("../../plugins", import.meta.url));
/** The header of the full listing and of listing deltas (SPEC §3). */
export const LISTING_HEADER = "The following skills are available for use with the Skill tool:";

/** A listing block (SPEC §3) holding exactly `entries`, byte-exact. */
export function listingBlock(...entries: string[]): string {
  return ["<system-reminder>", LISTING_HEADER, "", ...entries, "</system-reminder>"].join("\n");
}

/** One end-to-end session: a real temp tree, engine (plugins, MCP), scripted model and an opened session. */
export interface E2E {
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
  /** Bodies of the main agent's `/v1/messages` requests, in order. */
  bodies(): RequestBody[];
  /** The `index`-th main-agent body; throws when there is none. */
  body(index: number): RequestBody;
  /** Requests made by sub-agents (with the agent-id header). */
  forkRequests(): RecordedRequest[];
  /** Closes the engine (MCP servers), the model server and removes the tree. Idempotent. */
  close(): Promise<void>;
}

export interface E2EOptions {
  /** Tree entries; `project/…` is the cwd (a git root), `home/…` the home dir. */
  files?: Record<string, TreeEntry>;
  turns: ScriptTurnInput[];
  /** The engine's environment (PATH is always passed, for `node` in plugin configs). */
  env?: Record<string, string>;
  /** Engine options beyond cwd/home/env; `pluginDirs` and `mcpConfigs` may use `{tree}` for the tree root. */
  engine?: Omit<EngineOptions, "cwd" | "home" | "env">;
  session?: Partial<OpenSessionOptions>;
}

/**
 * Builds `tmpTree(files)` with `project/.git` and `home/`, an engine over it (managed dir inside the tree,
 * PATH in its env), the scripted model and an opened session. On a failure while opening everything started
 * so far is closed again.
 */
export async function startE2E(options: E2EOptions): Promise<E2E> {
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
      openSession(engine, { client: started.client, ...options.session, ...extra });
    const opened = await open({});
    const main = () =>
      started.server.requests.filter(
        (r) => r.path === "/v1/messages" && r.headers[AGENT_ID_HEADER] === undefined,
      );
    const bodies = () => main().map((r) => r.body as RequestBody);
    return {
      tree,
      cwd,
      home,
      engine,
      model: started,
      opened,
      async send(prompt) {
        const events: AgentEvent[] = [];
        for await (const event of opened.session.send(prompt)) events.push(event);
        return events;
      },
      reopen: open,
      bodies,
      body(index) {
        const found = bodies()[index];
        if (found === undefined) throw new Error(`no request #${index} (${bodies().length} made)`);
        return found;
      },
      forkRequests: () =>
        started.server.requests.filter(
          (r) => r.path === "/v1/messages" && r.headers[AGENT_ID_HEADER] !== undefined,
        ),
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
