import type {
  BetaManagedAgentsActor,
  BetaManagedAgentsMemoryVersion,
  BetaManagedAgentsMemoryVersionOperation,
} from "@anthropic-ai/sdk/resources/beta/memory-stores/memory-versions";
import { ApiError, notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import { memoryStoreRow } from "./memory-stores.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text, textOrNull } from "./rows.js";

/** One change to record as a version: its memory, kind, and the memory as the change left it. */
export interface VersionWrite {
  storeId: string;
  memoryId: string;
  operation: BetaManagedAgentsMemoryVersionOperation;
  path: string;
  /** Null for a `deleted` version. */
  content: string | null;
  sha256: string | null;
  size: number | null;
  actor: BetaManagedAgentsActor;
}

/** Appends an immutable version (inside the write's transaction); returns its id. */
export async function insertVersion(q: SqlQuery, write: VersionWrite): Promise<string> {
  const id = newId("memver");
  await q.query(
    `INSERT INTO memory_versions (id, store_id, memory_id, operation, path, content, content_sha256,
     content_size_bytes, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [
      id,
      write.storeId,
      write.memoryId,
      write.operation,
      write.path,
      write.content,
      write.sha256,
      write.size,
      JSON.stringify(write.actor),
    ],
  );
  return id;
}

/** A stored actor column as the SDK's actor, or null when none was recorded. */
function actorOf(row: SqlRow, column: string): BetaManagedAgentsActor | null {
  const value = row[column];
  return value === null || value === undefined
    ? null
    : (record(row, column) as unknown as BetaManagedAgentsActor);
}

/** A version row as the SDK's `memory_version`; `content` only with `full`. */
function versionOf(row: SqlRow, full: boolean): BetaManagedAgentsMemoryVersion {
  const size = row.content_size_bytes;
  return {
    id: text(row, "id"),
    type: "memory_version",
    memory_id: text(row, "memory_id"),
    memory_store_id: text(row, "store_id"),
    operation: text(row, "operation") as BetaManagedAgentsMemoryVersionOperation,
    path: textOrNull(row, "path"),
    content: full ? textOrNull(row, "content") : null,
    content_sha256: textOrNull(row, "content_sha256"),
    content_size_bytes: size === null || size === undefined ? null : num(row, "content_size_bytes"),
    created_at: iso(row, "created_at"),
    // The SDK types these as optional, not nullable; the API sends null for "none".
    created_by: actorOf(row, "created_by") as BetaManagedAgentsActor,
    redacted_at: isoOrNull(row, "redacted_at"),
    redacted_by: actorOf(row, "redacted_by") as BetaManagedAgentsActor,
  };
}

/** Which versions a list shows; every field narrows it. */
export interface VersionFilter {
  memoryId: string | undefined;
  operation: BetaManagedAgentsMemoryVersionOperation | undefined;
  apiKeyId: string | undefined;
  sessionId: string | undefined;
  createdFrom: string | undefined;
  createdTo: string | undefined;
}

/** A store's memory versions: read, listed newest first, redacted. */
export interface MemoryVersionStore {
  get(
    workspaceId: string,
    storeId: string,
    id: string,
    full: boolean,
  ): Promise<BetaManagedAgentsMemoryVersion>;
  list(
    workspaceId: string,
    storeId: string,
    page: PageRequest,
    filter: VersionFilter,
    full: boolean,
  ): Promise<Page<BetaManagedAgentsMemoryVersion>>;
  /**
   * Clears a version's content, path, hash and size for good and records who did it. The version that holds a
   * live memory's current content is refused (409): update or delete the memory first.
   */
  redact(
    workspaceId: string,
    storeId: string,
    id: string,
    actor: BetaManagedAgentsActor,
  ): Promise<BetaManagedAgentsMemoryVersion>;
}

/** The memory version store over `db`. */
export function createMemoryVersionStore(db: SqlDriver): MemoryVersionStore {
  const versionRow = async (q: SqlQuery, storeId: string, id: string): Promise<SqlRow> => {
    const [row] = await q.query("SELECT * FROM memory_versions WHERE id = $1 AND store_id = $2", [
      id,
      storeId,
    ]);
    if (row === undefined) throw notFound("memory version", id);
    return row;
  };
  return {
    async get(workspaceId, storeId, id, full) {
      await memoryStoreRow(db, workspaceId, storeId);
      return versionOf(await versionRow(db, storeId, id), full);
    },
    async list(workspaceId, storeId, page, filter, full) {
      await memoryStoreRow(db, workspaceId, storeId);
      const rows = await db.query(
        `SELECT * FROM memory_versions WHERE store_id = $1 AND ($2::bigint IS NULL OR seq < $2)
         AND ($4::text IS NULL OR memory_id = $4) AND ($5::text IS NULL OR operation = $5)
         AND ($6::text IS NULL OR created_by->>'api_key_id' = $6) AND ($7::text IS NULL OR created_by->>'session_id' = $7)
         AND ($8::timestamptz IS NULL OR date_trunc('milliseconds', created_at) >= $8) AND ($9::timestamptz IS NULL OR date_trunc('milliseconds', created_at) <= $9)
         ORDER BY seq DESC LIMIT $3`,
        [
          storeId,
          page.after ?? null,
          page.limit + 1,
          filter.memoryId ?? null,
          filter.operation ?? null,
          filter.apiKeyId ?? null,
          filter.sessionId ?? null,
          filter.createdFrom ?? null,
          filter.createdTo ?? null,
        ],
      );
      return toPage(
        rows.map((row) => ({ item: versionOf(row, full), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async redact(workspaceId, storeId, id, actor) {
      return db.transaction(async (tx) => {
        await memoryStoreRow(tx, workspaceId, storeId, true);
        const row = await versionRow(tx, storeId, id);
        if (row.redacted_at !== null && row.redacted_at !== undefined) return versionOf(row, true);
        const [current] = await tx.query("SELECT id FROM memories WHERE version_id = $1", [id]);
        if (current !== undefined) {
          throw new ApiError(
            "conflict_error",
            `memory version ${JSON.stringify(id)} holds the current content of memory ${JSON.stringify(text(current, "id"))}: update or delete the memory, then redact this version`,
          );
        }
        const [redacted] = await tx.query(
          `UPDATE memory_versions SET content = NULL, path = NULL, content_sha256 = NULL, content_size_bytes = NULL,
           redacted_at = now(), redacted_by = $2::jsonb WHERE id = $1 RETURNING *`,
          [id, JSON.stringify(actor)],
        );
        return versionOf(redacted ?? row, true);
      });
    },
  };
}
