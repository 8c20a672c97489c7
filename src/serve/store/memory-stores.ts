import type { BetaManagedAgentsMemoryStore } from "@anthropic-ai/sdk/resources/beta/memory-stores/memory-stores";
import { ApiError, notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text } from "./rows.js";

/** What a memory store holds besides its id and timestamps (checked by the route). */
export interface MemoryStoreBody {
  name: string;
  description: string;
  metadata: Record<string, string>;
}

/**
 * Which stores a list shows: archived ones too or not, created within a window (ISO 8601, inclusive, compared to
 * the millisecond, as `created_at` is shown).
 */
export interface MemoryStoreFilter {
  includeArchived: boolean;
  createdFrom: string | undefined;
  createdTo: string | undefined;
}

function memoryStoreOf(row: SqlRow): BetaManagedAgentsMemoryStore {
  return {
    id: text(row, "id"),
    type: "memory_store",
    name: text(row, "name"),
    description: text(row, "description"),
    metadata: record(row, "metadata") as Record<string, string>,
    archived_at: isoOrNull(row, "archived_at"),
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
  };
}

/**
 * The row of store `id` in `workspaceId` (another workspace's store is not found), locked for the rest of the
 * transaction when `lock`: every write to a store's memories takes that lock, so path checks across instances
 * see each other's writes.
 */
export async function memoryStoreRow(
  q: SqlQuery,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<SqlRow> {
  const [row] = await q.query(
    `SELECT * FROM memory_stores WHERE id = $1 AND workspace_id = $2${lock ? " FOR UPDATE" : ""}`,
    [id, workspaceId],
  );
  if (row === undefined) throw notFound("memory store", id);
  return row;
}

/** Memory stores: named containers of memories, in one workspace. */
export interface MemoryStoreStore {
  create(workspaceId: string, body: MemoryStoreBody): Promise<BetaManagedAgentsMemoryStore>;
  get(workspaceId: string, id: string): Promise<BetaManagedAgentsMemoryStore>;
  /** Applies `patch` to the current body; refused (409) on an archived store. */
  update(
    workspaceId: string,
    id: string,
    patch: (current: MemoryStoreBody) => MemoryStoreBody,
  ): Promise<BetaManagedAgentsMemoryStore>;
  list(
    workspaceId: string,
    page: PageRequest,
    filter: MemoryStoreFilter,
  ): Promise<Page<BetaManagedAgentsMemoryStore>>;
  /** Deletes the store with its memories and versions. */
  delete(workspaceId: string, id: string): Promise<void>;
  archive(workspaceId: string, id: string): Promise<BetaManagedAgentsMemoryStore>;
}

/** The memory store store over `db`. */
export function createMemoryStoreStore(db: SqlDriver): MemoryStoreStore {
  return {
    async create(workspaceId, body) {
      const id = newId("memstore");
      const [row] = await db.query(
        "INSERT INTO memory_stores (id, workspace_id, name, description, metadata) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING *",
        [id, workspaceId, body.name, body.description, JSON.stringify(body.metadata)],
      );
      return memoryStoreOf(row ?? (await memoryStoreRow(db, workspaceId, id)));
    },
    async get(workspaceId, id) {
      return memoryStoreOf(await memoryStoreRow(db, workspaceId, id));
    },
    async update(workspaceId, id, patch) {
      return db.transaction(async (tx) => {
        const current = await memoryStoreRow(tx, workspaceId, id, true);
        refuseArchived(current);
        const next = patch({
          name: text(current, "name"),
          description: text(current, "description"),
          metadata: record(current, "metadata") as Record<string, string>,
        });
        const [row] = await tx.query(
          "UPDATE memory_stores SET name = $1, description = $2, metadata = $3::jsonb, updated_at = now() WHERE id = $4 RETURNING *",
          [next.name, next.description, JSON.stringify(next.metadata), id],
        );
        return memoryStoreOf(row ?? current);
      });
    },
    async list(workspaceId, page, filter) {
      const rows = await db.query(
        `SELECT * FROM memory_stores WHERE workspace_id = $1 AND ($2::bigint IS NULL OR seq < $2)
         AND ($4::timestamptz IS NULL OR date_trunc('milliseconds', created_at) >= $4) AND ($5::timestamptz IS NULL OR date_trunc('milliseconds', created_at) <= $5)
         ${filter.includeArchived ? "" : " AND archived_at IS NULL"} ORDER BY seq DESC LIMIT $3`,
        [
          workspaceId,
          page.after ?? null,
          page.limit + 1,
          filter.createdFrom ?? null,
          filter.createdTo ?? null,
        ],
      );
      return toPage(
        rows.map((row) => ({ item: memoryStoreOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async delete(workspaceId, id) {
      await memoryStoreRow(db, workspaceId, id);
      await db.query("DELETE FROM memory_stores WHERE id = $1 AND workspace_id = $2", [id, workspaceId]);
    },
    async archive(workspaceId, id) {
      await memoryStoreRow(db, workspaceId, id);
      const [row] = await db.query(
        `UPDATE memory_stores SET archived_at = coalesce(archived_at, now()),
         updated_at = CASE WHEN archived_at IS NULL THEN now() ELSE updated_at END WHERE id = $1 RETURNING *`,
        [id],
      );
      return memoryStoreOf(row ?? (await memoryStoreRow(db, workspaceId, id)));
    },
  };
}

/** Refuses (409) a change to an archived store or its memories: archiving cannot be undone. */
export function refuseArchived(storeRow: SqlRow): void {
  if (storeRow.archived_at !== null && storeRow.archived_at !== undefined) {
    throw new ApiError(
      "conflict_error",
      `memory store ${JSON.stringify(text(storeRow, "id"))} is archived: its memories can be read and deleted, not written`,
    );
  }
}
