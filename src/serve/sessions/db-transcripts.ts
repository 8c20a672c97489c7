import type { TranscriptEntry, TranscriptStore } from "../../session/transcript-store.js";
import type { SqlDriver } from "../store/driver.js";
import { num, record } from "../store/rows.js";

/** A served session's transcript store, which also knows how far the transcript it has seen goes. */
export interface DbTranscripts extends TranscriptStore {
  /** Whether the session has any entry (one indexed probe, not the whole transcript). */
  exists(): Promise<boolean>;
  /**
   * The sequence number of the last entry this store wrote or read (0: none). When the database's last entry
   * is another, someone else (another instance) has written since.
   */
  lastSeq(): number;
}

/**
 * The engine's transcript store for one served session, in the database (`session_transcripts`): whatever id
 * the engine names, entries belong to `sessionId`, so any instance resumes the conversation where another left
 * it. `read` of a session with no entries resolves with none.
 */
export function createDbTranscripts(db: SqlDriver, sessionId: string): DbTranscripts {
  let last = 0;
  const saw = (rows: readonly Record<string, unknown>[]) => {
    for (const row of rows) last = Math.max(last, num(row, "seq"));
  };
  return {
    async exists() {
      const rows = await db.query("SELECT 1 FROM session_transcripts WHERE session_id = $1 LIMIT 1", [
        sessionId,
      ]);
      return rows.length > 0;
    },
    async append(_engineId, entries) {
      if (entries.length === 0) return;
      // One statement for the whole batch, in order (the identity seq follows the array's order).
      saw(
        await db.query(
          `INSERT INTO session_transcripts (session_id, entry)
           SELECT $1, e.v FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, n) ORDER BY e.n
           RETURNING seq`,
          [sessionId, JSON.stringify(entries)],
        ),
      );
    },
    async read() {
      const rows = await db.query(
        "SELECT seq, entry FROM session_transcripts WHERE session_id = $1 ORDER BY seq ASC",
        [sessionId],
      );
      saw(rows);
      return rows.map((row) => record(row, "entry") as unknown as TranscriptEntry);
    },
    lastSeq: () => last,
    location: () => `db:session_transcripts/${sessionId}`,
  };
}
