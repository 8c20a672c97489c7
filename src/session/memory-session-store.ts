import type { SessionStore, TranscriptEntry } from "./session-store.js";

/** A session store in memory: for sessions whose transcripts must not reach the host's disk (tests, trigger runs, sessions over a file system that is not the host's). */
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
