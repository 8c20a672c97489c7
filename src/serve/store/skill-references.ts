import { ApiError, invalid } from "../errors.js";
import type { SqlQuery } from "./driver.js";
import { text } from "./rows.js";

/** How many agents a "skill in use" answer names; the rest are counted. */
export const MAX_NAMED_AGENTS = 20;

/** An agent that uses a skill: its id and name. */
export interface SkillUser {
  id: string;
  name: string;
}

/** A skill reference as an agent stores it: the skill and `latest` or a version id. */
export interface SkillRef {
  skill_id: string;
  version: string;
}

/**
 * The agents of the workspace whose current version lists skill `skillId` (and, when `versionId` is given,
 * pins that version), in creation order. Archived agents are left out: they start no new sessions.
 */
export async function agentsUsingSkill(
  q: SqlQuery,
  workspaceId: string,
  skillId: string,
  versionId?: string,
): Promise<SkillUser[]> {
  const ref = versionId === undefined ? { skill_id: skillId } : { skill_id: skillId, version: versionId };
  const rows = await q.query(
    `SELECT a.id, v.body->>'name' AS name
       FROM agents a JOIN agent_versions v ON v.agent_id = a.id AND v.version = a.version
      WHERE a.workspace_id = $1 AND a.archived_at IS NULL AND v.body->'skills' @> $2::jsonb
      ORDER BY a.seq`,
    [workspaceId, JSON.stringify([ref])],
  );
  return rows.map((row) => ({ id: text(row, "id"), name: text(row, "name") }));
}

/**
 * The 409 `conflict_error` for deleting `what` (a skill, or a version of one) while `users` use it: names
 * the agents (at most {@link MAX_NAMED_AGENTS}, then a count) and says how to free it. Pure.
 */
export function skillInUse(what: string, users: readonly SkillUser[]): ApiError {
  const named = users
    .slice(0, MAX_NAMED_AGENTS)
    .map((agent) => `${agent.id} (${JSON.stringify(agent.name)})`)
    .join(", ");
  const more = users.length > MAX_NAMED_AGENTS ? ` and ${users.length - MAX_NAMED_AGENTS} more` : "";
  const count = users.length === 1 ? "1 agent" : `${users.length} agents`;
  return new ApiError(
    "conflict_error",
    `${what} is used by ${count}: ${named}${more}; remove it from their skills (agents.update) or archive them, then delete it`,
  );
}

/**
 * Locks the skills that `refs` name (`FOR SHARE`, until the transaction ends) and checks that each is still
 * in the workspace, with its pinned version: a skill deleted while an agent was being saved is a 400, never
 * an agent that names a missing skill. Deleting a skill or a version locks the skill's row `FOR UPDATE`, so
 * the two wait for each other.
 */
export async function lockSkillRefs(
  tx: SqlQuery,
  workspaceId: string,
  refs: readonly SkillRef[],
): Promise<void> {
  if (refs.length === 0) return;
  const skillIds = [...new Set(refs.map((ref) => ref.skill_id))];
  const found = await tx.query(
    "SELECT id FROM skills WHERE workspace_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb)) ORDER BY id FOR SHARE",
    [workspaceId, JSON.stringify(skillIds)],
  );
  const present = new Set(found.map((row) => text(row, "id")));
  const missing = skillIds.find((id) => !present.has(id));
  if (missing !== undefined)
    throw invalid(`skills: skill ${JSON.stringify(missing)} not found in this workspace`);
  const pinned = refs.filter((ref) => ref.version !== "latest");
  if (pinned.length === 0) return;
  const versions = await tx.query(
    "SELECT id, skill_id FROM skill_versions WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))",
    [JSON.stringify(pinned.map((ref) => ref.version))],
  );
  const have = new Set(versions.map((row) => `${text(row, "skill_id")}/${text(row, "id")}`));
  const gone = pinned.find((ref) => !have.has(`${ref.skill_id}/${ref.version}`));
  if (gone !== undefined) {
    throw invalid(
      `skills: version ${JSON.stringify(gone.version)} of skill ${JSON.stringify(gone.skill_id)} not found in this workspace`,
    );
  }
}
