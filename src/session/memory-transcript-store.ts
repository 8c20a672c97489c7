import type { TranscriptEntry, TranscriptStore } from "./transcript-store.js";
import { UnknownSessionError } from "./unknown-session-error.js";

/** A session store in memory: for sessions whose transcripts must not reach the host's disk (tests, trigger runs, sessions over a file system that is not the host's). */
export function createMemoryTranscriptStore(): TranscriptStore {
  const sessions = new Map<string, TranscriptEntry[]>();
  return {
    async append(sessionId, entries) {
      const before = sessions.get(sessionId) ?? [];
      sessions.delete(sessionId);
      sessions.set(sessionId, [...before, ...entries]);
    },
    async read(sessionId) {
      const entries = sessions.get(sessionId);
      if (entries === undefined) {
        const ids = [...sessions.keys()];
        throw new UnknownSessionError(
          sessionId,
          `${ids.length === 0 ? "none" : ids.join(", ")} (kept in memory)`,
        );
      }
      return entries;
    },
    location: (sessionId) => `memory:${sessionId}`,
    // Newest written first: a Map keeps insertion order, and each append re-inserts its session at the end.
    list: async () => [...sessions.keys()].reverse(),
  };
}
