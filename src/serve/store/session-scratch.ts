import type { SqlQuery } from "./driver.js";
import { bytes, num, text } from "./rows.js";

/** The largest file a session may keep in its scratch space: 5 MiB. */
export const SCRATCH_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** One file of a session's scratch space, as a listing sees it. */
export interface ScratchEntry {
  /** Absolute, normalised (e.g. `/workspace/notes/a.md`). */
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files of one owner's scratch space, one row each in a table: a served session's own files (its
 * `/workspace`, owner the session id) or a code execution container's (owner the container id). Any instance
 * sees the same files. Directories are not stored; they are the prefixes of the files' paths.
 */
export interface SessionScratch {
  read(owner: string, path: string): Promise<{ content: Uint8Array; mtimeMs: number } | undefined>;
  /** Creates or replaces the file at `path`. */
  write(owner: string, path: string, content: Uint8Array): Promise<void>;
  /** Every file whose path starts with `prefix` (ending in `/`), in path order. */
  list(owner: string, prefix: string): Promise<ScratchEntry[]>;
  /** Removes the file at `path` and every file under `path/`; how many went. */
  remove(owner: string, path: string): Promise<number>;
  /** Moves the file at `from` (or every file under `from/`) to `to`; how many moved. */
  rename(owner: string, from: string, to: string): Promise<number>;
}

/** The tables that hold scratch spaces, and the column naming each row's owner. */
export const SCRATCH_TABLES = {
  session: { table: "session_scratch", owner: "session_id" },
  container: { table: "container_files", owner: "container_id" },
} as const;

/** Which scratch table: a session's files or a container's. */
export type ScratchTable = keyof typeof SCRATCH_TABLES;

/** `LIKE` with `prefix` taken literally. Pure. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The scratch spaces of `kind` (default sessions') over `db`. */
export function createSessionScratch(db: SqlQuery, kind: ScratchTable = "session"): SessionScratch {
  const { table, owner } = SCRATCH_TABLES[kind];
  return {
    async read(id, path) {
      const [row] = await db.query(
        `SELECT content, (extract(epoch FROM updated_at) * 1000)::bigint AS mtime_ms FROM ${table} WHERE ${owner} = $1 AND path = $2`,
        [id, path],
      );
      return row === undefined
        ? undefined
        : { content: bytes(row, "content"), mtimeMs: num(row, "mtime_ms") };
    },
    async write(id, path, content) {
      await db.query(
        `INSERT INTO ${table} (${owner}, path, content) VALUES ($1, $2, $3)
         ON CONFLICT (${owner}, path) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
        [id, path, content],
      );
    },
    async list(id, prefix) {
      const rows = await db.query(
        `SELECT path, octet_length(content) AS size, (extract(epoch FROM updated_at) * 1000)::bigint AS mtime_ms
         FROM ${table} WHERE ${owner} = $1 AND path LIKE $2 ORDER BY path`,
        [id, likePrefix(prefix)],
      );
      return rows.map((row) => ({
        path: text(row, "path"),
        size: num(row, "size"),
        mtimeMs: num(row, "mtime_ms"),
      }));
    },
    async remove(id, path) {
      const rows = await db.query(
        `DELETE FROM ${table} WHERE ${owner} = $1 AND (path = $2 OR path LIKE $3) RETURNING path`,
        [id, path, likePrefix(`${path}/`)],
      );
      return rows.length;
    },
    async rename(id, from, to) {
      const rows = await db.query(
        `UPDATE ${table} SET path = $3 || substr(path, length($2) + 1), updated_at = now()
         WHERE ${owner} = $1 AND (path = $2 OR path LIKE $4) RETURNING path`,
        [id, from, to, likePrefix(`${from}/`)],
      );
      return rows.length;
    },
  };
}
