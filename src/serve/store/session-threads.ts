import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type {
  BetaManagedAgentsSessionThread,
  BetaManagedAgentsSessionThreadStatus,
} from "@anthropic-ai/sdk/resources/beta/sessions/threads/threads";
import { invalid, notFound } from "../errors.js";
import type { SqlDriver, SqlRow } from "./driver.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text, textOrNull } from "./rows.js";
import { eventOf, SESSION_COLUMNS, type SessionEvent, seconds, sessionOf, usageOf } from "./sessions.js";

const SESSION_PREFIX = "sesn_";
const THREAD_PREFIX = "sthr_";

/**
 * The id of a session's primary thread: its session id's own part under the thread prefix (`sesn_01ab…` →
 * `sthr_01ab…`), so it needs no row and is the same on every instance. Pure.
 */
export function primaryThreadId(sessionId: string): string {
  return (
    THREAD_PREFIX +
    (sessionId.startsWith(SESSION_PREFIX) ? sessionId.slice(SESSION_PREFIX.length) : sessionId)
  );
}

/** A session's threads: its primary thread (the session itself) and the child threads its forks ran on. */
export interface ThreadStore {
  /** The primary thread first, then the children oldest first; `statuses` keeps only those. 404: no session. */
  list(
    workspaceId: string,
    sessionId: string,
    page: PageRequest,
    statuses?: readonly BetaManagedAgentsSessionThreadStatus[],
  ): Promise<Page<BetaManagedAgentsSessionThread>>;
  /** One thread; 404 when the session or the thread (in that session) is unknown. */
  get(workspaceId: string, sessionId: string, threadId: string): Promise<BetaManagedAgentsSessionThread>;
  /** Archives a child thread (again: unchanged); the primary thread is archived with its session (400). */
  archive(workspaceId: string, sessionId: string, threadId: string): Promise<BetaManagedAgentsSessionThread>;
  /**
   * The events on a thread's stream, oldest first: a child's own events; the primary thread's own events and
   * its children's `session.thread_*` events.
   */
  listEvents(
    workspaceId: string,
    sessionId: string,
    threadId: string,
    page: PageRequest,
  ): Promise<Page<SessionEvent>>;
}

const THREAD_COLUMNS = `*,
  active_ms + CASE WHEN running_since IS NULL THEN 0
    ELSE (extract(epoch FROM clock_timestamp() - running_since) * 1000)::bigint END AS active_ms_now,
  (extract(epoch FROM CASE WHEN status = 'terminated' THEN updated_at ELSE now() END - created_at) * 1000)::bigint
    AS age_ms`;

function statusOf(raw: string): BetaManagedAgentsSessionThreadStatus {
  return raw === "running" || raw === "rescheduling" || raw === "terminated" ? raw : "idle";
}

/** The primary thread of a session (as read with `SESSION_COLUMNS`), and the usage its children made. */
function primaryThread(
  session: BetaManagedAgentsSession,
  row: SqlRow,
  children: { input: number; output: number; cacheRead: number; cacheCreation: number },
): BetaManagedAgentsSessionThread {
  const usage = usageOf(row);
  const activeSeconds = seconds(num(row, "active_ms_now"));
  return {
    id: primaryThreadId(session.id),
    type: "session_thread",
    session_id: session.id,
    parent_thread_id: null,
    agent: {
      id: session.agent.id,
      type: "agent",
      version: session.agent.version,
      name: session.agent.name,
      description: session.agent.description,
      model: session.agent.model,
      system: session.agent.system,
      skills: session.agent.skills,
      tools: session.agent.tools,
      mcp_servers: session.agent.mcp_servers,
      execution_identity: session.agent.execution_identity,
    },
    status: session.status,
    archived_at: session.archived_at,
    created_at: session.created_at,
    updated_at: session.updated_at,
    stats: { active_seconds: activeSeconds, duration_seconds: seconds(num(row, "age_ms")) },
    usage: {
      input_tokens: usage.input_tokens - children.input,
      output_tokens: usage.output_tokens - children.output,
      cache_read_input_tokens: usage.cache_read_input_tokens - children.cacheRead,
      cache_creation: {
        ephemeral_1h_input_tokens: 0,
        ephemeral_5m_input_tokens: usage.cache_creation.ephemeral_5m_input_tokens - children.cacheCreation,
      },
      active_seconds: activeSeconds,
    },
    workflow_run_id: null,
  };
}

function childThread(row: SqlRow): BetaManagedAgentsSessionThread {
  const activeSeconds = seconds(num(row, "active_ms_now"));
  return {
    id: text(row, "id"),
    type: "session_thread",
    session_id: text(row, "session_id"),
    parent_thread_id: textOrNull(row, "parent_thread_id"),
    agent: record(row, "agent") as unknown as BetaManagedAgentsSessionThread["agent"],
    status: statusOf(text(row, "status")),
    archived_at: isoOrNull(row, "archived_at"),
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
    stats: {
      active_seconds: activeSeconds,
      duration_seconds: seconds(num(row, "age_ms")),
      startup_seconds: 0,
    },
    // Null until the thread first goes idle (or terminates), as the SDK types it.
    usage: row.idled === true ? { ...usageOf(row), active_seconds: activeSeconds } : null,
    workflow_run_id: null,
  };
}

/** The thread store over `db`. */
export function createThreadStore(db: SqlDriver): ThreadStore {
  const sessionRow = async (workspaceId: string, sessionId: string): Promise<SqlRow> => {
    const [row] = await db.query(
      `SELECT ${SESSION_COLUMNS},
         (SELECT coalesce(sum(t.input_tokens), 0) FROM session_threads t WHERE t.session_id = sessions.id) AS t_in,
         (SELECT coalesce(sum(t.output_tokens), 0) FROM session_threads t WHERE t.session_id = sessions.id) AS t_out,
         (SELECT coalesce(sum(t.cache_read_input_tokens), 0) FROM session_threads t WHERE t.session_id = sessions.id) AS t_read,
         (SELECT coalesce(sum(t.cache_creation_input_tokens), 0) FROM session_threads t WHERE t.session_id = sessions.id) AS t_write
       FROM sessions WHERE id = $1 AND workspace_id = $2`,
      [sessionId, workspaceId],
    );
    if (row === undefined) throw notFound("session", sessionId);
    return row;
  };
  const primary = async (workspaceId: string, sessionId: string) => {
    const row = await sessionRow(workspaceId, sessionId);
    return primaryThread(sessionOf(row), row, {
      input: num(row, "t_in"),
      output: num(row, "t_out"),
      cacheRead: num(row, "t_read"),
      cacheCreation: num(row, "t_write"),
    });
  };
  const child = async (workspaceId: string, sessionId: string, threadId: string) => {
    const [row] = await db.query(
      `SELECT ${THREAD_COLUMNS} FROM session_threads t
       WHERE t.id = $1 AND t.session_id = $2
         AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = $2 AND s.workspace_id = $3)`,
      [threadId, sessionId, workspaceId],
    );
    if (row === undefined) {
      await sessionRow(workspaceId, sessionId);
      throw notFound("session thread", threadId);
    }
    return childThread(row);
  };
  return {
    async list(workspaceId, sessionId, page, statuses) {
      const first = await primary(workspaceId, sessionId);
      const wanted = (status: string) =>
        statuses === undefined || statuses.length === 0 || (statuses as readonly string[]).includes(status);
      // The primary thread is seq 0 in the cursor space; children follow by their own seq.
      const head = page.after === undefined && wanted(first.status) ? [{ item: first, seq: 0 }] : [];
      const rows = await db.query(
        `SELECT ${THREAD_COLUMNS} FROM session_threads
         WHERE session_id = $1 AND seq > $2
           AND ($3::text IS NULL OR status = ANY(string_to_array($3, ',')))
         ORDER BY seq ASC LIMIT $4`,
        [
          sessionId,
          page.after ?? 0,
          statuses === undefined || statuses.length === 0 ? null : statuses.join(","),
          page.limit + 1,
        ],
      );
      return toPage(
        [...head, ...rows.map((row) => ({ item: childThread(row), seq: num(row, "seq") }))],
        page.limit,
      );
    },
    async get(workspaceId, sessionId, threadId) {
      return threadId === primaryThreadId(sessionId)
        ? primary(workspaceId, sessionId)
        : child(workspaceId, sessionId, threadId);
    },
    async archive(workspaceId, sessionId, threadId) {
      if (threadId === primaryThreadId(sessionId)) {
        await sessionRow(workspaceId, sessionId);
        throw invalid(`${threadId} is the session's primary thread: archive the session instead`);
      }
      await child(workspaceId, sessionId, threadId);
      await db.query(
        "UPDATE session_threads SET archived_at = coalesce(archived_at, now()), updated_at = now() WHERE id = $1",
        [threadId],
      );
      return child(workspaceId, sessionId, threadId);
    },
    async listEvents(workspaceId, sessionId, threadId, page) {
      const isPrimary = threadId === primaryThreadId(sessionId);
      if (!isPrimary) await child(workspaceId, sessionId, threadId);
      else await sessionRow(workspaceId, sessionId);
      const rows = await db.query(
        `SELECT * FROM session_events WHERE session_id = $1 AND ($2::integer IS NULL OR seq > $2)
           AND ${isPrimary ? "(thread_id IS NULL OR left(type, 15) = 'session.thread_')" : "thread_id = $4"}
         ORDER BY seq ASC LIMIT $3`,
        [sessionId, page.after ?? null, page.limit + 1, ...(isPrimary ? [] : [threadId])],
      );
      return toPage(
        rows.map((row) => ({ item: eventOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
  };
}
