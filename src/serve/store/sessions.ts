import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import { ApiError, notFound } from "../errors.js";
import type { SqlDriver, SqlParam, SqlQuery, SqlRow } from "./driver.js";
import { batchEffects, threadOf } from "./event-effects.js";
import { newId } from "./ids.js";
import { OUTCOME_EVENTS_COLUMN, outcomeEvaluationsOf } from "./outcome-evaluations.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text } from "./rows.js";
import type { StoredResource } from "./session-resources.js";
import { appendTranscript, type TranscriptRows, transcriptJson } from "./session-transcripts.js";
import { waitMark } from "./session-waits.js";
import { storableJson } from "./storable-text.js";

/** What a session holds besides its ids, status and timestamps. */
export interface SessionBody {
  agent: BetaManagedAgentsSession["agent"];
  title: string | null;
  metadata: Record<string, string>;
  vault_ids: string[];
  /** Its memory stores and files, in the order attached; absent: none. */
  resources?: StoredResource[];
}

/** What a session is created from: the agent version it pins and the environment it runs in. */
export interface NewSession extends SessionBody {
  environmentId: string;
}

/** One stored event: what the SDK reads (`id`, `type`, `processed_at`, the rest of its fields). */
export type SessionEvent = { id: string; type: string; processed_at: string } & Record<string, unknown>;

/** The user events that each start a turn of their own and wait in the session's queue until it runs. */
export const TURN_INPUT_TYPES = ["user.message", "user.define_outcome"] as const;

/** Whether an event of `type` starts a turn of its own (see {@link TURN_INPUT_TYPES}). Pure. */
export function isTurnInput(type: string): boolean {
  return (TURN_INPUT_TYPES as readonly string[]).includes(type);
}

/** The most events one `eventsSince` returns. */
export const EVENTS_SINCE_LIMIT = 1000;

/**
 * A session's events after sequence number `after` (0: all), page by page ({@link EVENTS_SINCE_LIMIT} at most
 * each), oldest first, until the last one stored now.
 */
export async function* eventPages(
  sessions: Pick<SessionStore, "eventsSince">,
  workspaceId: string,
  id: string,
  after = 0,
): AsyncGenerator<{ seq: number; event: SessionEvent }[]> {
  for (let seq = after; ; ) {
    const page = await sessions.eventsSince(workspaceId, id, seq);
    yield page;
    if (page.length < EVENTS_SINCE_LIMIT) return;
    seq = page.at(-1)?.seq ?? seq;
  }
}

/** Filters of a session listing. */
export interface SessionFilter {
  agentId?: string;
  agentVersion?: number;
  includeArchived: boolean;
  order: "asc" | "desc";
  statuses?: string[];
}

/** What else an `appendEvents` statement does besides storing the events. */
export interface AppendOptions {
  /** Set as the session's status in the same statement (a status change and its event are one write). */
  status?: BetaManagedAgentsSession["status"];
  /**
   * The events' ids, one per event (from {@link newEventId}: a writer that names its events before they are
   * stored); absent, each gets a new one. An event's own `id` field is never used.
   */
  eventIds?: readonly string[];
  /**
   * A PostgreSQL NOTIFY channel: the statement also notifies it with the session id (delivered when the events
   * are committed), so the other instances' streams wake without a second round trip.
   */
  notify?: string;
  /**
   * Who appends, added to the NOTIFY's payload after the session id and a space (`sesn_… ORIGIN`), so that an
   * instance can skip the announcements of its own appends (its streams have them already).
   */
  origin?: string;
  /**
   * Takes the session's queued user events up to seq `upTo` (run, dropped or obeyed: see
   * {@link SessionStore.queuedInputs}), `messages` of them `user.message` events leaving the queue.
   */
  take?: { upTo: number; messages: number };
  /**
   * Refuses the append with a 429 `rate_limit_error` when its `user.message` events would leave more than
   * this many queued (not yet taken) on the session; nothing is stored then.
   */
  maxQueued?: number;
  /**
   * The events are one `user.message` and the `session.status_running` of its turn, which starts at once:
   * stored (the message taken) only when nothing else waits, runs or is archived on the session (no queued
   * message, status not `running`, no wait on the user); otherwise nothing is stored and the append
   * resolves with no events.
   */
  startsTurn?: boolean;
  /** Child threads (forks) to create with the events, in the same transaction, before them. */
  threads?: readonly NewThread[];
  /** Transcript rows to store in the same statement (nothing is stored when the events are not). */
  transcript?: TranscriptRows;
}

/** A session's queue as its turn runner reads it: the session's state and its untaken user events. */
export interface QueuedInputs {
  status: BetaManagedAgentsSession["status"];
  archived: boolean;
  /** Whether the session's last status event is a `session.status_idle` waiting on the user. */
  waiting: boolean;
  /** The seq up to which user events are taken. */
  takenSeq: number;
  /** The `user.message` and `user.interrupt` events after `takenSeq`, oldest first (at most {@link EVENTS_SINCE_LIMIT}). */
  inputs: { seq: number; event: SessionEvent }[];
}

/** A session that may have work no instance runs: its status is `running`, or it has queued messages. */
export interface BusySessionRef {
  workspaceId: string;
  sessionId: string;
}

/** The most sessions one {@link findBusySessions} returns. */
export const BUSY_SESSIONS_LIMIT = 100;

/**
 * The sessions (archived ones too) whose status is `running` or that have queued messages, least recently
 * updated first: one query over the `sessions_busy` partial index. A live instance's sessions show here
 * too; the caller takes the turn lock before acting on one.
 */
export async function findBusySessions(db: SqlQuery): Promise<BusySessionRef[]> {
  const rows = await db.query(
    `SELECT workspace_id, id FROM sessions WHERE status = 'running' OR queued > 0
     ORDER BY updated_at LIMIT ${BUSY_SESSIONS_LIMIT}`,
  );
  return rows.map((row) => ({ workspaceId: text(row, "workspace_id"), sessionId: text(row, "id") }));
}

/** A child thread (a fork) as it starts: what `threads.list` shows of it besides its status and counts. */
export interface NewThread {
  id: string;
  /** The thread that started it (the primary thread's id for the main agent). */
  parentThreadId: string;
  agentName: string;
  /** The SDK's thread `agent` (an inline agent for a fork). */
  agent: Record<string, unknown>;
}

/**
 * A session row's columns plus what its `usage` and `stats` need, computed by the database so every instance
 * agrees: `active_ms_now` (its running time, the current spell included), `threads_active_ms` (its child
 * threads' running time), `age_ms` (since creation; frozen at the last update once terminated).
 */
export const SESSION_COLUMNS = `*,
  active_ms + CASE WHEN running_since IS NULL THEN 0
    ELSE (extract(epoch FROM clock_timestamp() - running_since) * 1000)::bigint END AS active_ms_now,
  (SELECT coalesce(sum(t.active_ms + CASE WHEN t.running_since IS NULL THEN 0
     ELSE (extract(epoch FROM clock_timestamp() - t.running_since) * 1000)::bigint END), 0)
   FROM session_threads t WHERE t.session_id = sessions.id) AS threads_active_ms,
  (extract(epoch FROM CASE WHEN status = 'terminated' THEN updated_at ELSE now() END - created_at) * 1000)::bigint
    AS age_ms,
  ${OUTCOME_EVENTS_COLUMN}`;

/**
 * The SQL that keeps a row's running time as its status changes to `$n` (NULL: unchanged): a spell starts when
 * it becomes running, ends (adding to `active_ms`) when it becomes anything else. It reads the clock, not the
 * transaction's start, so a spell that starts and ends in one transaction still counts.
 */
export function runningClock(param: string): string {
  return `active_ms = active_ms + CASE WHEN ${param}::text IS NOT NULL AND ${param} <> 'running' AND running_since IS NOT NULL
      THEN (extract(epoch FROM clock_timestamp() - running_since) * 1000)::bigint ELSE 0 END,
    running_since = CASE WHEN ${param}::text IS NULL THEN running_since
      WHEN ${param} = 'running' THEN coalesce(running_since, clock_timestamp()) ELSE NULL END`;
}

/** A new session event id (`sevt_…`). */
export function newEventId(): string {
  return newId("sevt");
}

/** A session row (read with {@link SESSION_COLUMNS}) as the SDK's session. */
export function sessionOf(row: SqlRow): BetaManagedAgentsSession {
  const body = record(row, "body") as unknown as SessionBody;
  const status = text(row, "status");
  return {
    ...body,
    id: text(row, "id"),
    type: "session",
    environment_id: text(row, "environment_id"),
    status: status === "running" || status === "rescheduling" || status === "terminated" ? status : "idle",
    archived_at: isoOrNull(row, "archived_at"),
    budget: null,
    outcome_evaluations: outcomeEvaluationsOf(row.outcome_events),
    resources: (body.resources ?? []).map((r) => r.resource),
    stats: {
      active_seconds: seconds(num(row, "active_ms_now") + num(row, "threads_active_ms")),
      duration_seconds: seconds(num(row, "age_ms")),
    },
    usage: { ...usageOf(row), active_seconds: seconds(num(row, "active_ms_now")) },
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
  };
}

/** Milliseconds as seconds, to the millisecond. Pure. */
export function seconds(ms: number): number {
  return Number.isFinite(ms) ? Math.max(0, ms) / 1000 : 0;
}

/**
 * A row's token counts as the SDK's usage: the engine's cache writes all use the default 5-minute TTL, so
 * they are all `ephemeral_5m_input_tokens`. Pure.
 */
export function usageOf(row: SqlRow): {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number };
} {
  return {
    input_tokens: num(row, "input_tokens"),
    output_tokens: num(row, "output_tokens"),
    cache_read_input_tokens: num(row, "cache_read_input_tokens"),
    cache_creation: {
      ephemeral_1h_input_tokens: 0,
      ephemeral_5m_input_tokens: num(row, "cache_creation_input_tokens"),
    },
  };
}

/** A stored event as the SDK reads it. */
export function eventOf(row: SqlRow): SessionEvent {
  return {
    ...record(row, "body"),
    id: text(row, "id"),
    type: text(row, "type"),
    processed_at: iso(row, "created_at"),
  };
}

/** Sessions and their events (append-only, ordered per session). */
export interface SessionStore {
  create(workspaceId: string, session: NewSession): Promise<BetaManagedAgentsSession>;
  get(workspaceId: string, id: string): Promise<BetaManagedAgentsSession>;
  update(
    workspaceId: string,
    id: string,
    patch: (current: SessionBody) => SessionBody,
  ): Promise<BetaManagedAgentsSession>;
  list(
    workspaceId: string,
    page: PageRequest,
    filter: SessionFilter,
  ): Promise<Page<BetaManagedAgentsSession>>;
  delete(workspaceId: string, id: string): Promise<void>;
  /** The session's resources as its row keeps them (with whether each was given at create). */
  storedResources(workspaceId: string, id: string): Promise<StoredResource[]>;
  archive(workspaceId: string, id: string): Promise<BetaManagedAgentsSession>;
  setStatus(workspaceId: string, id: string, status: BetaManagedAgentsSession["status"]): Promise<void>;
  /**
   * Appends events in one statement, in order after every earlier one; returns them as stored. See
   * {@link AppendOptions} for the status, the ids and the announcement that can go in the same statement.
   */
  appendEvents(
    workspaceId: string,
    id: string,
    events: readonly ({ type: string } & Record<string, unknown>)[],
    options?: AppendOptions,
  ): Promise<SessionEvent[]>;
  /** {@link SessionStore.appendEvents}, each stored event with its sequence number (for streams on this instance). */
  appendSequenced(
    workspaceId: string,
    id: string,
    events: readonly ({ type: string } & Record<string, unknown>)[],
    options?: AppendOptions,
  ): Promise<{ seq: number; event: SessionEvent }[]>;
  listEvents(workspaceId: string, id: string, page: PageRequest): Promise<Page<SessionEvent>>;
  /**
   * Events after sequence number `after` (0: all), oldest first, each with its sequence number; at most
   * {@link EVENTS_SINCE_LIMIT}.
   */
  eventsSince(
    workspaceId: string,
    id: string,
    after: number,
  ): Promise<{ seq: number; event: SessionEvent }[]>;
  /** The session's status and its user events not taken yet (one query). */
  queuedInputs(workspaceId: string, id: string): Promise<QueuedInputs>;
  /** The sequence number of the session's last event (0: none yet); one row, whatever the history's length. */
  lastEventSeq(workspaceId: string, id: string): Promise<number>;
  /**
   * The sequence number of the session's last `session.status_idle` that ended a turn (any stop reason but
   * `requires_action`), 0 when none: the events after it are the current (or last) turn's. Reads back from
   * the newest event, not the whole history.
   */
  turnStartSeq(workspaceId: string, id: string): Promise<number>;
}

/** The session store over `db`. */
export function createSessionStore(db: SqlDriver): SessionStore {
  const getRow = async (q: SqlQuery, workspaceId: string, id: string, lock = false): Promise<SqlRow> => {
    const [row] = await q.query(
      `SELECT ${lock ? "*" : SESSION_COLUMNS} FROM sessions WHERE id = $1 AND workspace_id = $2${lock ? " FOR UPDATE" : ""}`,
      [id, workspaceId],
    );
    if (row === undefined) throw notFound("session", id);
    return row;
  };
  const store: SessionStore = {
    async create(workspaceId, session) {
      const id = newId("sesn");
      const { environmentId, ...body } = session;
      // The new row as `get` reads it, in the same statement.
      const [row] = await db.query(
        `INSERT INTO sessions (id, workspace_id, agent_id, agent_version, environment_id, body)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING ${SESSION_COLUMNS}`,
        [id, workspaceId, body.agent.id, body.agent.version, environmentId, JSON.stringify(body)],
      );
      return sessionOf(row ?? (await getRow(db, workspaceId, id)));
    },
    async get(workspaceId, id) {
      return sessionOf(await getRow(db, workspaceId, id));
    },
    async update(workspaceId, id, patch) {
      return db.transaction(async (tx) => {
        const current = record(await getRow(tx, workspaceId, id, true), "body") as unknown as SessionBody;
        await tx.query("UPDATE sessions SET body = $1::jsonb, updated_at = now() WHERE id = $2", [
          JSON.stringify(patch(current)),
          id,
        ]);
        return sessionOf(await getRow(tx, workspaceId, id));
      });
    },
    async list(workspaceId, page, filter) {
      const desc = filter.order === "desc";
      const rows = await db.query(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE workspace_id = $1
          AND ($2::bigint IS NULL OR seq ${desc ? "<" : ">"} $2)
          AND ($3::text IS NULL OR agent_id = $3)
          AND ($4::integer IS NULL OR agent_version = $4)
          AND ($5::text IS NULL OR status = ANY(string_to_array($5, ',')))
          ${filter.includeArchived ? "" : "AND archived_at IS NULL"}
          ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT $6`,
        [
          workspaceId,
          page.after ?? null,
          filter.agentId ?? null,
          filter.agentVersion ?? null,
          filter.statuses === undefined ? null : filter.statuses.join(","),
          page.limit + 1,
        ],
      );
      return toPage(
        rows.map((row) => ({ item: sessionOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async storedResources(workspaceId, id) {
      const [row] = await db.query(
        "SELECT body -> 'resources' AS resources FROM sessions WHERE id = $1 AND workspace_id = $2",
        [id, workspaceId],
      );
      if (row === undefined) throw notFound("session", id);
      const resources = row.resources;
      return Array.isArray(resources) ? (resources as StoredResource[]) : [];
    },
    async delete(workspaceId, id) {
      await getRow(db, workspaceId, id);
      await db.query("DELETE FROM sessions WHERE id = $1 AND workspace_id = $2", [id, workspaceId]);
    },
    async archive(workspaceId, id) {
      await getRow(db, workspaceId, id);
      await db.query(
        "UPDATE sessions SET archived_at = coalesce(archived_at, now()), updated_at = now() WHERE id = $1",
        [id],
      );
      return sessionOf(await getRow(db, workspaceId, id));
    },
    async setStatus(workspaceId, id, status) {
      await db.query(
        `UPDATE sessions SET status = $1, updated_at = now(), ${runningClock("$1")} WHERE id = $2 AND workspace_id = $3`,
        [status, id, workspaceId],
      );
    },
    async appendEvents(workspaceId, id, events, options) {
      return (await store.appendSequenced(workspaceId, id, events, options)).map((e) => e.event);
    },
    async appendSequenced(workspaceId, id, events, options = {}) {
      const { status, eventIds, notify, origin, take, maxQueued, startsTurn = false, transcript } = options;
      if (events.length === 0) {
        await getRow(db, workspaceId, id);
        if (transcript !== undefined && transcript.entries.length > 0) {
          transcript.stored(await appendTranscript(db, id, transcript.entries));
        }
        if (status !== undefined || take !== undefined) {
          await db.query(
            `UPDATE sessions SET status = coalesce($1, status), updated_at = now(),
               taken_seq = greatest(taken_seq, coalesce($3::integer, 0)), queued = queued - coalesce($4::integer, 0),
               ${runningClock("$1")}
             WHERE id = $2`,
            [status ?? null, id, take?.upTo ?? null, take?.messages ?? null],
          );
        }
        return [];
      }
      if (eventIds !== undefined && eventIds.length !== events.length) {
        throw new Error(`appendEvents: ${eventIds.length} ids for ${events.length} events`);
      }
      const messages = startsTurn ? 0 : events.filter((e) => isTurnInput(e.type)).length;
      // What the model wrote may hold what PostgreSQL cannot (NUL, lone surrogates): replaced here, the one
      // door every event goes through, so a batch is never refused for it (a client's are refused before).
      const rows = events.map((event, n) => {
        const { type, id: _ignored, processed_at: _at, ...rest } = storableJson(event);
        return { id: eventIds?.[n] ?? newEventId(), type, body: rest, thread: threadOf(event) };
      });
      const effects = batchEffects(events);
      const threads = options.threads ?? [];
      const { usage } = effects;
      const append = async (q: SqlQuery) => {
        for (const thread of threads) {
          await q.query(
            `INSERT INTO session_threads (id, session_id, parent_thread_id, agent_name, agent, running_since)
             SELECT $1, id, $3, $4, $5::jsonb, clock_timestamp() FROM sessions WHERE id = $2 AND workspace_id = $6`,
            [
              thread.id,
              id,
              thread.parentThreadId,
              thread.agentName,
              JSON.stringify(thread.agent),
              workspaceId,
            ],
          );
        }
        // One statement: the UPDATE reserves this append's seqs on the session row (waiting for any other
        // append to the same session) and adds the batch's usage, the INSERT stores every event after them (and
        // the transcript rows beside them); no row read back.
        const params: SqlParam[] = [
          id,
          workspaceId,
          rows.length,
          JSON.stringify(rows),
          status ?? null,
          waitMark(events) ?? null,
          usage.input_tokens,
          usage.output_tokens,
          usage.cache_read_input_tokens,
          usage.cache_creation_input_tokens,
          messages,
          take?.upTo ?? null,
          take?.messages ?? null,
          maxQueued === undefined || messages === 0 ? null : maxQueued,
          startsTurn,
        ];
        const param = (value: SqlParam) => `$${params.push(value)}`;
        const announce =
          notify === undefined
            ? ""
            : `, (SELECT pg_notify(${param(notify)}, ${param(origin === undefined ? id : `${id} ${origin}`)})) AS announced`;
        const rowsOfTranscript = transcript !== undefined && transcript.entries.length > 0;
        const inserted = await q.query(
          `WITH s AS (
             UPDATE sessions SET event_seq = event_seq + $3, status = coalesce($5, status),
               updated_at = CASE WHEN $5::text IS NULL THEN updated_at ELSE now() END,
               wait_seq = CASE WHEN $6::integer IS NULL THEN wait_seq WHEN $6 = 0 THEN NULL ELSE event_seq + $6 END,
               input_tokens = input_tokens + $7, output_tokens = output_tokens + $8,
               cache_read_input_tokens = cache_read_input_tokens + $9,
               cache_creation_input_tokens = cache_creation_input_tokens + $10,
               taken_seq = CASE WHEN $15::boolean THEN event_seq + 1 ELSE greatest(taken_seq, coalesce($12::integer, 0)) END,
               queued = queued + $11::integer - coalesce($13::integer, 0),
               ${runningClock("$5")}
             WHERE id = $1 AND workspace_id = $2 AND ($14::integer IS NULL OR queued + $11::integer <= $14)
               AND (NOT $15::boolean OR (queued = 0 AND status <> 'running' AND wait_seq IS NULL AND archived_at IS NULL))
             RETURNING event_seq - $3 AS base
           )${
             rowsOfTranscript
               ? `, t AS (
             INSERT INTO session_transcripts (session_id, entry)
             SELECT $1, e.v FROM s, jsonb_array_elements(${param(transcriptJson(transcript.entries))}::jsonb)
               WITH ORDINALITY AS e(v, n) ORDER BY e.n
             RETURNING seq
           )`
               : ""
           }
           INSERT INTO session_events (session_id, seq, id, type, body, thread_id)
           SELECT $1, s.base + e.n, e.v->>'id', e.v->>'type', e.v->'body', e.v->>'thread'
           FROM s, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(v, n)${announce}
           RETURNING seq, id, type, created_at${rowsOfTranscript ? ", (SELECT max(seq) FROM t) AS transcript_seq" : ""}`,
          params,
        );
        for (const [thread, effect] of effects.threads) {
          const u = effect.usage;
          await q.query(
            `UPDATE session_threads SET status = coalesce($3, status),
               updated_at = CASE WHEN $3::text IS NULL THEN updated_at ELSE now() END,
               input_tokens = input_tokens + $4, output_tokens = output_tokens + $5,
               cache_read_input_tokens = cache_read_input_tokens + $6,
               cache_creation_input_tokens = cache_creation_input_tokens + $7,
               idled = idled OR coalesce($3 IN ('idle', 'terminated'), false),
               ${runningClock("$3")}
             WHERE id = $1 AND session_id = $2`,
            [
              thread,
              id,
              effect.status ?? null,
              u.input_tokens,
              u.output_tokens,
              u.cache_read_input_tokens,
              u.cache_creation_input_tokens,
            ],
          );
        }
        return inserted;
      };
      // A batch that touches no thread stays one statement; one that does is one transaction.
      const inserted =
        threads.length === 0 && effects.threads.size === 0 ? await append(db) : await db.transaction(append);
      if (inserted.length === 0) {
        await getRow(db, workspaceId, id);
        if (startsTurn) return [];
        throw new ApiError(
          "rate_limit_error",
          `session ${id} already has ${maxQueued} messages waiting to run: wait for its turns (or interrupt it) before sending more`,
        );
      }
      const [first] = inserted;
      if (transcript !== undefined && first !== undefined && first.transcript_seq !== null)
        transcript.stored(num(first, "transcript_seq"));
      const at = new Map(inserted.map((row) => [text(row, "id"), row]));
      return rows.map(({ id: eventId, type, body }) => {
        const row = at.get(eventId);
        return {
          seq: row === undefined ? 0 : num(row, "seq"),
          event: {
            ...body,
            id: eventId,
            type,
            processed_at: row === undefined ? new Date().toISOString() : iso(row, "created_at"),
          },
        };
      });
    },
    async eventsSince(workspaceId, id, after) {
      // One query: the session row (so an unknown session is a 404) joined to its newer events, if any.
      const rows = await db.query(
        `SELECT e.* FROM sessions s
         LEFT JOIN session_events e ON e.session_id = s.id AND e.seq > $3
         WHERE s.id = $1 AND s.workspace_id = $2
         ORDER BY e.seq ASC LIMIT ${EVENTS_SINCE_LIMIT}`,
        [id, workspaceId, after],
      );
      if (rows.length === 0) throw notFound("session", id);
      return rows.flatMap((row) =>
        row.seq === null || row.seq === undefined ? [] : [{ seq: num(row, "seq"), event: eventOf(row) }],
      );
    },
    async queuedInputs(workspaceId, id) {
      const rows = await db.query(
        `SELECT s.status, s.archived_at IS NOT NULL AS archived, s.wait_seq IS NOT NULL AS waiting, s.taken_seq, e.seq, e.id, e.type, e.body, e.created_at
         FROM sessions s
         LEFT JOIN session_events e ON e.session_id = s.id AND e.seq > s.taken_seq
           AND e.type IN ('user.message', 'user.define_outcome', 'user.interrupt')
         WHERE s.id = $1 AND s.workspace_id = $2
         ORDER BY e.seq ASC LIMIT ${EVENTS_SINCE_LIMIT}`,
        [id, workspaceId],
      );
      const [first] = rows;
      if (first === undefined) throw notFound("session", id);
      const status = text(first, "status");
      return {
        status:
          status === "running" || status === "rescheduling" || status === "terminated" ? status : "idle",
        archived: first.archived === true,
        waiting: first.waiting === true,
        takenSeq: num(first, "taken_seq"),
        inputs: rows.flatMap((row) =>
          row.seq === null || row.seq === undefined ? [] : [{ seq: num(row, "seq"), event: eventOf(row) }],
        ),
      };
    },
    async lastEventSeq(workspaceId, id) {
      const [row] = await db.query("SELECT event_seq FROM sessions WHERE id = $1 AND workspace_id = $2", [
        id,
        workspaceId,
      ]);
      if (row === undefined) throw notFound("session", id);
      return num(row, "event_seq");
    },
    async turnStartSeq(workspaceId, id) {
      // max() over the session's primary-key range with a filter: PostgreSQL walks the index backwards from
      // the newest event and stops at the first turn end.
      const [row] = await db.query(
        `SELECT (SELECT coalesce(max(e.seq), 0) FROM session_events e
                 WHERE e.session_id = s.id AND e.type = 'session.status_idle'
                   AND (e.body->'stop_reason'->>'type') IS DISTINCT FROM 'requires_action') AS seq
         FROM sessions s WHERE s.id = $1 AND s.workspace_id = $2`,
        [id, workspaceId],
      );
      if (row === undefined) throw notFound("session", id);
      return num(row, "seq");
    },
    async listEvents(workspaceId, id, page) {
      await getRow(db, workspaceId, id);
      const rows = await db.query(
        "SELECT * FROM session_events WHERE session_id = $1 AND ($2::integer IS NULL OR seq > $2) ORDER BY seq ASC LIMIT $3",
        [id, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: eventOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
  };
  return store;
}
