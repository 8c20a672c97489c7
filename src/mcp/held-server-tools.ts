import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import type { Tool } from "../tools/define-tool.js";
import type { McpServerConfig } from "./config-schema.js";
import type { McpManager } from "./manager.js";
import { withUniqueNames } from "./names.js";
import {
  type KnownMcpServer,
  type KnownMcpTool,
  knownServerOf,
  type ToolListStore,
  toolListKey,
} from "./tool-list-store.js";
import { mcpToolToTool } from "./tools.js";

/** The tools of the servers only skills need, and what starts one when such a skill is invoked. */
export interface HeldServerTools {
  /**
   * Each held server's tools as `mcp__{server}__{tool}`, deferred (`defer_loading`) and marked with their
   * server (`skillServer`), from the list kept when the server last ran; a call starts the server if it has not.
   */
  tools: Tool[];
  /**
   * Starts `server` if it is held and not started yet; a list that differs from the kept one replaces it (this
   * session keeps the tools it opened with). Never rejects: a failure is a diagnostic through `report`.
   */
  start(server: string): Promise<void>;
  /** The `instructions` each held server sent when it last ran (for the system prompt), in config order. */
  instructions: Array<{ server: string; text: string }>;
  /** What went wrong learning the lists at open. */
  diagnostics: Diagnostic[];
}

const same = (a: KnownMcpServer, b: KnownMcpServer) =>
  JSON.stringify(knownServerOf(a)) === JSON.stringify(knownServerOf(b));

const learned = (started: { tools: readonly KnownMcpTool[]; instructions?: string }): KnownMcpServer =>
  knownServerOf({
    tools: [...started.tools],
    ...(started.instructions === undefined ? {} : { instructions: started.instructions }),
  });

/**
 * The held servers' tools for one session (issue #42 item 2): the list kept for each server (`store`, keyed by
 * name and configuration); a server that has never run is started once, here, to learn its list, and the list is
 * kept, so from then on the tools array is the same whether or not the server runs. The rest start on `start`.
 */
export async function heldServerTools(input: {
  manager: McpManager;
  configs: Readonly<Record<string, McpServerConfig>>;
  store: ToolListStore;
  report: (d: Diagnostic) => void;
}): Promise<HeldServerTools> {
  const { manager, store } = input;
  const diagnostics: Diagnostic[] = [];
  const servers = await manager.heldServers();
  const known = new Map<string, KnownMcpServer>();
  const keyOf = (server: string) => {
    const config = input.configs[server];
    return config === undefined ? undefined : toolListKey(server, config);
  };
  const keep = async (server: string, found: KnownMcpServer) => {
    const key = keyOf(server);
    if (key === undefined) return;
    await store.put(key, server, found).catch((error: unknown) => {
      input.report(
        diagnostic(
          "warning",
          "mcp-failed",
          `MCP server "${server}": its tool list was not kept: ${errorMessage(error)}`,
        ),
      );
    });
  };
  for (const server of servers) {
    const key = keyOf(server);
    const kept = key === undefined ? undefined : await store.get(key);
    if (kept !== undefined) {
      known.set(server, kept);
      continue;
    }
    try {
      const live = learned(await manager.startHeld(server));
      known.set(server, live);
      await keep(server, live);
    } catch (error) {
      diagnostics.push(diagnostic("warning", "mcp-failed", `MCP server "${server}": ${errorMessage(error)}`));
    }
  }
  const listed = servers.flatMap((server) =>
    (known.get(server)?.tools ?? []).map((tool) => ({ server, tool })),
  );
  const tools = withUniqueNames(listed, (f) => ({ server: f.server, item: f.tool.name })).map(
    ({ item: f, name }): Tool => ({
      ...mcpToolToTool({
        name,
        server: f.server,
        tool: f.tool,
        call: (tool, args, signal) => manager.callHeld(f.server, tool, args, signal),
      }),
      deferLoading: true,
      skillServer: f.server,
    }),
  );
  const starts = new Map<string, Promise<void>>();
  const startOnce = async (server: string) => {
    try {
      const live = learned(await manager.startHeld(server));
      if (!same(live, known.get(server) ?? { tools: [] })) await keep(server, live);
    } catch (error) {
      input.report(diagnostic("warning", "mcp-failed", `MCP server "${server}": ${errorMessage(error)}`));
    }
  };
  return {
    tools,
    instructions: servers.flatMap((server) => {
      const text = known.get(server)?.instructions;
      return text === undefined ? [] : [{ server, text }];
    }),
    diagnostics,
    start(server) {
      if (!servers.includes(server)) return Promise.resolve();
      let started = starts.get(server);
      if (started === undefined) {
        started = startOnce(server);
        starts.set(server, started);
      }
      return started;
    },
  };
}
