import type { Store } from "../../src/serve/store/store.js";

/**
 * A session stored straight through the store (no HTTP): a new self-hosted environment and a plain agent (no
 * skills, tools or MCP servers) named `agentName`, and a session of that agent. Resolves to the session's id.
 */
export async function createStoredSession(store: Store, ws: string, agentName: string): Promise<string> {
  const environment = await store.environments.create(ws, {
    name: `env-${agentName}-${Math.random()}`,
    description: null,
    config: { type: "self_hosted" },
    metadata: {},
  });
  const agent = await store.agents.create(ws, {
    name: agentName,
    description: null,
    model: { id: "claude-sonnet-5-5" },
    system: null,
    skills: [],
    tools: [],
    mcp_servers: [],
    metadata: {},
    execution_identity: { type: "service_account" },
    multiagent: null,
  });
  const session = await store.sessions.create(ws, {
    agent: { ...agent, type: "agent", multiagent: null },
    environmentId: environment.id,
    title: null,
    metadata: {},
    vault_ids: [],
  });
  return session.id;
}
