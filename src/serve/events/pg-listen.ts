/** The PostgreSQL channel every instance announces appended session events on (payload: the session id). */
export const EVENTS_CHANNEL = "skillwright_session_events";

/** A LISTEN connection; `close` ends it. */
export interface PgListener {
  close(): Promise<void>;
}

/**
 * LISTENs on {@link EVENTS_CHANNEL} over its own connection to `url` and calls `onSession` with each payload.
 * A lost connection is retried every second; meanwhile streams fall back to polling, so nothing is missed.
 */
export async function listenForEvents(
  url: string,
  onSession: (sessionId: string) => void,
): Promise<PgListener> {
  const pg = (await import("pg")).default;
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // One reconnect at a time: a lost connection reports itself more than once (an `error`, a failed query, an
  // `end`), and each report must not start a connection of its own.
  const reconnect = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, 1000);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    client = next;
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      reconnect();
    };
    next.on("notification", (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload !== undefined) onSession(message.payload);
    });
    next.on("error", lose);
    next.on("end", lose);
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (closed) await next.end();
    } catch {
      lose();
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
