/**
 * The PostgreSQL channel every instance announces appended session events on (payload: the session id, then,
 * after a space, the appending instance's origin tag when it gave one).
 */
export const EVENTS_CHANNEL = "skillwright_session_events";

/**
 * The PostgreSQL channel an instance announces a session's `user.interrupt` (or its archive or delete) on, so
 * that the instance running its turn stops it (payload: the session id).
 */
export const INTERRUPTS_CHANNEL = "skillwright_session_interrupts";

/** A LISTEN connection; `close` ends it. */
export interface PgListener {
  close(): Promise<void>;
}

/**
 * LISTENs on {@link EVENTS_CHANNEL} over its own connection to `url` and calls `onSession` with each payload's
 * session id and origin tag (absent when the payload has none) (and `onInterrupt` with each of {@link INTERRUPTS_CHANNEL}'s, when given). A lost connection is retried every
 * second; meanwhile streams fall back to polling, so nothing is missed.
 */
export async function listenForEvents(
  url: string,
  onSession: (sessionId: string, origin: string | undefined) => void,
  onInterrupt?: (sessionId: string) => void,
): Promise<PgListener> {
  const pg = (await import("pg")).default;
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    // One retry per lost connection: a failed connect can both reject and emit `error`, and two retries would
    // leave two LISTEN connections (then four after the next outage), each announcing every event.
    let lost = false;
    const retryOnce = () => {
      if (lost) return;
      lost = true;
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    };
    next.on("notification", (message) => {
      if (message.payload === undefined) return;
      if (message.channel === EVENTS_CHANNEL) {
        const space = message.payload.indexOf(" ");
        if (space === -1) onSession(message.payload, undefined);
        else onSession(message.payload.slice(0, space), message.payload.slice(space + 1));
      }
      if (message.channel === INTERRUPTS_CHANNEL) onInterrupt?.(message.payload);
    });
    next.on("error", retryOnce);
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (onInterrupt !== undefined) await next.query(`LISTEN ${INTERRUPTS_CHANNEL}`);
      if (lost) return;
      client = next;
      // Closed while it connected: this connection is not kept.
      if (closed) await next.end().catch(() => {});
    } catch {
      retryOnce();
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
