import type { SqlDriver } from "./driver.js";

/**
 * The schema, as numbered migrations applied in order and recorded in `schema_migrations`. Append only:
 * a released migration is never edited, a change is a new one. Plain SQL that PostgreSQL and PGlite both run.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: readonly string[] }[] = [
  {
    version: 1,
    name: "initial schema",
    sql: [
      `CREATE TABLE workspaces (
        id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE api_keys (
        key_hash text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE skills (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        display_name text NOT NULL,
        latest_version_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX skills_workspace_seq ON skills (workspace_id, seq)",
      `CREATE TABLE skill_versions (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        skill_id text NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL,
        head jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX skill_versions_skill_seq ON skill_versions (skill_id, seq)",
      `CREATE TABLE skill_files (
        version_id text NOT NULL REFERENCES skill_versions(id) ON DELETE CASCADE,
        path text NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (version_id, path)
      )`,
      `CREATE TABLE environments (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        body jsonb NOT NULL,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX environments_workspace_seq ON environments (workspace_id, seq)",
      `CREATE TABLE agents (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        version integer NOT NULL,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX agents_workspace_seq ON agents (workspace_id, seq)",
      `CREATE TABLE agent_versions (
        agent_id text NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version integer NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_id, version)
      )`,
      `CREATE TABLE sessions (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        agent_id text NOT NULL,
        agent_version integer NOT NULL,
        environment_id text NOT NULL,
        body jsonb NOT NULL,
        status text NOT NULL DEFAULT 'idle',
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX sessions_workspace_seq ON sessions (workspace_id, seq)",
      `CREATE TABLE session_events (
        session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        id text NOT NULL UNIQUE,
        type text NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq)
      )`,
      `CREATE TABLE usage (
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        session_id text,
        model text NOT NULL,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 2,
    name: "session transcripts",
    sql: [
      `CREATE TABLE session_transcripts (
        session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        entry jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
    ],
  },
  {
    version: 3,
    name: "session event counter",
    sql: [
      // The last event's seq, kept on the session row: an append reserves its seqs with one UPDATE (which
      // also serialises appends to one session) instead of a locked read and a max() per event.
      "ALTER TABLE sessions ADD COLUMN event_seq integer NOT NULL DEFAULT 0",
      "UPDATE sessions SET event_seq = coalesce((SELECT max(seq) FROM session_events e WHERE e.session_id = sessions.id), 0)",
    ],
  },
  {
    version: 4,
    name: "revoked api keys",
    sql: [
      // A revoked key keeps its row (marked) instead of being deleted, so that `serve --api-key` cannot admit
      // it again on its next start.
      "ALTER TABLE api_keys ADD COLUMN revoked_at timestamptz",
    ],
  },
  {
    version: 5,
    name: "session waits",
    sql: [
      // The seq of the session's `session.status_idle` with `requires_action` while it is the session's last
      // status event (NULL otherwise): every instance's orphan sweep finds the waits answered since with one
      // query over this partial index, instead of reading each session's events.
      "ALTER TABLE sessions ADD COLUMN wait_seq integer",
      `UPDATE sessions s SET wait_seq = last.seq FROM (
         SELECT DISTINCT ON (session_id) session_id, seq, type, body FROM session_events
         WHERE left(type, 15) = 'session.status_'
         ORDER BY session_id, seq DESC
       ) last
       WHERE last.session_id = s.id AND last.type = 'session.status_idle'
         AND last.body->'stop_reason'->>'type' = 'requires_action'`,
      "CREATE INDEX sessions_waiting ON sessions (id) WHERE wait_seq IS NOT NULL",
    ],
  },
  {
    version: 6,
    name: "session threads and usage",
    sql: [
      // Token counts summed over the session's model requests (forks included), and its running time: the
      // milliseconds of its finished `running` spells plus, while it runs, the time since `running_since`.
      "ALTER TABLE sessions ADD COLUMN input_tokens bigint NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN output_tokens bigint NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN cache_read_input_tokens bigint NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN cache_creation_input_tokens bigint NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN active_ms bigint NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN running_since timestamptz",
      // The child thread (fork) an event belongs to; NULL: the primary thread.
      "ALTER TABLE session_events ADD COLUMN thread_id text",
      "CREATE INDEX session_events_thread ON session_events (session_id, thread_id, seq) WHERE thread_id IS NOT NULL",
      `CREATE TABLE session_threads (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        parent_thread_id text,
        agent_name text NOT NULL,
        agent jsonb NOT NULL,
        status text NOT NULL DEFAULT 'running',
        idled boolean NOT NULL DEFAULT false,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        cache_read_input_tokens bigint NOT NULL DEFAULT 0,
        cache_creation_input_tokens bigint NOT NULL DEFAULT 0,
        active_ms bigint NOT NULL DEFAULT 0,
        running_since timestamptz,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX session_threads_session_seq ON session_threads (session_id, seq)",
    ],
  },
  {
    version: 7,
    name: "skill file chunks",
    sql: [
      // A skill file's bytes as chunks of at most 16 KB, written a few per statement before the version's
      // transaction (see skill-file-chunks.ts), so that a big upload never holds the database for long. No
      // foreign key: the chunks exist before their version row; a trigger drops them with the version.
      `CREATE TABLE skill_file_chunks (
        version_id text NOT NULL,
        path text NOT NULL,
        n integer NOT NULL,
        data bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (version_id, path, n)
      )`,
      "INSERT INTO skill_file_chunks (version_id, path, n, data) SELECT version_id, path, 0, content FROM skill_files WHERE length(content) > 0",
      "ALTER TABLE skill_files DROP COLUMN content",
      `CREATE FUNCTION drop_skill_file_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM skill_file_chunks WHERE version_id = OLD.id;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER skill_versions_drop_chunks AFTER DELETE ON skill_versions
       FOR EACH ROW EXECUTE FUNCTION drop_skill_file_chunks()`,
    ],
  },
  {
    version: 8,
    name: "session message queue",
    sql: [
      // The seq up to which the session's user.message / user.interrupt events are taken (run, dropped or
      // obeyed), and how many user.message events after it wait: the queue lives in the database, so any
      // instance can run (or refuse) what a stopped one left, and the sweep finds it over a partial index.
      "ALTER TABLE sessions ADD COLUMN taken_seq integer NOT NULL DEFAULT 0",
      "ALTER TABLE sessions ADD COLUMN queued integer NOT NULL DEFAULT 0",
      "UPDATE sessions SET taken_seq = event_seq",
      "CREATE INDEX sessions_busy ON sessions (id) WHERE status = 'running' OR queued > 0",
    ],
  },
  {
    version: 9,
    name: "memory stores and files",
    sql: [
      `CREATE TABLE memory_stores (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX memory_stores_workspace_seq ON memory_stores (workspace_id, seq)",
      // A memory's path is unique in its store; listing walks paths in byte order (COLLATE "C").
      `CREATE TABLE memories (
        id text PRIMARY KEY,
        store_id text NOT NULL REFERENCES memory_stores(id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        content text NOT NULL,
        content_sha256 text NOT NULL,
        content_size_bytes integer NOT NULL,
        version_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (store_id, path)
      )`,
      // Versions belong to the store and outlive their memory (no foreign key to memories).
      `CREATE TABLE memory_versions (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        store_id text NOT NULL REFERENCES memory_stores(id) ON DELETE CASCADE,
        memory_id text NOT NULL,
        operation text NOT NULL,
        path text,
        content text,
        content_sha256 text,
        content_size_bytes integer,
        created_by jsonb,
        redacted_at timestamptz,
        redacted_by jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX memory_versions_store_seq ON memory_versions (store_id, seq)",
      "CREATE INDEX memory_versions_memory ON memory_versions (memory_id)",
      `CREATE TABLE files (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        filename text NOT NULL,
        mime_type text NOT NULL,
        size_bytes bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX files_workspace_seq ON files (workspace_id, seq)",
      // A file's bytes in chunks, written before its row (see file-chunks.ts); a trigger drops them with it.
      `CREATE TABLE file_chunks (
        file_id text NOT NULL,
        n integer NOT NULL,
        data bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (file_id, n)
      )`,
      `CREATE FUNCTION drop_file_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM file_chunks WHERE file_id = OLD.id;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER files_drop_chunks AFTER DELETE ON files
       FOR EACH ROW EXECUTE FUNCTION drop_file_chunks()`,
    ],
  },
  {
    version: 10,
    name: "skill search",
    sql: [
      // A stored skill's searchable text, weighted as the offline ranking weighs its fields: name, then
      // description, then when_to_use and the argument hint (from the normalised head). English stemming.
      `ALTER TABLE skill_versions ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', replace(replace(name, '-', ' '), '_', ' ')), 'A') ||
        setweight(to_tsvector('english', description), 'B') ||
        setweight(to_tsvector('english', coalesce(head->>'whenToUse', '') || ' ' || coalesce(head->>'argumentHint', '')), 'C')
      ) STORED`,
      // The latest version's text on the skill itself, kept by a trigger whenever the latest version changes:
      // an agent's search ranks its own few skills' vectors, with no join to their versions (a workspace's
      // search reads the postings of migration 13, so no full-text index over all skills is kept).
      "ALTER TABLE skills ADD COLUMN search tsvector",
      `CREATE FUNCTION skills_search_follow() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.search := (SELECT v.search FROM skill_versions v WHERE v.id = NEW.latest_version_id);
         RETURN NEW;
       END $$`,
      `CREATE TRIGGER skills_search_follow BEFORE INSERT OR UPDATE OF latest_version_id ON skills
       FOR EACH ROW EXECUTE FUNCTION skills_search_follow()`,
      "UPDATE skills SET search = (SELECT v.search FROM skill_versions v WHERE v.id = skills.latest_version_id)",
      // An agent's search starts from its skills' names.
      "CREATE INDEX skills_workspace_name ON skills (workspace_id, name)",
    ],
  },
  {
    version: 11,
    name: "session outcome events",
    sql: [
      // A session's outcome_evaluations are folded from these events (src/serve/store/outcome-evaluations.ts):
      // the partial indexes let every session read find them without scanning the session's whole event log.
      `CREATE INDEX session_events_outcomes ON session_events (session_id, seq)
       WHERE type IN ('user.define_outcome', 'span.outcome_evaluation_start', 'span.outcome_evaluation_end',
         'user.interrupt', 'session.status_running', 'session.status_idle')`,
      // Where a session's first outcome is: a session without one reads none of the events above.
      "CREATE INDEX session_events_define_outcome ON session_events (session_id, seq) WHERE type = 'user.define_outcome'",
    ],
  },
  {
    version: 12,
    name: "session scratch space",
    sql: [
      // A served session's own files (its `/workspace`), in the database so any instance can serve it.
      `CREATE TABLE session_scratch (
        session_id text NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        content bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, path)
      )`,
    ],
  },
  {
    version: 13,
    name: "skill search postings",
    sql: [
      // A workspace-wide search ranks thousands of matches: reading each one's tsvector from the table is what
      // costs. Each skill's words are kept as postings too (word, skill, weight from the fields it is in: name 3,
      // description 2, when_to_use and argument hint 1), read by an index-only scan and summed per skill.
      `CREATE TABLE skill_terms (
        workspace_id text NOT NULL,
        term text NOT NULL,
        skill_id text NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        skill_name text NOT NULL,
        weight real NOT NULL,
        PRIMARY KEY (workspace_id, term, skill_id)
      )`,
      "CREATE INDEX skill_terms_cover ON skill_terms (workspace_id, term) INCLUDE (skill_name, weight)",
      "CREATE INDEX skill_terms_skill ON skill_terms (skill_id)",
      `CREATE FUNCTION skill_terms_follow() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM skill_terms WHERE skill_id = NEW.id;
         IF NEW.search IS NOT NULL THEN
           INSERT INTO skill_terms (workspace_id, term, skill_id, skill_name, weight)
           SELECT NEW.workspace_id, u.lexeme, NEW.id, NEW.name,
                  (SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) w)
             FROM unnest(NEW.search) u;
         END IF;
         RETURN NULL;
       END $$`,
      // `OF latest_version_id`: the BEFORE trigger that copies the version's text sets `search` then.
      `CREATE TRIGGER skill_terms_follow AFTER INSERT OR UPDATE OF latest_version_id, search ON skills
       FOR EACH ROW EXECUTE FUNCTION skill_terms_follow()`,
      `INSERT INTO skill_terms (workspace_id, term, skill_id, skill_name, weight)
       SELECT s.workspace_id, u.lexeme, s.id, s.name,
              (SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) w)
         FROM skills s, unnest(s.search) u
        WHERE s.search IS NOT NULL`,
    ],
  },
  {
    version: 14,
    name: "skill search postings from the version",
    sql: [
      // An agent's search ranks the vectors of the versions it pins (skill_versions.search), so the copy of the
      // latest version's vector on the skill only fed the postings: they are now read from the version itself,
      // and the copy, its trigger and its column go. Nothing else changes in the postings.
      `CREATE OR REPLACE FUNCTION skill_terms_follow() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM skill_terms WHERE skill_id = NEW.id;
         INSERT INTO skill_terms (workspace_id, term, skill_id, skill_name, weight)
         SELECT NEW.workspace_id, u.lexeme, NEW.id, NEW.name,
                (SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) w)
           FROM skill_versions v, unnest(v.search) u
          WHERE v.id = NEW.latest_version_id;
         RETURN NULL;
       END $$`,
      "DROP TRIGGER skill_terms_follow ON skills",
      `CREATE TRIGGER skill_terms_follow AFTER INSERT OR UPDATE OF latest_version_id ON skills
       FOR EACH ROW EXECUTE FUNCTION skill_terms_follow()`,
      "DROP TRIGGER skills_search_follow ON skills",
      "DROP FUNCTION skills_search_follow()",
      "ALTER TABLE skills DROP COLUMN search",
    ],
  },
  {
    version: 15,
    name: "containers",
    sql: [
      // The Messages API's code execution containers: their files live here, so any instance serves them. A
      // container idle past serve's limit is expired: its files go, its row stays, so its id answers "expired".
      `CREATE TABLE containers (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        expired_at timestamptz
      )`,
      "CREATE INDEX containers_live ON containers (last_used_at) WHERE expired_at IS NULL",
      `CREATE TABLE container_files (
        container_id text NOT NULL REFERENCES containers(id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        content bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (container_id, path)
      )`,
    ],
  },
  {
    version: 16,
    name: "container holds",
    sql: [
      // A request holds its container until it ends (or, when its instance died, until the hold runs out):
      // a second request naming it meanwhile is refused rather than sharing its files and processes.
      "ALTER TABLE containers ADD COLUMN held_until timestamptz",
    ],
  },
];

/** An arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 74_201_114;

/**
 * Brings the schema up to date. Safe to run from many instances at once: the migrations run in one
 * transaction under an advisory lock, and each is applied only when `schema_migrations` lacks it.
 * Returns the versions applied now.
 */
export async function migrate(db: SqlDriver): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const done = new Set(
      (await tx.query("SELECT version FROM schema_migrations")).map((row) => Number(row.version)),
    );
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.sql) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
