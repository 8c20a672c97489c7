import type { SqlQuery } from "./driver.js";
import { num } from "./rows.js";
import { storableJson } from "./storable-text.js";

/**
 * Rows for a session's transcript (`session_transcripts`), stored in the statement that appends events: each
 * entry is one row, in order; `stored` hears the last row's seq once they are.
 */
export interface TranscriptRows {
  entries: readonly unknown[];
  stored(lastSeq: number): void;
}

/**
 * Transcript entries as the JSON array the statements that store them take. NUL and lone surrogates in them (the
 * model's text, tool inputs and results) become U+FFFD ({@link storableJson}): the conversation is kept, never
 * refused. Pure.
 */
export function transcriptJson(entries: readonly unknown[]): string {
  return JSON.stringify(storableJson(entries));
}

/**
 * Appends `entries` to `sessionId`'s transcript in one statement, in order (the identity seq follows the array's
 * order): the last row's seq.
 */
export async function appendTranscript(
  db: SqlQuery,
  sessionId: string,
  entries: readonly unknown[],
): Promise<number> {
  const rows = await db.query(
    `INSERT INTO session_transcripts (session_id, entry)
     SELECT $1, e.v FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, n) ORDER BY e.n
     RETURNING seq`,
    [sessionId, transcriptJson(entries)],
  );
  return rows.reduce((last, row) => Math.max(last, num(row, "seq")), 0);
}
