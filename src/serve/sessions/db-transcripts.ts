import type { TranscriptEntry, TranscriptStore } from "../../session/transcript-store.js";
import type { SqlDriver } from "../store/driver.js";
import { num, record } from "../store/rows.js";
import { appendTranscript, type TranscriptRows } from "../store/session-transcripts.js";

/** A served session's transcript store, which also knows how far the transcript it has seen goes. */
export interface DbTranscripts extends TranscriptStore {
  /** Whether the session has any entry (one indexed probe, not the whole transcript). */
  exists(): Promise<boolean>;
  /**
   * The sequence number of the last entry this store wrote or read (0: none). When the database's last entry
   * is another, someone else (another instance) has written since.
   */
  lastSeq(): number;
  /** `entries` as rows for an event append's statement (see `EventWriter.record`); once stored, they count as seen. */
  rows(entries: readonly TranscriptEntry[]): TranscriptRows;
}

/**
 * The engine's transcript store for one served session, in the database (`session_transcripts`): whatever id
 * the engine names, entries belong to `sessionId`, so any instance resumes the conversation where another left
 * it. `read` of a session with no entries resolves with none.
 */
export function createDbTranscripts(db: SqlDriver, sessionId: string): DbTranscripts {
  let last = 0;
  const saw = (seq: number) => {
    last = Math.max(last, seq);
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
      saw(await appendTranscript(db, sessionId, entries));
    },
    async read() {
      const rows = await db.query(
        "SELECT seq, entry FROM session_transcripts WHERE session_id = $1 ORDER BY seq ASC",
        [sessionId],
      );
      for (const row of rows) saw(num(row, "seq"));
      return rows.map((row) => record(row, "entry") as unknown as TranscriptEntry);
    },
    lastSeq: () => last,
    rows: (entries) => ({ entries, stored: saw }),
    location: () => `db:session_transcripts/${sessionId}`,
  };
}
