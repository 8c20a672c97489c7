import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import type { SqlQuery } from "./driver.js";
import { bytes, text } from "./rows.js";
import type { SkillFile } from "./skill-upload.js";

/**
 * The most bytes one statement writes or reads. PGlite runs each statement on the main thread, so this bounds
 * how long any one of them keeps other requests waiting; the event loop gets a turn between statements.
 */
export const CHUNK_BYTES = 16 * 1024;
/** The longest pause between two statements of an upload. */
export const MAX_PAUSE_MS = 100;
/** The most rows one statement writes (many small files share a statement). */
export const CHUNK_ROWS = 500;

/** How many chunks one read statement returns. */
const CHUNKS_PER_READ = 4;

/** One row of `skill_file_chunks`: bytes `[offset, offset + length)` of file `path`, its `n`th chunk. */
export interface ChunkRow {
  path: string;
  n: number;
  /** Index of the file in the list given to {@link packChunks}. */
  file: number;
  offset: number;
  length: number;
}

/**
 * Cuts files into chunks of at most `chunkBytes` and packs them, in file order, into statements of at most
 * `chunkBytes` bytes and `maxRows` rows: a big file takes a statement per chunk, small files share one. An
 * empty file has no chunk (its `skill_files` row alone says it is there). Pure.
 */
export function packChunks(
  files: readonly { path: string; size: number }[],
  chunkBytes = CHUNK_BYTES,
  maxRows = CHUNK_ROWS,
): ChunkRow[][] {
  const statements: ChunkRow[][] = [];
  let current: ChunkRow[] = [];
  let currentBytes = 0;
  for (const [file, { path, size }] of files.entries()) {
    for (let offset = 0, n = 0; offset < size; offset += chunkBytes, n++) {
      const length = Math.min(chunkBytes, size - offset);
      if (current.length > 0 && (currentBytes + length > chunkBytes || current.length >= maxRows)) {
        statements.push(current);
        current = [];
        currentBytes = 0;
      }
      current.push({ path, n, file, offset, length });
      currentBytes += length;
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

/**
 * Writes the bytes of a version's files as `skill_file_chunks` rows, one small statement at a time with a turn
 * of the event loop between them, outside any transaction: a maximum-size upload never holds the database (or,
 * on PGlite, the process) for long. The rows belong to `versionId` before its row exists; the transaction that
 * inserts the version adopts them, and a failed upload drops them with {@link dropStagedChunks}.
 */
export async function stageChunks(
  db: SqlQuery,
  versionId: string,
  files: readonly SkillFile[],
): Promise<void> {
  const statements = packChunks(files.map((f) => ({ path: f.path, size: f.content.length })));
  for (const rows of statements) {
    const pieces = rows.map((row) => files[row.file]?.content.subarray(row.offset, row.offset + row.length));
    const data = Buffer.concat(pieces.filter((p): p is Uint8Array => p !== undefined));
    let start = 1;
    const placed = rows.map((row) => {
      const at = { path: row.path, n: row.n, start, length: row.length };
      start += row.length;
      return at;
    });
    const started = performance.now();
    await db.query(
      `INSERT INTO skill_file_chunks (version_id, path, n, data)
       SELECT $1, r.path, r.n, substring($2::bytea FROM r.start FOR r.length)
       FROM jsonb_to_recordset($3::jsonb) AS r(path text, n integer, start integer, length integer)`,
      [versionId, new Uint8Array(data.buffer, data.byteOffset, data.byteLength), JSON.stringify(placed)],
    );
    // Paced: as long again before the next statement, so the upload takes at most about half of the main
    // thread (PGlite runs there) and every other request finds it free at least as often as busy.
    await sleep(Math.min(performance.now() - started, MAX_PAUSE_MS));
  }
}

/** Drops the chunks staged for a version that was not stored (the upload failed after staging). */
export async function dropStagedChunks(db: SqlQuery, versionId: string): Promise<void> {
  await db.query(
    "DELETE FROM skill_file_chunks c WHERE c.version_id = $1 AND NOT EXISTS (SELECT 1 FROM skill_versions v WHERE v.id = $1)",
    [versionId],
  );
}

/** How old staged chunks of no version must be before {@link sweepStagedChunks} drops them. */
export const STAGED_CHUNKS_TTL = "1 day";

/** Drops chunks staged by uploads that never finished (their process died mid-upload). */
export async function sweepStagedChunks(db: SqlQuery): Promise<void> {
  await db.query(
    `DELETE FROM skill_file_chunks c WHERE c.created_at < now() - interval '${STAGED_CHUNKS_TTL}'
     AND NOT EXISTS (SELECT 1 FROM skill_versions v WHERE v.id = c.version_id)`,
  );
}

/**
 * The bytes of one file of a version (undefined when the version has no such file): its chunks in order,
 * read a few at a time with a turn of the event loop between reads.
 */
export async function readFileChunks(
  db: SqlQuery,
  versionId: string,
  path: string,
): Promise<Uint8Array | undefined> {
  const [listed] = await db.query("SELECT 1 AS found FROM skill_files WHERE version_id = $1 AND path = $2", [
    versionId,
    path,
  ]);
  if (listed === undefined) return undefined;
  const pieces: Uint8Array[] = [];
  for (let from = 0; ; from += CHUNKS_PER_READ) {
    const rows = await db.query(
      "SELECT data FROM skill_file_chunks WHERE version_id = $1 AND path = $2 AND n >= $3 AND n < $4 ORDER BY n",
      [versionId, path, from, from + CHUNKS_PER_READ],
    );
    for (const row of rows) pieces.push(bytes(row, "data"));
    if (rows.length < CHUNKS_PER_READ) break;
    await nextTurn();
  }
  return pieces.length === 1 && pieces[0] !== undefined ? pieces[0] : new Uint8Array(Buffer.concat(pieces));
}

/** The paths of a version's files, in path order. */
export async function filePaths(db: SqlQuery, versionId: string): Promise<string[]> {
  const rows = await db.query("SELECT path FROM skill_files WHERE version_id = $1 ORDER BY path", [
    versionId,
  ]);
  return rows.map((row) => text(row, "path"));
}
