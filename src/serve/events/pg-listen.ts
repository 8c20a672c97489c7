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
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload !== undefined) onSession(message.payload);
    });
    next.on("error", () => {
      void next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      client = next;
    } catch {
      await next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
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
