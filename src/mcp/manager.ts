import type { CallToolResult, Client, Tool as McpTool } from "@modelcontextprotocol/client";
import pLimit from "p-limit";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import type { Tool } from "../tools/define-tool.js";
import { allPages, byName, callTool, listAllPrompts, listAllTools, skillSourceOps } from "./client-ops.js";
import type { McpServerConfig } from "./config-schema.js";
import { type ConnectedServer, connectServer, type McpClientInfo } from "./connect.js";
import type { EnvVars } from "./expand-env.js";
import { createListMcpResourcesTool, type McpResourceEntry } from "./list-resources-tool.js";
import { followListChanges, listenFilter } from "./listen.js";
import { withUniqueNames } from "./names.js";
import { promptToSkill } from "./prompts.js";
import { manifestOwner, readListedSkill, readSkillFile } from "./read-listed-skill.js";
import { createReadMcpResourceTool, type ReadMcpResource } from "./resource-tool.js";
import {
  discoverSkillRefs,
  type McpSkillRef,
  readSkillText,
  SKILLS_EXTENSION,
  type SkillDiscoveryPath,
} from "./skill-refs.js";
import { refToSkill, skillItemNames } from "./skills.js";
import { mcpToolToTool } from "./tools.js";

/** The lists a manager takes from its servers, each listed again on its own (prompts, skills) or never (tools). */
const LIST_KINDS = ["prompts", "skills", "tools"] as const;
type ListKind = (typeof LIST_KINDS)[number];

/** How long one server may take to start and answer `initialize`. */
export const MCP_CONNECT_TIMEOUT_MS = 30_000;
/** How long a listing, `prompts/get` or `resources/read` may take. */
export const MCP_REQUEST_TIMEOUT_MS = 60_000;
/** How long a `tools/call` may take (progress notifications restart the clock). */
export const MCP_TOOL_TIMEOUT_MS = 30 * 60_000;
/** How many servers start at once. */
export const MCP_CONNECT_CONCURRENCY = 8;

/** What `doctor` shows of one server: its state and, once listed, what it offers and how its skills were found. */
export interface McpServerSummary {
  name: string;
  state: McpServerStatus["state"];
  /** Why it failed, for `state: "failed"`. */
  reason?: string;
  /** The protocol version `initialize` settled on. */
  protocolVersion?: string;
  /** True when the server declared the MCP Skills extension. */
  skillsExtension?: boolean;
  /** True when the server sent `instructions`. */
  instructions?: boolean;
  /** True for a server only skills need: a session starts it when such a skill is first invoked. */
  onDemand?: boolean;
  tools?: number;
  prompts?: number;
  resources?: number;
  skills?: number;
  skillsVia?: SkillDiscoveryPath;
}

/** Where one server stands. `failed` covers servers that never started and ones that stopped later. */
export type McpServerStatus =
  | { name: string; state: "idle" | "connecting" | "closed" }
  | { name: string; state: "connected"; pid: number | undefined }
  | { name: string; state: "failed"; reason: string };

export interface McpManagerOptions {
  servers: Readonly<Record<string, McpServerConfig>>;
  /** The host's environment: stdio servers get it plus their own `env`. */
  env: EnvVars;
  /** Where stdio servers run (their `cwd` resolves against it). */
  cwd: string;
  clientInfo: McpClientInfo;
  /** Per-server start timeout. Default `MCP_CONNECT_TIMEOUT_MS`. */
  timeoutMs?: number;
  requestTimeoutMs?: number;
  toolTimeoutMs?: number;
  /**
   * Called when a server says its prompts or resources (where its skills live) changed: the manager has
   * dropped that list, and the next `prompts()` / `skills()` lists again. (Tools are listed once per session:
   * the tools a session sends never change under it.)
   */
  onListChanged?: (what: "prompts" | "skills", server: string) => void;
  /**
   * The servers only skills need (issue #42): `connectAll` and every listing leave them out; each starts on its
   * own `start(name)`. Asked once, by the first `connectAll`. Absent: none.
   */
  held?: () => Promise<ReadonlySet<string>>;
}

/** The MCP servers of one engine: started lazily, listed once, closed together. */
export interface McpManager {
  /**
   * Starts every server in parallel (at most `MCP_CONNECT_CONCURRENCY` at once), each with its timeout. Runs
   * once; later calls wait for the same run. Resolves with all diagnostics so far; never rejects.
   */
  connectAll(): Promise<Diagnostic[]>;
  /** Prompts as user commands `mcp__{server}__{prompt}` (not model-invocable). Listed once. */
  prompts(): Promise<Skill[]>;
  /** SEP-2640 skills as model-invocable skills `mcp__{server}__{name}`. Listed once. */
  skills(): Promise<Skill[]>;
  /**
   * Tools as `mcp__{server}__{tool}`, plus `ReadMcpResourceTool` when a connected server offers resources.
   * Listed once.
   */
  tools(): Promise<Tool[]>;
  /** Each configured server's state, in config order. */
  status(): McpServerStatus[];
  /** The servers `held` names that this manager has (only skills need them), in config order. */
  heldServers(): Promise<string[]>;
  /**
   * Starts one held server (once; later calls wait for the same start) and lists its tools, as the server
   * names them, with the `instructions` it sent. Rejects when the server is not one of this manager's, failed to
   * start, or the listing failed.
   */
  startHeld(name: string): Promise<{ tools: McpTool[]; instructions?: string }>;
  /** `tools/call` on a server started by `startHeld` (starting it if it is not yet). May reject. */
  callHeld: (
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<CallToolResult>;
  /**
   * The `instructions` each connected server sent in `initialize`, in config order (for the system prompt).
   * Starts the servers.
   */
  instructions(): Promise<Array<{ server: string; text: string }>>;
  /** `resources/read` on one configured server (starting the servers); rejects when it is not connected. */
  readResource: ReadMcpResource;
  /** Every resource of one server, or of every connected server with resources, in config order. */
  listResources(server?: string, signal?: AbortSignal): Promise<McpResourceEntry[]>;
  /** Per-server summary: starts the servers and lists everything (for `doctor --start-mcp`). */
  summary(): Promise<McpServerSummary[]>;
  /** `mcp-failed` and skill diagnostics so far, in config order of their server. */
  diagnostics(): Diagnostic[];
  /** Closes every client and stops every stdio server's process group. Idempotent; never rejects. */
  close(): Promise<void>;
}

/**
 * Creates the manager for `servers`. Nothing starts until `connectAll()` or the first listing. A server that
 * cannot start, exits, or does not answer within the timeout becomes an `mcp-failed` error and the others go
 * on; one that stops later makes its tools return `is_error` results and adds a diagnostic.
 */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const timeoutMs = options.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const requestTimeout = options.requestTimeoutMs ?? MCP_REQUEST_TIMEOUT_MS;
  const toolTimeout = options.toolTimeoutMs ?? MCP_TOOL_TIMEOUT_MS;
  const names = Object.keys(options.servers);
  const states = new Map<string, McpServerStatus>(names.map((name) => [name, { name, state: "idle" }]));
  const connected = new Map<string, ConnectedServer>();
  const found = new Map<string, Diagnostic[]>(names.map((name) => [name, []]));
  const shutdown = new AbortController();
  let connecting: Promise<Diagnostic[]> | undefined;
  let closing: Promise<void> | undefined;
  let promptList: Promise<Skill[]> | undefined;
  let skillList: Promise<Skill[]> | undefined;
  let toolList: Promise<Tool[]> | undefined;
  let heldMemo: Promise<ReadonlySet<string>> | undefined;
  const heldSet = () => {
    heldMemo ??= (options.held?.() ?? Promise.resolve(new Set<string>())).catch(() => new Set<string>());
    return heldMemo;
  };
  let held: ReadonlySet<string> = new Set();
  const heldStarts = new Map<string, Promise<{ tools: McpTool[]; instructions?: string }>>();

  const counts = new Map<string, Partial<McpServerSummary>>(names.map((name) => [name, {}]));
  const count = (name: string, values: Partial<McpServerSummary>) =>
    counts.set(name, { ...counts.get(name), ...values });
  const report = (name: string, d: Diagnostic) => found.get(name)?.push(d);
  const fail = (name: string, message: string) => report(name, diagnostic("warning", "mcp-failed", message));
  // What the latest listing of each kind found wrong, by server: a list that is listed again (after its
  // list_changed) replaces its own, so a problem is said once, not once per listing.
  const listed = new Map<ListKind, Map<string, Diagnostic[]>>();
  const reportListed = (kind: ListKind, name: string, d: Diagnostic) => {
    const byServer = listed.get(kind) ?? new Map<string, Diagnostic[]>();
    listed.set(kind, byServer);
    byServer.set(name, [...(byServer.get(name) ?? []), d]);
  };
  const allDiagnostics = () =>
    names.flatMap((name) => [
      ...(found.get(name) ?? []),
      ...LIST_KINDS.flatMap((kind) => listed.get(kind)?.get(name) ?? []),
    ]);

  const use = (name: string): Client => {
    const server = connected.get(name);
    const state = states.get(name);
    if (server === undefined || server.lostReason() !== undefined) {
      const reason = state?.state === "failed" ? `: ${state.reason}` : "";
      throw new Error(`MCP server "${name}" is not connected${reason}`);
    }
    return server.client;
  };

  async function connectOne(name: string, config: McpServerConfig): Promise<void> {
    if (shutdown.signal.aborted) return;
    states.set(name, { name, state: "connecting" });
    const outcome = await connectServer({
      name,
      config,
      env: options.env,
      cwd: options.cwd,
      timeoutMs,
      clientInfo: options.clientInfo,
      signal: shutdown.signal,
      onLost: (reason) => {
        states.set(name, { name, state: "failed", reason });
        report(name, diagnostic("error", "mcp-failed", `MCP server "${name}" stopped: ${reason}`));
      },
    });
    if (!outcome.ok) {
      if (shutdown.signal.aborted) return void states.set(name, { name, state: "closed" });
      states.set(name, { name, state: "failed", reason: outcome.reason });
      report(
        name,
        diagnostic("error", "mcp-failed", `MCP server "${name}" failed to start: ${outcome.reason}`),
      );
      return;
    }
    if (shutdown.signal.aborted) {
      await outcome.server.close();
      return void states.set(name, { name, state: "closed" });
    }
    connected.set(name, outcome.server);
    states.set(name, { name, state: "connected", pid: outcome.server.pid });
    const client = outcome.server.client;
    const promptsChanged = () => {
      promptList = undefined;
      options.onListChanged?.("prompts", name);
    };
    const skillsChanged = () => {
      skillList = undefined;
      options.onListChanged?.("skills", name);
    };
    client.setNotificationHandler("notifications/prompts/list_changed", async () => promptsChanged());
    client.setNotificationHandler("notifications/resources/list_changed", async () => skillsChanged());
    // On 2026-07-28 those notifications come only on a `subscriptions/listen` stream, which we open here. Its
    // acknowledgement is part of starting (bounded by the start timeout), so no change after it is missed.
    const filter = listenFilter(outcome.server.protocolVersion(), client.getServerCapabilities());
    if (filter === undefined) return;
    const server = outcome.server;
    await followListChanges({
      client,
      filter,
      timeout: timeoutMs,
      signal: shutdown.signal,
      connected: () => !shutdown.signal.aborted && server.lostReason() === undefined,
      onReopened: () => {
        if (filter.promptsListChanged === true) promptsChanged();
        if (filter.resourcesListChanged === true) skillsChanged();
      },
      onProblem: (message) => fail(name, `MCP server "${name}": ${message}`),
    });
  }

  function connectAll(): Promise<Diagnostic[]> {
    connecting ??= (async () => {
      const limit = pLimit(MCP_CONNECT_CONCURRENCY);
      held = await heldSet();
      await Promise.all(
        Object.entries(options.servers)
          .filter(([name]) => !held.has(name))
          .map(([name, config]) => limit(() => connectOne(name, config))),
      );
      return allDiagnostics();
    })();
    return connecting.then(allDiagnostics);
  }

  /** `resources/read` on one configured server; rejects for a server that is unknown or not connected. */
  /** The skills each server listed with a `skills/list` manifest, for verified reads of their files. */
  let manifests: McpSkillRef[] = [];

  const readResource: ReadMcpResource = async (server, uri, signal) => {
    if (!names.includes(server)) throw new Error(`no MCP server "${server}" (servers: ${names.join(", ")})`);
    await connectAll();
    const options = { timeout: requestTimeout, ...(signal ? { signal } : {}) };
    // A file of a skill the server listed with a manifest is read verified (SEP-2640): it must be listed,
    // and its size and digest must match; an unlisted file is refused.
    const owner = manifestOwner(manifests, server, uri);
    if (owner?.entry !== undefined) return readSkillFile(use(server), owner.entry, uri, options);
    return use(server).readResource({ uri }, options);
  };

  /** Runs `list` for every connected server that has `capability`, in config order; failures are reported. */
  async function perServer<T>(
    what: ListKind,
    has: (client: Client) => boolean,
    list: (name: string, client: Client) => Promise<T[]>,
  ) {
    await connectAll();
    listed.delete(what);
    const lists = await Promise.all(
      names.map(async (name) => {
        const server = connected.get(name);
        if (held.has(name)) return [];
        if (server === undefined || server.lostReason() !== undefined || !has(server.client)) return [];
        try {
          return await list(name, server.client);
        } catch (error) {
          const message = `MCP server "${name}": listing ${what} failed: ${errorMessage(error)}`;
          reportListed(what, name, diagnostic("warning", "mcp-failed", message));
          return [];
        }
      }),
    );
    return lists;
  }

  const hasResources = (client: Client) => client.getServerCapabilities()?.resources !== undefined;

  async function listResources(server?: string, signal?: AbortSignal): Promise<McpResourceEntry[]> {
    await connectAll();
    if (server !== undefined && !names.includes(server)) {
      throw new Error(`no MCP server "${server}" (servers: ${names.join(", ")})`);
    }
    const chosen = server === undefined ? names : [server];
    const lists = await Promise.all(
      chosen.map(async (name) => {
        const live = connected.get(name);
        if (server === undefined && (live === undefined || !hasResources(live.client))) return [];
        const client = use(name);
        if (!hasResources(client)) throw new Error(`MCP server "${name}" offers no resources`);
        const items = await allPages(async (cursor) => {
          const r = await client.listResources(cursor === undefined ? undefined : { cursor }, {
            timeout: requestTimeout,
            ...(signal === undefined ? {} : { signal }),
          });
          return { items: r.resources, next: r.nextCursor };
        });
        count(name, { resources: items.length });
        return items.map(
          (r): McpResourceEntry => ({
            server: name,
            uri: r.uri,
            name: r.name,
            ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }),
            ...(r.description === undefined ? {} : { description: r.description }),
          }),
        );
      }),
    );
    return lists.flat();
  }

  function startHeld(name: string): Promise<{ tools: McpTool[]; instructions?: string }> {
    let started = heldStarts.get(name);
    if (started === undefined) {
      started = (async () => {
        const config = options.servers[name];
        if (config === undefined || !(await heldSet()).has(name)) {
          throw new Error(`MCP server "${name}" is not one that only skills need`);
        }
        await connectOne(name, config);
        const client = use(name);
        const text = client.getInstructions();
        const instructions = text === undefined || text.trim() === "" ? {} : { instructions: text };
        if (client.getServerCapabilities()?.tools === undefined) return { tools: [], ...instructions };
        const tools = await listAllTools(client, requestTimeout);
        count(name, { tools: tools.length });
        return { tools, ...instructions };
      })();
      heldStarts.set(name, started);
    }
    return started;
  }

  return {
    connectAll,

    async instructions() {
      await connectAll();
      return names.flatMap((name) => {
        const text = held.has(name) ? undefined : connected.get(name)?.client.getInstructions();
        return text === undefined || text.trim() === "" ? [] : [{ server: name, text }];
      });
    },

    listResources,
    readResource,

    async summary() {
      await connectAll();
      // The servers only skills need start too: `doctor --start-mcp` asked for every server to be tried. A
      // failed start is in its state and diagnostics.
      await Promise.all([...held].filter((n) => names.includes(n)).map((n) => startHeld(n).catch(() => [])));
      await Promise.all([this.prompts(), this.skills(), this.tools(), listResources().catch(() => [])]);
      return names.map((name): McpServerSummary => {
        const state = states.get(name) ?? { name, state: "idle" };
        const client = connected.get(name)?.client;
        const base: McpServerSummary = {
          name,
          state: state.state,
          ...(held.has(name) ? { onDemand: true } : {}),
        };
        if (state.state === "failed") base.reason = state.reason;
        if (client === undefined || state.state !== "connected") return base;
        const caps = client.getServerCapabilities();
        const version = connected.get(name)?.protocolVersion();
        return {
          ...base,
          ...(version === undefined ? {} : { protocolVersion: version }),
          skillsExtension: caps?.extensions?.[SKILLS_EXTENSION] !== undefined,
          instructions: (client.getInstructions() ?? "").trim() !== "",
          tools: 0,
          // A server only skills need is not listed for prompts, resources or skills (its skills' needs name it).
          ...(held.has(name) ? {} : { prompts: 0, resources: 0, skills: 0, skillsVia: "none" as const }),
          ...counts.get(name),
        };
      });
    },

    prompts() {
      promptList ??= (async () => {
        const lists = await perServer(
          "prompts",
          (c) => c.getServerCapabilities()?.prompts !== undefined,
          async (name, client) => {
            const prompts = await listAllPrompts(client, requestTimeout);
            count(name, { prompts: prompts.length });
            return prompts.map((prompt) => ({ server: name, prompt }));
          },
        );
        const named = withUniqueNames(lists.flat(), (f) => ({ server: f.server, item: f.prompt.name }));
        return named.map(({ item: f, name }) =>
          promptToSkill({
            name,
            server: f.server,
            prompt: f.prompt,
            getPrompt: (prompt, args, signal) =>
              use(f.server).getPrompt({ name: prompt, arguments: args }, { timeout: requestTimeout, signal }),
          }),
        );
      })();
      return promptList;
    },

    skills() {
      skillList ??= (async () => {
        const lists = await perServer(
          "skills",
          () => true,
          async (name, client) => {
            const { refs, diagnostics, via } = await discoverSkillRefs(
              skillSourceOps(name, () => client, requestTimeout),
            );
            for (const d of diagnostics) reportListed("skills", name, d);
            count(name, { skills: refs.length, skillsVia: via });
            const sorted = refs.sort(
              byName(
                (r: McpSkillRef) =>
                  `${r.skillPath.slice(r.skillPath.lastIndexOf("/") + 1)}\u0000${r.skillPath}`,
              ),
            );
            const items = skillItemNames(sorted);
            return sorted.map((ref, i) => ({ ref, item: items[i] ?? ref.skillPath }));
          },
        );
        const named = withUniqueNames(lists.flat(), (f) => ({ server: f.ref.server, item: f.item }));
        manifests = named.map(({ item }) => item.ref).filter((ref) => ref.entry !== undefined);
        return named.map(({ item: { ref }, name }) => {
          const read = (uri: string, signal?: AbortSignal) =>
            readSkillText(
              skillSourceOps(ref.server, () => use(ref.server), requestTimeout),
              uri,
              signal,
            );
          const entry = ref.entry;
          const built = refToSkill({
            ref,
            name,
            read,
            ...(entry === undefined
              ? {}
              : {
                  readVerified: (signal?: AbortSignal) =>
                    readListedSkill(use(ref.server), entry, { timeout: requestTimeout, signal }),
                }),
          });
          for (const d of built.diagnostics) reportListed("skills", ref.server, d);
          return built.skill;
        });
      })();
      return skillList;
    },

    tools() {
      toolList ??= (async () => {
        const lists = await perServer(
          "tools",
          (c) => c.getServerCapabilities()?.tools !== undefined,
          async (name, client) => {
            const tools = await listAllTools(client, requestTimeout);
            count(name, { tools: tools.length });
            return tools.map((tool) => ({ server: name, tool }));
          },
        );
        const named = withUniqueNames(lists.flat(), (f) => ({ server: f.server, item: f.tool.name }));
        const tools = named.map(({ item: f, name }) =>
          mcpToolToTool({
            name,
            server: f.server,
            tool: f.tool,
            call: (tool, args, signal) =>
              callTool(use(f.server), { tool, args, signal, timeout: toolTimeout }),
          }),
        );
        const withResources = names.filter(
          (name) =>
            !held.has(name) && connected.get(name)?.client.getServerCapabilities()?.resources !== undefined,
        );
        if (withResources.length > 0) {
          tools.push(
            createListMcpResourcesTool((server, signal) => listResources(server, signal), withResources),
            createReadMcpResourceTool(readResource, withResources),
          );
        }
        return tools;
      })();
      return toolList;
    },

    status: () => names.map((name) => states.get(name) ?? { name, state: "idle" }),

    async heldServers() {
      const set = await heldSet();
      return names.filter((name) => set.has(name));
    },

    startHeld,
    async callHeld(server, tool, args, signal) {
      await startHeld(server);
      return callTool(use(server), { tool, args, signal, timeout: toolTimeout });
    },
    diagnostics: allDiagnostics,

    close() {
      closing ??= (async () => {
        shutdown.abort();
        if (connecting !== undefined) await connecting;
        await Promise.all([...connected.values()].map((server) => server.close()));
        connected.clear();
        for (const name of names) {
          if (states.get(name)?.state !== "failed") states.set(name, { name, state: "closed" });
        }
      })();
      return closing;
    },
  };
}
