import type { SessionStore, TranscriptEntry } from "../session/session-store.js";

/** A session store in memory: trigger runs leave no transcripts in the user's home. */
export function createMemorySessionStore(): SessionStore {
  const sessions = new Map<string, TranscriptEntry[]>();
  return {
    async append(sessionId, entries) {
      sessions.set(sessionId, [...(sessions.get(sessionId) ?? []), ...entries]);
    },
    async read(sessionId) {
      const entries = sessions.get(sessionId);
      if (entries === undefined) throw new Error(`No session ${sessionId}`);
      return entries;
    },
    location: (sessionId) => `memory:${sessionId}`,
  };
}
