/**
 * Thrown by a session store's `read` (so by `openSession({ resume })`) when no session of that id exists.
 * `sessions` says where the store's sessions are: the transcripts dir, or the ids a memory store holds.
 */
export class UnknownSessionError extends Error {
  /** A stable code for callers that switch on it. */
  readonly code = "unknown-session";
  /** The id asked for. */
  readonly sessionId: string;
  /** Where the sessions that do exist can be found. */
  readonly sessions: string;

  constructor(sessionId: string, sessions: string) {
    super(`No session ${sessionId}. Sessions: ${sessions}`);
    this.name = "UnknownSessionError";
    this.sessionId = sessionId;
    this.sessions = sessions;
  }
}
