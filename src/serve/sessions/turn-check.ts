import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { SqlQuery } from "../store/driver.js";
import { num, record } from "../store/rows.js";

/** What a turn checks before it reuses a live session: how far the transcript goes, and the `latest` skills. */
export interface TurnCheck {
  /** The sequence number of the session's last transcript entry (0: none yet). */
  transcriptSeq: number;
  /** Each `latest` skill of the agent and its latest version id (absent: the skill is gone). */
  latest: ReadonlyMap<string, string>;
}

/** The skill ids an agent follows on `latest` (pinned versions never change). Pure. */
export function latestSkillIds(refs: BetaManagedAgentsAgent["skills"]): string[] {
  return refs.flatMap((ref) => (ref.type === "custom" && ref.version === "latest" ? [ref.skill_id] : []));
}

/**
 * One indexed query before a served turn: the session's last transcript entry (another instance may have run
 * a turn since this one's copy was opened) and the latest version of each of `skillIds` in the workspace.
 */
export async function checkTurn(
  db: SqlQuery,
  workspaceId: string,
  sessionId: string,
  skillIds: readonly string[],
): Promise<TurnCheck> {
  const [row] = await db.query(
    `SELECT (SELECT coalesce(max(seq), 0) FROM session_transcripts WHERE session_id = $1) AS transcript_seq,
       (SELECT coalesce(jsonb_object_agg(id, latest_version_id), '{}'::jsonb) FROM skills
        WHERE workspace_id = $2 AND latest_version_id IS NOT NULL
          AND id IN (SELECT jsonb_array_elements_text($3::jsonb))) AS latest`,
    [sessionId, workspaceId, JSON.stringify(skillIds)],
  );
  const latest = new Map<string, string>();
  for (const [id, version] of Object.entries(row === undefined ? {} : record(row, "latest"))) {
    if (typeof version === "string") latest.set(id, version);
  }
  return { transcriptSeq: row === undefined ? 0 : num(row, "transcript_seq"), latest };
}
