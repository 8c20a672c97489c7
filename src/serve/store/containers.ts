import type { SqlDriver } from "./driver.js";
import { newId } from "./ids.js";
import { iso, num } from "./rows.js";
import { createSessionScratch, type SessionScratch } from "./session-scratch.js";

/** A live container as a response names it: `{ id, expires_at }` (its last use plus the idle limit). */
export interface ContainerLease {
  id: string;
  expires_at: string;
}

/** What taking a container by id found: live (now touched), expired (its files are gone), or none. */
export type TakenContainer =
  | { kind: "live"; container: ContainerLease }
  | { kind: "expired"; id: string }
  | { kind: "not_found"; id: string };

/**
 * The Messages API's code execution containers, per workspace, and their files (`container_files`, the same
 * shape as a session's scratch space). Times are the database's (`now()`), so every instance on one
 * PostgreSQL agrees on what has expired. A container idle for longer than `idleMs` is expired: its files are
 * deleted, its row is kept so its id answers "expired" rather than "not found".
 */
export interface ContainerStore {
  /** A new, empty container of the workspace. */
  create(workspaceId: string, idleMs: number): Promise<ContainerLease>;
  /** The container `id` of the workspace, touched (its idle time starts again) when it is live. */
  take(workspaceId: string, id: string, idleMs: number): Promise<TakenContainer>;
  /** Marks it used now; its new lease. */
  touch(id: string, idleMs: number): Promise<ContainerLease>;
  /** Expires every container idle for longer than `idleMs` and deletes its files; how many. */
  sweep(idleMs: number): Promise<number>;
  /** The bytes a container's files hold in all. */
  size(id: string): Promise<number>;
  /** The containers' files, by container id. */
  files: SessionScratch;
}

/** `last_used_at` plus `$n` milliseconds, in SQL. */
const until = (n: number) => `last_used_at + $${n}::bigint * interval '1 millisecond'`;

/** The container store over `db`. */
export function createContainerStore(db: SqlDriver): ContainerStore {
  const lease = (row: Record<string, unknown>): ContainerLease => ({
    id: String(row.id),
    expires_at: iso(row, "expires_at"),
  });
  const sweep = async (idleMs: number): Promise<number> => {
    const [row] = await db.query(
      `WITH expired AS (
         UPDATE containers SET expired_at = now() WHERE expired_at IS NULL AND now() > ${until(1)} RETURNING id
       ), gone AS (
         DELETE FROM container_files f USING expired e WHERE f.container_id = e.id
       )
       SELECT count(*) AS n FROM expired`,
      [idleMs],
    );
    return row === undefined ? 0 : num(row, "n");
  };
  return {
    async create(workspaceId, idleMs) {
      const [row] = await db.query(
        `INSERT INTO containers (id, workspace_id) VALUES ($1, $2) RETURNING id, ${until(3)} AS expires_at`,
        [newId("container"), workspaceId, idleMs],
      );
      if (row === undefined) throw new Error("INSERT … RETURNING gave no row");
      return lease(row);
    },
    async take(workspaceId, id, idleMs) {
      // Taken and touched in one statement: a container that expires between a check and a touch cannot be used.
      const [live] = await db.query(
        `UPDATE containers SET last_used_at = now()
          WHERE id = $1 AND workspace_id = $2 AND expired_at IS NULL AND now() <= ${until(3)}
          RETURNING id, now() + $3::bigint * interval '1 millisecond' AS expires_at`,
        [id, workspaceId, idleMs],
      );
      if (live !== undefined) return { kind: "live", container: lease(live) };
      const [found] = await db.query("SELECT id FROM containers WHERE id = $1 AND workspace_id = $2", [
        id,
        workspaceId,
      ]);
      if (found === undefined) return { kind: "not_found", id };
      await sweep(idleMs);
      return { kind: "expired", id };
    },
    async touch(id, idleMs) {
      const [row] = await db.query(
        `UPDATE containers SET last_used_at = now() WHERE id = $1
          RETURNING id, now() + $2::bigint * interval '1 millisecond' AS expires_at`,
        [id, idleMs],
      );
      if (row === undefined) throw new Error(`container ${id} is gone`);
      return lease(row);
    },
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
