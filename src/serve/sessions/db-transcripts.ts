import type { TranscriptEntry, SessionStore as TranscriptStore } from "../../session/session-store.js";
import type { SqlDriver } from "../store/driver.js";
import { record } from "../store/rows.js";

/**
 * The engine's transcript store for one served session, in the database (`session_transcripts`): whatever id
 * the engine names, entries belong to `sessionId`, so any instance resumes the conversation where another left
 * it. `read` of a session with no entries resolves with none.
 */
export function createDbTranscripts(
  db: SqlDriver,
  sessionId: string,
): TranscriptStore & { exists(): Promise<boolean> } {
  return {
    /** Whether the session has any entry (one indexed probe, not the whole transcript). */
    async exists() {
      const rows = await db.query("SELECT 1 FROM session_transcripts WHERE session_id = $1 LIMIT 1", [
        sessionId,
      ]);
      return rows.length > 0;
    },
    async append(_engineId, entries) {
      if (entries.length === 0) return;
      // One statement for the whole batch, in order (the identity seq follows the array's order).
      await db.query(
        `INSERT INTO session_transcripts (session_id, entry)
         SELECT $1, e.v FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, n) ORDER BY e.n`,
        [sessionId, JSON.stringify(entries)],
      );
    },
    async read() {
      const rows = await db.query(
        "SELECT entry FROM session_transcripts WHERE session_id = $1 ORDER BY seq ASC",
        [sessionId],
      );
      return rows.map((row) => record(row, "entry") as unknown as TranscriptEntry);
    },
    location: () => `db:session_transcripts/${sessionId}`,
  };
}
