import type {
  BetaManagedAgentsAgent,
  BetaManagedAgentsMCPServerURLDefinition,
  BetaManagedAgentsMCPToolset,
} from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { AgentTool } from "../../agent/loop.js";
import { checkMcpUrl, createGuardedFetch, type ResolveHost, resolveWithDns } from "../../io/url-guard.js";
import type { ConnectedServer } from "../../mcp/connect.js";
import { type McpToolRef, mcpConnectionError, type OutEvent } from "./agent-event-map.js";
import { toolsetConfig } from "./permission-policy.js";
import type { ServedTool } from "./tool-confirmation.js";

/** How long one agent MCP server may take to answer `initialize` before the turn goes on without it. */
export const AGENT_MCP_CONNECT_TIMEOUT_MS = 15_000;
/** How long listing a server's tools may take. */
export const AGENT_MCP_REQUEST_TIMEOUT_MS = 30_000;
/** How long one `tools/call` may take. */
export const AGENT_MCP_TOOL_TIMEOUT_MS = 10 * 60_000;

/** One agent server a session connects to, with the toolset that says which of its tools the model gets. */
export interface McpServerPlan {
  server: BetaManagedAgentsMCPServerURLDefinition;
  toolset: BetaManagedAgentsMCPToolset;
}

/** What a session gets from its agent's MCP servers; `close` ends every connection. */
export interface AgentMcp {
  /** The enabled tools, named `mcp__{server}__{tool}`. */
  tools: AgentTool[];
  /** The offered tools with their toolset, so the turn's confirmations apply each one's permission policy. */
  served: ServedTool[];
  /** Tool name → its server and MCP tool name, for the `agent.mcp_tool_use` events. */
  refs: ReadonlyMap<string, McpToolRef>;
  /** One `session.error` per server that was refused or failed (the turn goes on without it). */
  errors: OutEvent[];
  /** Closes every connection. Never rejects. */
  close(): Promise<void>;
}

/** What connecting needs: the hosts the operator allowed (`--mcp-allow-host`), and DNS (injectable). */
export interface AgentMcpOptions {
  allowHosts: readonly string[];
  resolve?: ResolveHost;
  /** Reported to servers in `initialize`. */
  clientVersion?: string;
  connectTimeoutMs?: number;
}

/**
 * The servers a session connects to: each `mcp_servers` entry that an `mcp_toolset` names (a server without a
 * toolset contributes nothing), in `mcp_servers` order. Pure.
 */
export function mcpServerPlans(
  agent: Pick<BetaManagedAgentsAgent, "mcp_servers" | "tools">,
): McpServerPlan[] {
  return agent.mcp_servers.flatMap((server) => {
    const toolset = agent.tools.find(
      (t): t is BetaManagedAgentsMCPToolset => t.type === "mcp_toolset" && t.mcp_server_name === server.name,
    );
    return toolset === undefined ? [] : [{ server, toolset }];
  });
}

const NONE: AgentMcp = {
  tools: [],
  served: [],
  refs: new Map(),
  errors: [],
  close: async () => {},
};

/**
 * Connects a session to its agent's URL MCP servers over streamable HTTP (through the SSRF guard of
 * `src/io/url-guard.ts`), lists their tools and offers the enabled ones. A server that is refused, cannot be
 * reached or cannot list its tools becomes a `session.error` naming it, and the session goes on without it.
 * The MCP client is loaded only when the agent has a server with a toolset.
 */
export async function connectAgentMcp(
  agent: Pick<BetaManagedAgentsAgent, "mcp_servers" | "tools">,
  options: AgentMcpOptions,
): Promise<AgentMcp> {
  const plans = mcpServerPlans(agent);
  if (plans.length === 0) return NONE;
  const [{ connectServer }, { callTool, listAllTools }, { mcpToolToTool }, { withUniqueNames }] =
    await Promise.all([
      import("../../mcp/connect.js"),
      import("../../mcp/client-ops.js"),
      import("../../mcp/tools.js"),
      import("../../mcp/names.js"),
    ]);
  const guard = { allowHosts: options.allowHosts, resolve: options.resolve ?? resolveWithDns };
  const fetch = createGuardedFetch(guard);
  const connected: ConnectedServer[] = [];
  // Servers connect in parallel; each gives its enabled tools or the error that says why it gives none.
  const outcomes = await Promise.all(
    plans.map(async ({ server, toolset }) => {
      const fail = (message: string) => ({
        tools: [],
        error: mcpConnectionError(server.name, `MCP server "${server.name}" ${message}`),
      });
      const verdict = await checkMcpUrl(server.url, guard);
      if (!verdict.ok) return fail(`refused: ${verdict.reason}`);
      const outcome = await connectServer({
        name: server.name,
        config: { type: "http", url: server.url },
        env: {},
        cwd: "/",
        timeoutMs: options.connectTimeoutMs ?? AGENT_MCP_CONNECT_TIMEOUT_MS,
        clientInfo: { name: "skillwright-serve", version: options.clientVersion ?? "0.0.0" },
        fetch,
      });
      if (!outcome.ok) return fail(`failed to connect: ${outcome.reason}`);
      connected.push(outcome.server);
      const client = outcome.server.client;
      try {
        const listed = await listAllTools(client, AGENT_MCP_REQUEST_TIMEOUT_MS);
        const tools = listed.flatMap((tool) => {
          return toolsetConfig(toolset, tool.name).enabled ? [{ server: server.name, tool, client }] : [];
        });
        return { tools };
      } catch (error) {
        return fail(`could not list its tools: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  const listed = outcomes.flatMap((o) => o.tools);
  const errors = outcomes.flatMap((o) => ("error" in o ? [o.error] : []));
  const named = withUniqueNames(listed, (f) => ({ server: f.server, item: f.tool.name }));
  const refs = new Map<string, McpToolRef>();
  const tools = named.map(({ item, name }): AgentTool => {
    refs.set(name, { server: item.server, tool: item.tool.name });
    return mcpToolToTool({
      name,
      server: item.server,
      tool: item.tool,
      call: (tool, args, signal) =>
        callTool(item.client, { tool, args, signal, timeout: AGENT_MCP_TOOL_TIMEOUT_MS }),
    });
  });
  return {
    tools,
    served: [...refs].map(([name, ref]) => ({
      name,
      toolset: { type: "mcp_toolset", mcpServerName: ref.server },
      configName: ref.tool,
    })),
    refs,
    errors,
    async close() {
      await Promise.all(connected.map((server) => server.close()));
    },
  };
}
