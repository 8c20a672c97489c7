import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { ModelClient } from "../../agent/model-client.js";
import { createCatalog, type SkillCatalog } from "../../catalog/catalog.js";
import { createEngine } from "../../engine/engine.js";
import type { FsOps } from "../../io/fs.js";
import { createGuardedFetch, resolveWithDns } from "../../io/url-guard.js";
import type { GraderFiles } from "../../outcome/grader.js";
import type { BeforeToolRun } from "../../permissions/decision.js";
import { engineSessionHost } from "../../session/engine-host.js";
import { openSessionOn } from "../../session/open-session.js";
import type { SessionHost } from "../../session/session-host.js";
import type { Session } from "../../session/session-types.js";
import type { TranscriptStore } from "../../session/transcript-store.js";
import { skillFilterFrom } from "../../skill-filter.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import { withTelemetry } from "../../telemetry/with-telemetry.js";
import { BUILTIN_TOOL_NAMES } from "../../tools/builtin.js";
import { skillOverridesOf } from "../store/agents.js";
import type { Store } from "../store/store.js";
import type { OutEvent } from "./agent-event-map.js";
import { type AgentMcp, connectAgentMcp } from "./agent-mcp.js";
import { createUserWaits } from "./await-action.js";
import { createCustomTool } from "./custom-tool.js";
import { createDbTranscripts, type DbTranscripts } from "./db-transcripts.js";
import { environmentNetwork } from "./environment-network.js";
import type { EventWriter } from "./event-writer.js";
import { createLiveCache, type LiveCacheLimits } from "./live-cache.js";
import { createMountFs, mountsOf } from "./mount-fs.js";
import { osSessionMounts } from "./os-session-mounts.js";
import { resourceAnnouncement, resourcePrompt } from "./resource-prompt.js";
import { type ServedSandboxChoice, servedCapabilities } from "./served-capabilities.js";
import { servedSessionHost } from "./served-host.js";
import type { ServedSessionIo } from "./session-io.js";
import { storeSkillRetriever } from "./store-skill-retriever.js";
import {
  createSkillVersionCache,
  createStoreSkillSource,
  type StoreSkillSource,
} from "./store-skill-source.js";
import { createToolConfirmation, hostServedTools, type ToolConfirmation } from "./tool-confirmation.js";
import { checkTurn, latestSkillIds } from "./turn-check.js";
import type { TurnLocks } from "./turn-locks.js";

/**
 * The built-in tools a served session without `--host-tools` has, all on its own files: the file tools, and
 * Bash when it is offered (`ServedCapabilities.bashTool`). Pure.
 */
function ownTools(bashTool: boolean): readonly string[] {
  return BUILTIN_TOOL_NAMES.filter((name) => bashTool || name !== "Bash");
}

/** What a live session's callbacks reach of the turn running now. */
export interface TurnIo {
  /** The current turn's writer (custom tools and compaction notices write through it). */
  writer?: EventWriter;
  /** Where the turn's tool confirmations tell that the engine asks about a call. */
  asked?: (callId: string) => void;
  /** Awaited before each allowed call of the turn runs: resolves once its use event is stored. */
  beforeRun?: BeforeToolRun;
}

/**
 * A served session open on this instance between its turns: its catalog (over the agent's store skills), the
 * engine session holding the conversation, and what a turn checks before reusing them.
 */
export interface LiveSession {
  /** The agent snapshot the session was opened with (a different one reopens it). */
  agentKey: string;
  /**
   * The `<system-reminder>` announcing resources attached since the session began that no turn announced yet
   * ("" when none), marked announced in the database as it is taken: the turn sends it before its text.
   */
  takeAnnouncement(): Promise<string>;
  /** Releases what the session's host holds (its catalog over the store, or the engine with `--host-tools`). */
  closeHost: () => Promise<void>;
  session: Session;
  source: StoreSkillSource;
  transcripts: DbTranscripts;
  /** Names of the agent's custom tools. */
  customTools: ReadonlySet<string>;
  /** The agent's MCP servers, connected when the session was opened (closed with it). */
  mcp: AgentMcp;
  /** The tool policies of the agent's toolsets and the waits on `user.tool_confirmation`. */
  confirm: ToolConfirmation;
  /** What its callbacks reach of the turn running now. */
  io: TurnIo;
  /** The file system and working directory the session's agent works in (an outcome's grader reads them). */
  /** What an outcome's grader may read: the session's mounts; none with `--host-tools` (the host is not its). */
  files: GraderFiles | undefined;
}

/** A live session's agent snapshot and last transcript entry, as kept and as the database has them now. */
export interface LiveMark {
  agentKey: string;
  transcriptSeq: number;
}

/** Whether a live session may run the next turn: same agent, and no transcript entry written elsewhere. Pure. */
export function liveIsCurrent(kept: LiveMark, now: LiveMark): boolean {
  return kept.agentKey === now.agentKey && kept.transcriptSeq === now.transcriptSeq;
}

/** What opening served sessions needs. */
export interface LiveSessionsOptions {
  store: Store;
  io: ServedSessionIo;
  locks: TurnLocks;
  limits: LiveCacheLimits;
  /** Where sessions run code: on the host (`--host-tools`), else in `serve --sandbox`'s tier over their files. */
  sandbox: ServedSandboxChoice;
  /** `serve --sandbox-allow-host`: private or loopback hosts sandboxed commands may still reach. */
  sandboxAllowHosts: readonly string[];
  /** The file system sessions see without `--host-tools`; default each session's own over its mounts. */
  fs?: FsOps;
  /** Hosts an agent's MCP servers may be on even when they resolve to a private address. */
  mcpAllowHosts: readonly string[];
  /** How long one Grep or Glob call may run (default `TOOL_DEADLINE_MS`). */
  toolDeadlineMs?: number | undefined;
  /** Where each turn's spans and counters go; absent: nowhere. */
  telemetry?: Telemetry;
}

/** The served sessions one instance keeps open between turns, and how a turn gets one. */
export interface LiveSessions {
  /**
   * The session's live copy for a turn writing through `writer`: the one kept here when it is current (one
   * query checks), else a new one (resumed from the database when it has a transcript). The caller owns it
   * until it {@link LiveSessions.keep}s or {@link LiveSessions.close}s it.
   */
  acquire(
    ws: string,
    session: BetaManagedAgentsSession,
    client: ModelClient,
    writer: EventWriter,
  ): Promise<LiveSession>;
  /** Keeps `live` open for the session's next turn on this instance. */
  keep(sessionId: string, live: LiveSession): void;
  /** Closes `live` (its engine session, its catalog and MCP servers). */
  close(live: LiveSession): Promise<void>;
  /** Closes the session's kept copy, if any. */
  drop(sessionId: string): Promise<void>;
  /** Closes every kept session. */
  closeAll(): Promise<void>;
  /** How many sessions are kept open now. */
  size(): number;
}

/** Live sessions over `options`; every engine and session option of a served session is here. */
export function createLiveSessions(options: LiveSessionsOptions): LiveSessions {
  const { store, locks } = options;
  // Parsed skill versions, shared by every turn and session of this instance (versions are immutable).
  const skillCache = createSkillVersionCache();
  const closeLive = async (live: LiveSession): Promise<void> => {
    try {
      await live.session.close();
    } finally {
      await live.closeHost();
      await live.mcp.close();
    }
  };
  const lives = createLiveCache<LiveSession>(options.limits, closeLive);

  /**
   * Opens the session on a catalog over the agent's store skills. Its host reads no file (`servedSessionHost`);
   * with `--host-tools`, where the operator gave sessions the host, on an engine at the host tools' directory,
   * so the operator's own settings there (deny rules, hooks, agent types, prompt files) still apply.
   */
  const openLive = async (
    ws: string,
    session: BetaManagedAgentsSession,
    client: ModelClient,
    agentKey: string,
    resume: boolean,
    writer: EventWriter,
  ): Promise<LiveSession> => {
    const agent = session.agent;
    const source = createStoreSkillSource({
      db: store.db,
      skills: store.skills,
      workspaceId: ws,
      refs: agent.skills,
      cache: skillCache,
    });
    // Without --host-tools the session's file tools and commands work on its mounts and scratch space, all in
    // the database, and its commands reach the network its environment allows.
    const onHost = options.sandbox.hostTools !== undefined;
    const resources = onHost ? [] : await store.sessions.storedResources(ws, session.id);
    const environment = onHost
      ? undefined
      : await store.environments.get(ws, session.environment_id).catch(() => undefined);
    // The session's catalog, once made below: its skills' files are readable under /mnt/skills.
    const skillsOf: { catalog?: SkillCatalog } = {};
    const mounts = mountsOf(resources.map((r) => r.resource));
    const can = servedCapabilities(options.sandbox, {
      mounts: osSessionMounts(mounts),
      fs:
        options.fs ??
        createMountFs({
          workspaceId: ws,
          sessionId: session.id,
          mounts,
          content: store.mounts,
          scratch: store.scratch,
          skills: async () =>
            ((await skillsOf.catalog?.get())?.skills ?? []).flatMap((skill) => {
              const files = source.files(skill.name);
              return files === undefined ? [] : [{ name: skill.name, ...files }];
            }),
        }),
      network: environmentNetwork(environment?.config, options.sandboxAllowHosts),
    });
    const { sandbox } = can;
    const sessionTools = ownTools(can.bashTool);
    const mountsPrompt = resourcePrompt(resources.flatMap((r) => (r.atCreate ? [r.resource] : [])));
    let unannounced = resources.flatMap((r) => (r.announced === false ? [r.resource] : []));
    const takeAnnouncement = async (): Promise<string> => {
      if (unannounced.length === 0) return "";
      const ids = new Set(unannounced.map((r) => r.id));
      const note = resourceAnnouncement(unannounced);
      unannounced = [];
      await store.sessions.update(ws, session.id, (current) => ({
        ...current,
        resources: (current.resources ?? []).map((r) =>
          ids.has(r.resource.id) ? { ...r, announced: true } : r,
        ),
      }));
      return note;
    };
    const io: TurnIo = { writer };
    const write = (events: OutEvent[], status?: BetaManagedAgentsSession["status"]) => {
      if (io.writer === undefined) return Promise.reject(new Error("no turn is running"));
      return io.writer.write(events, status).stored;
    };
    const transcripts = createDbTranscripts(store.db, session.id);
    // During a turn the engine's transcript rows go with its events, in their statements, and the engine does
    // not wait for them: the turn's end waits for everything it wrote (a failure ends the turn there). A read
    // during a turn (the context usage told to telemetry after it) waits for what was queued before it.
    const engineTranscripts: TranscriptStore = {
      ...transcripts,
      async read(id) {
        await io.writer?.settled();
        return transcripts.read(id);
      },
      async append(id, entries) {
        const writer = io.writer;
        if (writer === undefined) await transcripts.append(id, entries);
        else writer.record(transcripts.rows(entries)).catch(() => {});
        if (entries.some((e) => e.type === "compaction")) {
          const stored = write([{ type: "agent.thread_context_compacted" }]);
          if (writer === undefined) await stored;
          else stored.catch(() => {});
        }
      },
    };
    let closeCatalog: () => Promise<void> = async () => {};
    const closeHost = async () => {
      try {
        await closeCatalog();
      } finally {
        await sandbox.close?.();
      }
    };
    const customTools = agent.tools.flatMap((t) => (t.type === "custom" ? [t] : []));
    // The agent's MCP servers: connected here, closed with the session.
    const mcp = await connectAgentMcp(agent, { allowHosts: options.mcpAllowHosts });
    try {
      if (mcp.errors.length > 0) writer.write(mcp.errors);
      const waits = createUserWaits({
        append: write,
        follow: (signal) => options.io.follow(ws, session.id, signal),
        lock: { tryHold: () => locks.tryHold(session.id), release: () => locks.release(session.id) },
      });
      const confirm = createToolConfirmation({
        tools: agent.tools,
        served: [...hostServedTools().filter((t) => onHost || sessionTools.includes(t.name)), ...mcp.served],
        customToolNames: customTools.map((t) => t.name),
        waits,
        asked: (callId) => io.asked?.(callId),
      });
      const sessionOptions = {
        client,
        model: agent.model.id,
        ...(agent.system === null ? {} : { systemPrompt: agent.system }),
        ...(mountsPrompt === "" ? {} : { appendSystemPrompt: mountsPrompt }),
        // The file tools always, on the sandbox's file system (the host's, or the session's own); Bash where the
        // sandbox's shell runs commands (the tools' builder decides from the shell). Closed with the host.
        builtinTools: true,
        sandbox,
        // Tier none standing in for a sandbox not installed keeps Bash: a call answers with what to install.
        bashTool: can.bashTool,
        toolDeadlineMs: options.toolDeadlineMs,
        // http hooks are the server's own requests: the agents' MCP rule for private addresses applies.
        hookFetch: createGuardedFetch({ allowHosts: options.mcpAllowHosts, resolve: resolveWithDns }),
        // Tool policies (always_allow / always_ask); the agent's custom tools are never asked.
        ...confirm.sessionOptions,
        beforeToolRun: ((call, signal) =>
          io.beforeRun?.(call, signal) ?? Promise.resolve()) satisfies BeforeToolRun,
        // In its sandbox everything a file tool or a command reaches is the session's: allowed unless the
        // agent's toolset says always_ask (ask rules beat allow rules) or disables the tool.
        ...(onHost ? {} : { allowedTools: [...confirm.sessionOptions.allowedTools, ...sessionTools] }),
        filesystem: true,
        store: engineTranscripts,
        extraTools: [...customTools.map((spec) => createCustomTool(spec, waits)), ...mcp.tools],
        // SkillSearch also asks the database, which ranks the stored skills with its full-text index.
        skillRetriever: storeSkillRetriever(store.db, ws, () => source.versions()),
        ...(resume ? { resume: session.id } : {}),
      };
      let host: SessionHost;
      if (onHost) {
        const engine = createEngine({
          cwd: can.cwd,
          home: can.home,
          fs: sandbox.fs,
          sources: [source],
          startMcp: false,
        });
        closeCatalog = () => engine.close();
        host = await engineSessionHost(engine, sessionOptions);
      } else {
        // The agent's `skill_overrides`, as a settings file's `skillOverrides`: the catalog (listing, Skill tool,
        // SkillSearch) and the session's view both apply them.
        const overrides = skillOverridesOf(agent);
        const filter =
          overrides === undefined
            ? undefined
            : skillFilterFrom([
                { path: `agent ${agent.id} v${agent.version}`, settings: { skillOverrides: overrides } },
              ]);
        const catalog = createCatalog({
          sources: [source],
          ...(filter === undefined ? {} : { filter: async () => filter }),
        });
        skillsOf.catalog = catalog;
        closeCatalog = async () => catalog.close();
        host = servedSessionHost({
          catalog,
          can,
          rules: sessionOptions,
          store: engineTranscripts,
          ...(filter === undefined ? {} : { filter }),
        });
      }
      const opened = await openSessionOn(host, sessionOptions);
      return {
        agentKey,
        takeAnnouncement,
        closeHost,
        // The server shuts its telemetry down when it stops, not with each session.
        session: withTelemetry(opened.session, options.telemetry, opened.model, { shutdownOnClose: false }),
        source,
        transcripts,
        files: onHost ? undefined : { fs: sandbox.fs, cwd: can.cwd, home: can.home },
        customTools: new Set(customTools.map((t) => t.name)),
        mcp,
        confirm,
        io,
      };
    } catch (error) {
      await closeHost();
      await mcp.close();
      throw error;
    }
  };

  return {
    async acquire(ws, session, client, writer) {
      const kept = lives.take(session.id);
      // A resource attached or removed reopens the session on its new mounts (its prompt stays the same).
      const agentKey = JSON.stringify([session.agent, session.resources]);
      const check = await checkTurn(store.db, ws, session.id, latestSkillIds(session.agent.skills)).catch(
        async (error: unknown) => {
          if (kept !== undefined) await closeLive(kept).catch(() => {});
          throw error;
        },
      );
      if (
        kept !== undefined &&
        liveIsCurrent(
          { agentKey: kept.agentKey, transcriptSeq: kept.transcripts.lastSeq() },
          { agentKey, transcriptSeq: check.transcriptSeq },
        )
      ) {
        kept.source.checkLatest(check.latest);
        kept.io.writer = writer;
        return kept;
      }
      if (kept !== undefined) await closeLive(kept).catch(() => {});
      return openLive(ws, session, client, agentKey, check.transcriptSeq > 0, writer);
    },
    keep: (sessionId, live) => lives.put(sessionId, live),
    close: closeLive,
    drop: (sessionId) => lives.drop(sessionId),
    closeAll: () => lives.close(),
    size: () => lives.size(),
  };
}
