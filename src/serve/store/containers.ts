import type { SqlDriver } from "./driver.js";
import { newId } from "./ids.js";
import { iso, num } from "./rows.js";
import { createSessionScratch, type SessionScratch } from "./session-scratch.js";

/** A live container as a response names it: `{ id, expires_at }` (its last use plus the idle limit). */
export interface ContainerLease {
  id: string;
  expires_at: string;
}

/**
 * What taking a container by id found: live (now touched and held), held by another request that has not ended,
 * expired (its files are gone), or none.
 */
export type TakenContainer =
  | { kind: "live"; container: ContainerLease }
  | { kind: "busy"; id: string }
  | { kind: "expired"; id: string }
  | { kind: "not_found"; id: string };

/** How long an expired container's id still answers "expired" before its row goes: 7 days. */
export const EXPIRED_KEPT_DAYS = 7;

/**
 * The Messages API's code execution containers, per workspace, and their files (`container_files`, the same
 * shape as a session's scratch space). Times are the database's (`now()`), so every instance on one
 * PostgreSQL agrees on what has expired. A container idle for longer than `idleMs` is expired: its files are
 * deleted, its row is kept for {@link EXPIRED_KEPT_DAYS} days so its id answers "expired" rather than "not found".
 *
 * A request holds the container it runs in (`create`, `take`) until `release`: another request taking it
 * meanwhile finds it `busy`. Each `touch` renews the hold with the lease, so a hold whose instance died runs out
 * when the container would have expired, and a held container is never swept.
 */
export interface ContainerStore {
  /** A new, empty container of the workspace, held. */
  create(workspaceId: string, idleMs: number): Promise<ContainerLease>;
  /** The container `id` of the workspace, touched (its idle time starts again) and held when it is live and free. */
  take(workspaceId: string, id: string, idleMs: number): Promise<TakenContainer>;
  /** Marks it used now, renewing the hold; its new lease. */
  touch(id: string, idleMs: number): Promise<ContainerLease>;
  /** Marks it used now and ends the hold; its new lease. */
  release(id: string, idleMs: number): Promise<ContainerLease>;
  /**
   * Expires every container idle for longer than `idleMs` and not held, deleting its files; drops the rows
   * expired more than {@link EXPIRED_KEPT_DAYS} days ago. How many expired now.
   */
  sweep(idleMs: number): Promise<number>;
  /** The bytes a container's files hold in all. */
  size(id: string): Promise<number>;
  /** The containers' files, by container id. */
  files: SessionScratch;
}

/** `last_used_at` plus `$n` milliseconds, in SQL. */
const until = (n: number) => `last_used_at + $${n}::bigint * interval '1 millisecond'`;
/** Now plus `$n` milliseconds, in SQL. */
const fromNow = (n: number) => `now() + $${n}::bigint * interval '1 millisecond'`;
/** The row is held by a request that has not ended (nor run out), in SQL. */
const HELD = "held_until IS NOT NULL AND held_until > now()";

/** The container store over `db`. */
export function createContainerStore(db: SqlDriver): ContainerStore {
  const lease = (row: Record<string, unknown>): ContainerLease => ({
    id: String(row.id),
    expires_at: iso(row, "expires_at"),
  });
  const sweep = async (idleMs: number): Promise<number> => {
    const [row] = await db.query(
      `WITH expired AS (
         UPDATE containers SET expired_at = now(), held_until = NULL
          WHERE expired_at IS NULL AND now() > ${until(1)} AND NOT (${HELD}) RETURNING id
       ), gone AS (
         DELETE FROM container_files f USING expired e WHERE f.container_id = e.id
       ), forgotten AS (
         DELETE FROM containers WHERE expired_at < now() - interval '${EXPIRED_KEPT_DAYS} days'
       )
       SELECT count(*) AS n FROM expired`,
      [idleMs],
    );
    return row === undefined ? 0 : num(row, "n");
  };
  /** Marks `id` used now, its hold set to `held` (SQL); its new lease. */
  const use = async (id: string, idleMs: number, held: string): Promise<ContainerLease> => {
    const [row] = await db.query(
      `UPDATE containers SET last_used_at = now(), held_until = ${held} WHERE id = $1
        RETURNING id, ${fromNow(2)} AS expires_at`,
      [id, idleMs],
    );
    if (row === undefined) throw new Error(`container ${id} is gone`);
    return lease(row);
  };
  return {
    async create(workspaceId, idleMs) {
      const [row] = await db.query(
        `INSERT INTO containers (id, workspace_id, held_until) VALUES ($1, $2, ${fromNow(3)})
          RETURNING id, ${until(3)} AS expires_at`,
        [newId("container"), workspaceId, idleMs],
      );
      if (row === undefined) throw new Error("INSERT … RETURNING gave no row");
      return lease(row);
    },
    async take(workspaceId, id, idleMs) {
      // Checked, touched and held in one statement: a container that expires or is taken by another request
      // between a check and a touch cannot be used.
      const [live] = await db.query(
        `UPDATE containers SET last_used_at = now(), held_until = ${fromNow(3)}
          WHERE id = $1 AND workspace_id = $2 AND expired_at IS NULL AND now() <= ${until(3)} AND NOT (${HELD})
          RETURNING id, ${fromNow(3)} AS expires_at`,
        [id, workspaceId, idleMs],
      );
      if (live !== undefined) return { kind: "live", container: lease(live) };
      const [found] = await db.query(
        `SELECT expired_at IS NULL AND ${HELD} AS busy FROM containers WHERE id = $1 AND workspace_id = $2`,
        [id, workspaceId],
      );
      if (found === undefined) return { kind: "not_found", id };
      if (found.busy === true) return { kind: "busy", id };
      await sweep(idleMs);
      return { kind: "expired", id };
    },
    touch: (id, idleMs) => use(id, idleMs, fromNow(2)),
    release: (id, idleMs) => use(id, idleMs, "NULL"),
    sweep,
    async size(id) {
      const [row] = await db.query(
        "SELECT coalesce(sum(octet_length(content)), 0) AS size FROM container_files WHERE container_id = $1",
        [id],
      );
      return row === undefined ? 0 : num(row, "size");
    },
    files: createSessionScratch(db, "container"),
  };
}
