import type {
  BetaManagedAgentsAgent,
  BetaManagedAgentsAgentToolset20260401,
  BetaManagedAgentsModelConfig,
} from "@anthropic-ai/sdk/resources/beta/agents/agents";
import { Hono } from "hono";
import * as z from "zod";
import { ApiError, invalid, notImplemented } from "../errors.js";
import { type AgentBody, AgentSkillOverrides } from "../store/agents.js";
import { pageRequest } from "../store/page.js";
import type { Store } from "../store/store.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { boolQuery, jsonBody, patchMetadata, refuseUnservedQuery } from "./parse.js";

const effort = z.enum(["low", "medium", "high", "xhigh", "max"]);
const model = z.union([
  z.string().min(1),
  z.strictObject({
    id: z.string().min(1),
    effort: z.union([effort, z.strictObject({ type: effort })]).nullish(),
    inference_geo: z.string().nullish(),
    speed: z.enum(["standard", "fast"]).nullish(),
  }),
]);
const skill = z.strictObject({
  type: z.enum(["custom", "anthropic"]),
  skill_id: z.string().min(1),
  version: z.string().nullish(),
});
const policy = z.strictObject({ type: z.enum(["always_allow", "always_ask", "auto"]) });
const toolConfig = z.looseObject({
  name: z.string(),
  enabled: z.boolean().nullish(),
  permission_policy: policy.nullish(),
});
const agentToolConfig = z.strictObject({
  name: z.enum(["bash", "edit", "read", "write", "glob", "grep", "web_fetch", "web_search"]),
  type: z.string().optional(),
  enabled: z.boolean().nullish(),
  permission_policy: policy.nullish(),
});
const defaultConfig = z.strictObject({ enabled: z.boolean().nullish(), permission_policy: policy.nullish() });
const tool = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("custom"),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, "must be 1-128 letters, digits, _ or -"),
    description: z.string(),
    input_schema: z.looseObject({ type: z.literal("object") }),
  }),
  z.strictObject({
    type: z.literal("agent_toolset_20260401"),
    configs: z.array(agentToolConfig).optional(),
    default_config: defaultConfig.nullish(),
  }),
  z.strictObject({
    type: z.literal("mcp_toolset"),
    mcp_server_name: z.string().min(1),
    configs: z.array(toolConfig).optional(),
    default_config: defaultConfig.nullish(),
  }),
]);
const mcpServer = z.strictObject({
  type: z.literal("url"),
  name: z.string().min(1),
  url: z.url({ protocol: /^https?$/ }),
});
const identity = z.union([
  z.strictObject({ type: z.literal("service_account") }),
  z.strictObject({ type: z.literal("aws_role"), role_arn: z.string() }),
]);

const createSchema = z.strictObject({
  name: z.string().trim().min(1).max(256),
  model,
  description: z.string().nullish(),
  system: z.string().nullish(),
  skills: z.array(skill).optional(),
  tools: z.array(tool).optional(),
  mcp_servers: z.array(mcpServer).optional(),
  metadata: z.record(z.string().max(64), z.string().max(512)).optional(),
  skill_overrides: AgentSkillOverrides.optional(),
  execution_identity: identity.nullish(),
  multiagent: z.looseObject({}).nullish(),
});
const updateSchema = z.strictObject({
  name: z.string().trim().min(1).max(256).optional(),
  model: model.optional(),
  description: z.string().nullish(),
  system: z.string().nullish(),
  skills: z.array(skill).nullish(),
  tools: z.array(tool).nullish(),
  mcp_servers: z.array(mcpServer).nullish(),
  metadata: z.record(z.string(), z.string().nullable()).nullish(),
  skill_overrides: AgentSkillOverrides.nullish(),
  execution_identity: identity.nullish(),
  multiagent: z.looseObject({}).nullish(),
  version: z.number().int().positive().optional(),
});

/** The stored model config for a model id or config. Pure. */
export function resolveModel(input: z.infer<typeof model>): BetaManagedAgentsModelConfig {
  if (typeof input === "string") return { id: input };
  const e = input.effort;
  return {
    id: input.id,
    ...(e === null || e === undefined ? {} : { effort: typeof e === "string" ? { type: e } : e }),
    ...(input.inference_geo === null || input.inference_geo === undefined
      ? {}
      : { inference_geo: input.inference_geo }),
    ...(input.speed === null || input.speed === undefined ? {} : { speed: input.speed }),
  };
}

/**
 * Resolves skill references: each custom skill (and pinned version) must exist in the workspace, and no two
 * may share a name (the Skill tool calls a skill by its name): a 400 names the clash.
 */
async function resolveSkills(
  store: Store,
  workspaceId: string,
  skills: readonly z.infer<typeof skill>[],
): Promise<BetaManagedAgentsAgent["skills"]> {
  const out: BetaManagedAgentsAgent["skills"] = [];
  const byName = new Map<string, string>();
  for (const ref of skills) {
    if (ref.type === "anthropic") {
      throw notImplemented(
        `skills: {"type":"anthropic"} (Anthropic's own skill ${JSON.stringify(ref.skill_id)})`,
        `upload the skill and use {"type":"custom"}`,
      );
    }
    const version = ref.version ?? "latest";
    const found = await store.skills
      .getVersion(workspaceId, ref.skill_id, version)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) {
          throw invalid(`skills: ${error.message} in this workspace`);
        }
        throw error;
      });
    const clash = byName.get(found.name);
    if (clash === ref.skill_id) throw invalid(`skills: skill ${ref.skill_id} is listed twice`);
    if (clash !== undefined) {
      throw invalid(
        `skills: skills ${clash} and ${ref.skill_id} are both named ${JSON.stringify(found.name)}; an agent's skills need distinct names`,
      );
    }
    byName.set(found.name, ref.skill_id);
    out.push({ type: "custom", skill_id: ref.skill_id, version });
  }
  return out;
}

type ToolConfig = BetaManagedAgentsAgentToolset20260401["configs"][number];

/** One file or shell tool's config, named and typed alike (the SDK's union, one member per tool). Pure. */
function fileToolConfig(
  name: "bash" | "edit" | "read" | "write" | "glob" | "grep",
  rest: Pick<ToolConfig, "enabled" | "permission_policy">,
): ToolConfig {
  switch (name) {
    case "bash":
      return { name, type: name, ...rest };
    case "edit":
      return { name, type: name, ...rest };
    case "read":
      return { name, type: name, ...rest };
    case "write":
      return { name, type: name, ...rest };
    case "glob":
      return { name, type: name, ...rest };
    case "grep":
      return { name, type: name, ...rest };
  }
}

function resolveTools(tools: readonly z.infer<typeof tool>[]): BetaManagedAgentsAgent["tools"] {
  const names = new Set<string>();
  return tools.map((t) => {
    if (t.type === "custom") {
      if (names.has(t.name)) throw invalid(`tools: custom tool ${JSON.stringify(t.name)} is defined twice`);
      names.add(t.name);
      return { type: "custom", name: t.name, description: t.description, input_schema: t.input_schema };
    }
    const defaults = {
      enabled: t.default_config?.enabled ?? true,
      permission_policy: t.default_config?.permission_policy ?? { type: "always_allow" as const },
    };
    if (t.type === "mcp_toolset") {
      const configs = (t.configs ?? []).map((config) => ({
        name: config.name,
        enabled: config.enabled ?? defaults.enabled,
        permission_policy: config.permission_policy ?? defaults.permission_policy,
      }));
      return { type: "mcp_toolset", mcp_server_name: t.mcp_server_name, configs, default_config: defaults };
    }
    const configs = (t.configs ?? []).map((config) => {
      const { name } = config;
      if (name === "web_fetch" || name === "web_search") {
        throw notImplemented(`tools: ${name}`);
      }
      if (config.type !== undefined && config.type !== name) {
        throw invalid(`tools: a ${name} config has type ${JSON.stringify(config.type)}`);
      }
      return fileToolConfig(name, {
        enabled: config.enabled ?? defaults.enabled,
        permission_policy: config.permission_policy ?? defaults.permission_policy,
      });
    });
    // Stored as configured; served sessions get no file or shell tools unless the operator turns them on.
    return { type: "agent_toolset_20260401", configs, default_config: defaults };
  });
}

/**
 * Checks that MCP servers and toolsets name each other (the SDK's rule): server names are unique, each
 * `mcp_toolset` names a server of `mcp_servers` and no server has two, and every server is named by a toolset.
 * Throws a 400 naming the culprit. Pure.
 */
export function checkMcpReferences(
  servers: BetaManagedAgentsAgent["mcp_servers"],
  tools: BetaManagedAgentsAgent["tools"],
): void {
  const names = new Set<string>();
  for (const server of servers) {
    if (names.has(server.name))
      throw invalid(`mcp_servers: the name ${JSON.stringify(server.name)} is used twice`);
    names.add(server.name);
  }
  const used = new Set<string>();
  for (const t of tools) {
    if (t.type !== "mcp_toolset") continue;
    const name = t.mcp_server_name;
    if (!names.has(name)) {
      throw invalid(
        `tools: mcp_toolset names MCP server ${JSON.stringify(name)}, which is not in mcp_servers (${[...names].map((n) => JSON.stringify(n)).join(", ") || "none"})`,
      );
    }
    if (used.has(name))
      throw invalid(`tools: MCP server ${JSON.stringify(name)} has two mcp_toolset entries`);
    used.add(name);
  }
  for (const name of names) {
    if (!used.has(name)) {
      throw invalid(
        `mcp_servers: MCP server ${JSON.stringify(name)} is not referenced by any mcp_toolset in tools; add {"type":"mcp_toolset","mcp_server_name":${JSON.stringify(name)}}`,
      );
    }
  }
}

/** `/v1/agents`: the SDK's `client.beta.agents` (+ `versions`). */
export function agentsRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => {
    const body = await jsonBody(c, createSchema);
    if (body.multiagent !== undefined && body.multiagent !== null) throw notImplemented("agents: multiagent");
    const agent: AgentBody = {
      name: body.name,
      description: body.description ?? null,
      model: resolveModel(body.model),
      system: body.system ?? null,
      skills: await resolveSkills(store, c.var.workspaceId, body.skills ?? []),
      tools: resolveTools(body.tools ?? []),
      mcp_servers: body.mcp_servers ?? [],
      metadata: body.metadata ?? {},
      execution_identity: body.execution_identity ?? { type: "service_account" },
      multiagent: null,
      ...(body.skill_overrides === undefined ? {} : { skill_overrides: body.skill_overrides }),
    };
    checkMcpReferences(agent.mcp_servers, agent.tools);
    return c.json(await store.agents.create(c.var.workspaceId, agent));
  });
  app.get("/", async (c) => {
    refuseUnservedQuery(c, "agents.list", ["created_at[gte]", "created_at[lte]"]);
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.agents.list(c.var.workspaceId, page, boolQuery(c, "include_archived")));
  });
  app.get("/:id", async (c) => {
    const raw = c.req.query("version");
    const version = raw === undefined ? undefined : Number(raw);
    if (version !== undefined && (!Number.isInteger(version) || version < 1)) {
      throw invalid(`version must be a positive whole number, got ${JSON.stringify(raw)}`);
    }
    return c.json(await store.agents.get(c.var.workspaceId, c.req.param("id"), version));
  });
  app.post("/:id", async (c) => {
    const body = await jsonBody(c, updateSchema);
    if (body.multiagent !== undefined && body.multiagent !== null) throw notImplemented("agents: multiagent");
    const ws = c.var.workspaceId;
    const skills = body.skills === undefined ? undefined : await resolveSkills(store, ws, body.skills ?? []);
    const tools = body.tools === undefined ? undefined : resolveTools(body.tools ?? []);
    const agent = await store.agents.update(
      ws,
      c.req.param("id"),
      (current) => {
        const next: AgentBody = {
          ...current,
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.model === undefined ? {} : { model: resolveModel(body.model) }),
          ...(body.description === undefined ? {} : { description: body.description }),
          ...(body.system === undefined ? {} : { system: body.system }),
          ...(skills === undefined ? {} : { skills }),
          ...(tools === undefined ? {} : { tools }),
          ...(body.mcp_servers === undefined ? {} : { mcp_servers: body.mcp_servers ?? [] }),
          ...(body.execution_identity === undefined
            ? {}
            : { execution_identity: body.execution_identity ?? { type: "service_account" } }),
          metadata: patchMetadata(current.metadata, body.metadata),
        };
        // `skill_overrides` replaces the agent's whole map; null removes it.
        if (body.skill_overrides === null) delete next.skill_overrides;
        else if (body.skill_overrides !== undefined) next.skill_overrides = body.skill_overrides;
        checkMcpReferences(next.mcp_servers, next.tools);
        return next;
      },
      body.version,
    );
    return c.json(agent);
  });
  app.post("/:id/archive", async (c) =>
    c.json(await store.agents.archive(c.var.workspaceId, c.req.param("id"))),
  );
  app.get("/:id/versions", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.agents.listVersions(c.var.workspaceId, c.req.param("id"), page));
  });
  return app;
}
