import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import * as z from "zod";
import { SKILL_OVERRIDE_STATES } from "../../skill/skill-override.js";
import { ApiError, notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text } from "./rows.js";
import { lockSkillRefs } from "./skill-references.js";

/**
 * skillwright's own field of an agent, beside the SDK's (issue #42): Claude Code's `skillOverrides` for the
 * agent's sessions, by skill name or glob (`on`, `name-only`, `user-invocable-only`, `off`).
 */
export const AgentSkillOverrides = z.record(z.string().trim().min(1), z.enum(SKILL_OVERRIDE_STATES));
export type AgentSkillOverrides = z.infer<typeof AgentSkillOverrides>;

/** An agent's configuration: everything a version fixes (checked and resolved by the route). */
export type AgentBody = Omit<
  BetaManagedAgentsAgent,
  "id" | "type" | "version" | "archived_at" | "created_at" | "updated_at"
> & { skill_overrides?: AgentSkillOverrides };

/**
 * The `skill_overrides` an agent (or the agent a session pins) carries; undefined when it has none or they are
 * not overrides (a row written before the field existed has none). Pure.
 */
export function skillOverridesOf(agent: object): AgentSkillOverrides | undefined {
  if (!("skill_overrides" in agent)) return undefined;
  const parsed = AgentSkillOverrides.safeParse(agent.skill_overrides);
  return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : undefined;
}

function agentOf(row: SqlRow): BetaManagedAgentsAgent {
  return {
    ...(record(row, "body") as unknown as AgentBody),
    id: text(row, "id"),
    type: "agent",
    version: num(row, "version"),
    archived_at: isoOrNull(row, "archived_at"),
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "version_created_at"),
  };
}

const SELECT = `SELECT a.id, a.seq, a.archived_at, a.created_at, v.version, v.body, v.created_at AS version_created_at
  FROM agents a JOIN agent_versions v ON v.agent_id = a.id`;

/** Agents and their numbered versions. */
export interface AgentStore {
  /** Creates version 1; its skills are locked and checked in the same transaction (400 when one is gone). */
  create(workspaceId: string, body: AgentBody): Promise<BetaManagedAgentsAgent>;
  /** The current version, or version `version`. */
  get(workspaceId: string, id: string, version?: number): Promise<BetaManagedAgentsAgent>;
  /**
   * Writes a new version from `patch(current)` (none when nothing changed). `expectedVersion`, when given,
   * must be the current version (409 otherwise): two editors cannot silently overwrite each other. Changed
   * skills are locked and checked in the same transaction (400 when one is gone).
   */
  update(
    workspaceId: string,
    id: string,
    patch: (current: AgentBody) => AgentBody,
    expectedVersion?: number,
  ): Promise<BetaManagedAgentsAgent>;
  list(
    workspaceId: string,
    page: PageRequest,
    includeArchived: boolean,
  ): Promise<Page<BetaManagedAgentsAgent>>;
  listVersions(workspaceId: string, id: string, page: PageRequest): Promise<Page<BetaManagedAgentsAgent>>;
  archive(workspaceId: string, id: string): Promise<BetaManagedAgentsAgent>;
}

/** The agent store over `db`. */
export function createAgentStore(db: SqlDriver): AgentStore {
  const getRow = async (q: SqlQuery, workspaceId: string, id: string, version?: number): Promise<SqlRow> => {
    const [row] = await q.query(
      `${SELECT} WHERE a.id = $1 AND a.workspace_id = $2 AND v.version = coalesce($3::integer, a.version)`,
      [id, workspaceId, version ?? null],
    );
    if (row === undefined)
      throw notFound(version === undefined ? "agent" : `version ${version} of agent`, id);
    return row;
  };
  return {
    async create(workspaceId, body) {
      const id = newId("agent");
      return db.transaction(async (tx) => {
        await lockSkillRefs(tx, workspaceId, body.skills);
        await tx.query("INSERT INTO agents (id, workspace_id, version) VALUES ($1, $2, 1)", [
          id,
          workspaceId,
        ]);
        await tx.query("INSERT INTO agent_versions (agent_id, version, body) VALUES ($1, 1, $2::jsonb)", [
          id,
          JSON.stringify(body),
        ]);
        return agentOf(await getRow(tx, workspaceId, id));
      });
    },
    async get(workspaceId, id, version) {
      return agentOf(await getRow(db, workspaceId, id, version));
    },
    async update(workspaceId, id, patch, expectedVersion) {
      return db.transaction(async (tx) => {
        const [locked] = await tx.query(
          "SELECT version FROM agents WHERE id = $1 AND workspace_id = $2 FOR UPDATE",
          [id, workspaceId],
        );
        if (locked === undefined) throw notFound("agent", id);
        const current = num(locked, "version");
        if (expectedVersion !== undefined && expectedVersion !== current) {
          throw new ApiError(
            "conflict_error",
            `agent ${id} is at version ${current}, not ${expectedVersion}: retrieve it and apply the change again`,
          );
        }
        const row = await getRow(tx, workspaceId, id);
        const before = record(row, "body") as unknown as AgentBody;
        const after = patch(before);
        if (JSON.stringify(after) === JSON.stringify(before)) return agentOf(row);
        if (JSON.stringify(after.skills) !== JSON.stringify(before.skills)) {
          await lockSkillRefs(tx, workspaceId, after.skills);
        }
        await tx.query("INSERT INTO agent_versions (agent_id, version, body) VALUES ($1, $2, $3::jsonb)", [
          id,
          current + 1,
          JSON.stringify(after),
        ]);
        await tx.query("UPDATE agents SET version = $1, updated_at = now() WHERE id = $2", [current + 1, id]);
        return agentOf(await getRow(tx, workspaceId, id));
      });
    },
    async list(workspaceId, page, includeArchived) {
      const rows = await db.query(
        `${SELECT} AND v.version = a.version WHERE a.workspace_id = $1 AND ($2::bigint IS NULL OR a.seq < $2)${includeArchived ? "" : " AND a.archived_at IS NULL"} ORDER BY a.seq DESC LIMIT $3`,
        [workspaceId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: agentOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async listVersions(workspaceId, id, page) {
      await getRow(db, workspaceId, id);
      const rows = await db.query(
        `${SELECT} WHERE a.id = $1 AND a.workspace_id = $2 AND ($3::integer IS NULL OR v.version < $3) ORDER BY v.version DESC LIMIT $4`,
        [id, workspaceId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: agentOf(row), seq: num(row, "version") })),
        page.limit,
      );
    },
    async archive(workspaceId, id) {
      await getRow(db, workspaceId, id);
      await db.query(
        "UPDATE agents SET archived_at = coalesce(archived_at, now()), updated_at = now() WHERE id = $1",
        [id],
      );
      return agentOf(await getRow(db, workspaceId, id));
    },
  };
}
