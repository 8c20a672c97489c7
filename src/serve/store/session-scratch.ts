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
 * A served session's own files (its `/workspace`), one row each in `session_scratch`: any instance serving the
 * session sees the same files. Directories are not stored; they are the prefixes of the files' paths.
 */
export interface SessionScratch {
  read(sessionId: string, path: string): Promise<{ content: Uint8Array; mtimeMs: number } | undefined>;
  /** Creates or replaces the file at `path`. */
  write(sessionId: string, path: string, content: Uint8Array): Promise<void>;
  /** Every file whose path starts with `prefix` (ending in `/`), in path order. */
  list(sessionId: string, prefix: string): Promise<ScratchEntry[]>;
  /** Removes the file at `path` and every file under `path/`; how many went. */
  remove(sessionId: string, path: string): Promise<number>;
  /** Moves the file at `from` (or every file under `from/`) to `to`; how many moved. */
  rename(sessionId: string, from: string, to: string): Promise<number>;
}

/** `LIKE` with `prefix` taken literally. Pure. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The scratch space over `db`. */
export function createSessionScratch(db: SqlQuery): SessionScratch {
  return {
    async read(sessionId, path) {
      const [row] = await db.query(
        "SELECT content, (extract(epoch FROM updated_at) * 1000)::bigint AS mtime_ms FROM session_scratch WHERE session_id = $1 AND path = $2",
        [sessionId, path],
      );
      return row === undefined
        ? undefined
        : { content: bytes(row, "content"), mtimeMs: num(row, "mtime_ms") };
    },
    async write(sessionId, path, content) {
      await db.query(
        `INSERT INTO session_scratch (session_id, path, content) VALUES ($1, $2, $3)
         ON CONFLICT (session_id, path) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
        [sessionId, path, content],
      );
    },
    async list(sessionId, prefix) {
      const rows = await db.query(
        `SELECT path, octet_length(content) AS size, (extract(epoch FROM updated_at) * 1000)::bigint AS mtime_ms
         FROM session_scratch WHERE session_id = $1 AND path LIKE $2 ORDER BY path`,
        [sessionId, likePrefix(prefix)],
      );
      return rows.map((row) => ({
        path: text(row, "path"),
        size: num(row, "size"),
        mtimeMs: num(row, "mtime_ms"),
      }));
    },
    async remove(sessionId, path) {
      const rows = await db.query(
        "DELETE FROM session_scratch WHERE session_id = $1 AND (path = $2 OR path LIKE $3) RETURNING path",
        [sessionId, path, likePrefix(`${path}/`)],
      );
      return rows.length;
    },
    async rename(sessionId, from, to) {
      const rows = await db.query(
        `UPDATE session_scratch SET path = $3 || substr(path, length($2) + 1), updated_at = now()
         WHERE session_id = $1 AND (path = $2 OR path LIKE $4) RETURNING path`,
        [sessionId, from, to, likePrefix(`${from}/`)],
      );
      return rows.length;
    },
  };
}
