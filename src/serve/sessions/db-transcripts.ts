import type { TranscriptEntry, SessionStore as TranscriptStore } from "../../session/session-store.js";
import type { SqlDriver } from "../store/driver.js";
import { record } from "../store/rows.js";

/**
 * The engine's transcript store for one served session, in the database (`session_transcripts`): whatever id
 * the engine names, entries belong to `sessionId`, so any instance resumes the conversation where another left
 * it. `read` of a session with no entries resolves with none.
 */
export function createDbTranscripts(db: SqlDriver, sessionId: string): TranscriptStore {
  return {
    async append(_engineId, entries) {
      if (entries.length === 0) return;
      await db.transaction(async (tx) => {
        for (const entry of entries) {
          await tx.query("INSERT INTO session_transcripts (session_id, entry) VALUES ($1, $2::jsonb)", [
            sessionId,
            JSON.stringify(entry),
          ]);
        }
      });
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
