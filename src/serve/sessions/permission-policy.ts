import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";

/** A resolved `permission_policy` type (the SDK's always_allow / always_ask / auto). */
export type PermissionPolicyType = "always_allow" | "always_ask" | "auto";

/** The toolset a served tool belongs to: the agent toolset (host tools), or one MCP server's toolset. */
export type ToolsetRef = { type: "agent_toolset_20260401" } | { type: "mcp_toolset"; mcpServerName: string };

/** A tool's resolved config: whether it is offered, and which policy governs its calls. */
export interface ResolvedToolPolicy {
  enabled: boolean;
  policy: PermissionPolicyType;
}

/**
 * The name a tool has in the agent toolset's `configs` (`bash`, `read`, …) for an engine tool name (`Bash`,
 * `Read`, …): lower case (`LS` is `ls`, which no config names, so the toolset's default governs it). Pure.
 */
export function agentToolConfigName(toolName: string): string {
  return toolName.toLowerCase();
}

/**
 * The config that governs `toolName` of `toolset` in an agent's `tools` (as the SDK's types resolve them:
 * a per-tool entry in `configs` wins, else the toolset's `default_config`), or `undefined` when the agent
 * configures no such toolset. For the agent toolset `toolName` is the engine's name (`Write`); for an MCP
 * toolset, the tool's name on its server. Pure.
 */
export function resolveToolPolicy(
  tools: BetaManagedAgentsAgent["tools"],
  toolName: string,
  toolset: ToolsetRef,
): ResolvedToolPolicy | undefined {
  for (const entry of tools) {
    if (entry.type === "custom") continue;
    if (entry.type !== toolset.type) continue;
    if (entry.type === "mcp_toolset" && toolset.type === "mcp_toolset") {
      if (entry.mcp_server_name !== toolset.mcpServerName) continue;
      const config = toolsetConfig(entry, toolName);
      return { enabled: config.enabled, policy: config.permission_policy.type };
    }
    if (entry.type === "agent_toolset_20260401") {
      const config = toolsetConfig(entry, agentToolConfigName(toolName));
      return { enabled: config.enabled, policy: config.permission_policy.type };
    }
  }
  return undefined;
}

/** A toolset's config for one tool: the tool's own entry in `configs`, else the toolset's `default_config`. Pure. */
export function toolsetConfig<Config extends { name: string }, Default>(
  toolset: { configs: readonly Config[]; default_config: Default },
  configName: string,
): Config | Default {
  return toolset.configs.find((c) => c.name === configName) ?? toolset.default_config;
}

/**
 * What an `agent.tool_use` says about its policy: `evaluated_permission` and `evaluation` for always_allow
 * (`allow`) and always_ask (`ask`); nothing for `auto` (the engine's permission rules judge the call as it
 * runs) or a tool no toolset governs. Pure.
 */
export function permissionFields(resolved: ResolvedToolPolicy | undefined): Record<string, unknown> {
  switch (resolved?.policy) {
    case "always_allow":
      return { evaluated_permission: "allow", evaluation: { type: "always_allow" } };
    case "always_ask":
      return { evaluated_permission: "ask", evaluation: { type: "always_ask" } };
    default:
      return {};
  }
}

/** The engine's decision on one tool call: `ask` when it waits for the user; `refused` before any policy applied. */
export interface ToolDecision {
  behavior: "allow" | "deny" | "ask";
  refused?: boolean;
}

/**
 * What an `agent.tool_use` says about the engine's decision on it (as the managed Agents API shows it):
 * `evaluated_permission` always; `evaluation` names the policy that produced it (always_allow for allow,
 * always_ask for ask, else `auto` with the judgement), and is absent when the call was refused before any
 * policy applied, or a deny rule beat the tool's policy (always_allow or always_ask), or a call its policy
 * asks about ran without asking (one the user allowed before its server stopped). Pure.
 */
export function decisionFields(
  resolved: ResolvedToolPolicy | undefined,
  decision: ToolDecision,
): Record<string, unknown> {
  const evaluated = { evaluated_permission: decision.behavior };
  if (decision.refused === true) return evaluated;
  switch (resolved?.policy) {
    case "always_allow":
      return decision.behavior === "allow" ? permissionFields(resolved) : evaluated;
    case "always_ask":
      return decision.behavior === "ask" ? permissionFields(resolved) : evaluated;
    default:
      return {
        ...evaluated,
        evaluation: { type: "auto", evaluated_permission: { type: decision.behavior } },
      };
  }
}

/**
 * The engine's rules for a session's tools under their policies: allow rules for always_allow, ask rules for
 * always_ask (deny rules still beat both, and ask rules beat a skill's grants), and the tools a config
 * disables removed. Tools no toolset governs (and `auto` ones) keep the engine's own rules. Pure.
 */
export function policyRules(policies: ReadonlyMap<string, ResolvedToolPolicy>): {
  allow: string[];
  ask: string[];
  removed: string[];
} {
  const allow: string[] = [];
  const ask: string[] = [];
  const removed: string[] = [];
  for (const [name, resolved] of policies) {
    if (!resolved.enabled) removed.push(name);
    else if (resolved.policy === "always_allow") allow.push(name);
    else if (resolved.policy === "always_ask") ask.push(name);
  }
  return { allow, ask, removed };
}
