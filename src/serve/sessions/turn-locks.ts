/**
 * Which instance owns a served session's waiting turn. A turn holds its session's lock while it waits on the
 * user (a custom tool result, a tool confirmation); an instance that receives the answer and runs no turn of
 * that session takes the lock before it resumes the turn, so it resumes only when the owner is gone, and only
 * one instance does. Holds nest on one instance (counted).
 */
export interface TurnLocks {
  /** Takes the session's lock unless another instance holds it; resolves false then (or when unsure). */
  tryHold(sessionId: string): Promise<boolean>;
  /** Gives back one {@link TurnLocks.tryHold} that resolved true. */
  release(sessionId: string): Promise<void>;
  close(): Promise<void>;
  /**
   * True when this instance is the database's only one (PGlite): every send to a session arrives here and
   * kicks the session's queue itself, so a drain need not look again for work another instance left.
   */
  readonly exclusive: boolean;
}

/** Counted holds per session on this instance; `first` and `last` run when a session's count leaves or reaches 0. */
function countedLocks(
  first: (sessionId: string) => Promise<boolean>,
  last: (sessionId: string) => Promise<void>,
  close: () => Promise<void>,
  exclusive = false,
): TurnLocks {
  // Per session: how many holds this instance has, and whether the lock was got (pending while it is asked).
  const holds = new Map<string, { count: number; got: Promise<boolean> }>();
  return {
    exclusive,
    async tryHold(sessionId) {
      const held = holds.get(sessionId);
      if (held !== undefined) {
        held.count += 1;
        if (await held.got) return true;
        held.count -= 1;
        return false;
      }
      const entry = { count: 1, got: first(sessionId).catch(() => false) };
      holds.set(sessionId, entry);
      if (await entry.got) return true;
      if (holds.get(sessionId) === entry) holds.delete(sessionId);
      return false;
    },
    async release(sessionId) {
      const held = holds.get(sessionId);
      if (held === undefined) return;
      held.count -= 1;
      if (held.count > 0) return;
      holds.delete(sessionId);
      await last(sessionId).catch(() => {});
    },
    close,
  };
}

/**
 * Locks for a database only this process uses (PGlite: one process owns the dir): every hold succeeds, so a
 * restarted `serve` resumes the turns its previous run left waiting.
 */
export function createLocalTurnLocks(): TurnLocks {
  return countedLocks(
    async () => true,
    async () => {},
    async () => {},
    true,
  );
}

/**
 * Locks shared through `owners` by several runners of one process on one database (instances in a test):
 * a hold succeeds unless another of them holds the session's lock, as advisory locks do across processes.
 */
export function createSharedTurnLocks(owners: Map<string, object>): TurnLocks {
  const me = {};
  return countedLocks(
    async (sessionId) => {
      const owner = owners.get(sessionId);
      if (owner !== undefined && owner !== me) return false;
      owners.set(sessionId, me);
      return true;
    },
    async (sessionId) => {
      if (owners.get(sessionId) === me) owners.delete(sessionId);
    },
    async () => {},
  );
}

/** The first key of the two-key advisory locks a turn holds (the second is the hash of the session id). */
export const TURN_LOCK_CLASS = 74_201_115;

/**
 * Locks shared by every instance on one PostgreSQL: session-level advisory locks on one connection of this
 * instance's own, which PostgreSQL releases when the instance dies (its connection closes), so another
 * instance can tell a dead owner from a live one. A lost connection loses its locks: a hold then reconnects
 * first, and answers false while it cannot.
 */
export async function openPgTurnLocks(url: string): Promise<TurnLocks> {
  const pg = (await import("pg")).default;
  type Client = InstanceType<typeof pg.Client>;
  let client: Promise<Client> | undefined;
  const connect = (): Promise<Client> => {
    const next = new pg.Client({ connectionString: url });
    const connected = next.connect().then(() => next);
    next.on("error", () => {
      if (client === connected) client = undefined;
      void next.end().catch(() => {});
    });
    connected.catch(() => {
      if (client === connected) client = undefined;
    });
    return connected;
  };
  const query = async (sql: string, sessionId: string): Promise<boolean> => {
    client ??= connect();
    const result = await (await client).query(sql, [TURN_LOCK_CLASS, sessionId]);
    const [row] = result.rows;
    return typeof row === "object" && row !== null && "ok" in row && row.ok === true;
  };
  client = connect();
  await client;
  return countedLocks(
    (sessionId) => query("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", sessionId),
    async (sessionId) => {
      await query("SELECT pg_advisory_unlock($1, hashtext($2)) AS ok", sessionId);
    },
    async () => {
      const open = client;
      client = undefined;
      await (await open?.catch(() => undefined))?.end().catch(() => {});
    },
  );
}
