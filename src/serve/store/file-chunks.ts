import { setImmediate as nextTurn } from "node:timers/promises";
import type { SqlQuery } from "./driver.js";
import { bytes } from "./rows.js";

/**
 * The bytes one `file_chunks` row holds. Each statement writes or reads at most {@link FILE_CHUNKS_PER_READ}
 * of them, so no statement holds the database (on PGlite, the process) for long.
 */
export const FILE_CHUNK_BYTES = 64 * 1024;
/** How many chunks one read statement returns. */
const FILE_CHUNKS_PER_READ = 4;

/**
 * Writes `content` as `file_chunks` rows of file `fileId`, one statement per chunk with a turn of the event
 * loop between them, outside any transaction. The rows exist before the file's row, which adopts them; a
 * failed upload drops them with {@link dropFileChunks}, and {@link sweepFileChunks} drops those of a process
 * that died mid-upload.
 */
export async function stageFileChunks(db: SqlQuery, fileId: string, content: Uint8Array): Promise<void> {
  for (let offset = 0, n = 0; offset < content.length; offset += FILE_CHUNK_BYTES, n++) {
    await db.query("INSERT INTO file_chunks (file_id, n, data) VALUES ($1, $2, $3)", [
      fileId,
      n,
      content.subarray(offset, Math.min(offset + FILE_CHUNK_BYTES, content.length)),
    ]);
    await nextTurn();
  }
}

/** Drops the chunks staged for a file whose row was never written. */
export async function dropFileChunks(db: SqlQuery, fileId: string): Promise<void> {
  await db.query(
    "DELETE FROM file_chunks c WHERE c.file_id = $1 AND NOT EXISTS (SELECT 1 FROM files f WHERE f.id = $1)",
    [fileId],
  );
}

/** Drops chunks staged more than a day ago by uploads that never finished. */
export async function sweepFileChunks(db: SqlQuery): Promise<void> {
  await db.query(
    `DELETE FROM file_chunks c WHERE c.created_at < now() - interval '1 day'
     AND NOT EXISTS (SELECT 1 FROM files f WHERE f.id = c.file_id)`,
  );
}

/** A stored file's bytes: its chunks in order, read a few at a time with a turn of the event loop between. */
export async function readFileContent(db: SqlQuery, fileId: string): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for (let from = 0; ; from += FILE_CHUNKS_PER_READ) {
    const rows = await db.query(
      "SELECT data FROM file_chunks WHERE file_id = $1 AND n >= $2 AND n < $3 ORDER BY n",
      [fileId, from, from + FILE_CHUNKS_PER_READ],
    );
    for (const row of rows) pieces.push(bytes(row, "data"));
    if (rows.length < FILE_CHUNKS_PER_READ) break;
    await nextTurn();
  }
  const [only] = pieces;
  return pieces.length === 1 && only !== undefined ? only : new Uint8Array(Buffer.concat(pieces));
}
