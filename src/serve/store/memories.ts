import { createHash } from "node:crypto";
import type {
  BetaManagedAgentsMemory,
  BetaManagedAgentsMemoryListItem,
} from "@anthropic-ai/sdk/resources/beta/memory-stores/memories";
import type { BetaManagedAgentsActor } from "@anthropic-ai/sdk/resources/beta/memory-stores/memory-versions";
import { ApiError, invalid, memoryConflict, notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import {
  contentBytes,
  listedEntry,
  MEMORY_LIMITS,
  memoryPathProblem,
  memoryPrefixProblem,
} from "./memory-paths.js";
import { memoryStoreRow, refuseArchived } from "./memory-stores.js";
import { insertVersion } from "./memory-versions.js";
import type { Page } from "./page.js";
import { iso, num, text } from "./rows.js";

/** Lowercase hex SHA-256 of the UTF-8 bytes of `content`, as the SDK's `content_sha256`. Pure. */
export function contentSha256(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex");
}

/** Refuses (400) a path that breaks the rules or content over 100 kB; nothing is written. Pure. */
export function checkMemoryWrite(path: string | undefined, content: string | undefined): void {
  if (path !== undefined) {
    const problem = memoryPathProblem(path);
    if (problem !== undefined) throw invalid(problem);
  }
  if (content !== undefined && contentBytes(content) > MEMORY_LIMITS.maxContentBytes) {
    throw new ApiError(
      "request_too_large",
      `a memory's content is at most ${MEMORY_LIMITS.maxContentBytes} bytes (UTF-8); this one is ${contentBytes(content)}`,
    );
  }
}

function memoryOf(row: SqlRow, full: boolean): BetaManagedAgentsMemory {
  return {
    id: text(row, "id"),
    type: "memory",
    memory_store_id: text(row, "store_id"),
    memory_version_id: text(row, "version_id"),
    path: text(row, "path"),
    content: full ? text(row, "content") : null,
    content_sha256: text(row, "content_sha256"),
    content_size_bytes: num(row, "content_size_bytes"),
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
  };
}

/** A change to a memory: new content, a new path (a rename), and the content hash it must have now. */
export interface MemoryPatch {
  content: string | undefined;
  path: string | undefined;
  expectedSha256: string | undefined;
}

/** Which memories a list shows and how: under `prefix` (ending in `/`), `depth` levels (0: all). */
export interface MemoryListRequest {
  prefix: string;
  depth: number;
  limit: number;
  /** The `page` cursor a previous list returned. */
  page: string | undefined;
  full: boolean;
}

/** Where a memory listing resumes: after `after` in byte order, skipping the paths under `skip`. */
interface ListCursor {
  after: string;
  skip: string | null;
}

function encodeListCursor(cursor: ListCursor): string {
  return `page_${Buffer.from(JSON.stringify(cursor)).toString("base64url")}`;
}

function decodeListCursor(page: string): ListCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(page.slice(5), "base64url").toString());
    if (
      page.startsWith("page_") &&
      typeof parsed === "object" &&
      parsed !== null &&
      "after" in parsed &&
      typeof parsed.after === "string" &&
      "skip" in parsed &&
      (parsed.skip === null || typeof parsed.skip === "string")
    ) {
      return { after: parsed.after, skip: parsed.skip };
    }
  } catch {}
  throw invalid(`page ${JSON.stringify(page)} is not a cursor this server returned`);
}

/** How many rows one listing statement reads. */
const LIST_BATCH = 200;

/** A store's memories: text documents by path, each change recorded as a version. */
export interface MemoryStore {
  create(
    workspaceId: string,
    storeId: string,
    body: { path: string; content: string },
    actor: BetaManagedAgentsActor,
  ): Promise<BetaManagedAgentsMemory>;
  get(workspaceId: string, storeId: string, id: string): Promise<BetaManagedAgentsMemory>;
  /** The memory at `path`, or undefined when the store has none there. */
  getByPath(workspaceId: string, storeId: string, path: string): Promise<BetaManagedAgentsMemory | undefined>;
  /** Changes content and/or path; a change that changes nothing adds no version. */
  update(
    workspaceId: string,
    storeId: string,
    id: string,
    patch: MemoryPatch,
    actor: BetaManagedAgentsActor,
  ): Promise<BetaManagedAgentsMemory>;
  /** Creates the memory at `path` or replaces its content (a `created` or `modified` version). */
  write(
    workspaceId: string,
    storeId: string,
    path: string,
    content: string,
    actor: BetaManagedAgentsActor,
  ): Promise<BetaManagedAgentsMemory>;
  list(
    workspaceId: string,
    storeId: string,
    request: MemoryListRequest,
  ): Promise<Page<BetaManagedAgentsMemoryListItem>>;
  /** Deletes a memory (a `deleted` version records it), only if its hash is `expectedSha256` when given. */
  delete(
    workspaceId: string,
    storeId: string,
    id: string,
    expectedSha256: string | undefined,
    actor: BetaManagedAgentsActor,
  ): Promise<void>;
}

/** The memory that clashes with `path` in the store (same path, or one above or below it), if any. */
async function clashOf(
  q: SqlQuery,
  storeId: string,
  path: string,
  self: string,
): Promise<SqlRow | undefined> {
  const [row] = await q.query(
    `SELECT id, path FROM memories WHERE store_id = $1 AND id <> $3
     AND (path = $2 OR starts_with($2, path || '/') OR starts_with(path, $2 || '/')) ORDER BY path LIMIT 1`,
    [storeId, path, self],
  );
  return row;
}

/** Refuses (409 `memory_path_conflict_error`) a path another memory holds or overlaps. */
async function refuseClash(q: SqlQuery, storeId: string, path: string, self: string): Promise<void> {
  const clash = await clashOf(q, storeId, path, self);
  if (clash === undefined) return;
  const other = text(clash, "path");
  throw memoryConflict(
    other === path
      ? `memory ${text(clash, "id")} is at ${JSON.stringify(path)} already`
      : `${JSON.stringify(path)} overlaps memory ${text(clash, "id")} at ${JSON.stringify(other)}: one path cannot be a directory of the other`,
    { type: "memory_path_conflict_error", conflicting_memory_id: text(clash, "id"), conflicting_path: other },
  );
}

/** The memory store over `db`. Every write locks its store's row, so path checks hold across instances. */
export function createMemoryStore(db: SqlDriver): MemoryStore {
  const memoryRow = async (q: SqlQuery, storeId: string, id: string): Promise<SqlRow> => {
    const [row] = await q.query("SELECT * FROM memories WHERE id = $1 AND store_id = $2", [id, storeId]);
    if (row === undefined) throw notFound("memory", id);
    return row;
  };
  const insert = async (
    tx: SqlQuery,
    storeId: string,
    path: string,
    content: string,
    actor: BetaManagedAgentsActor,
  ): Promise<SqlRow> => {
    await refuseClash(tx, storeId, path, "");
    const id = newId("mem");
    const sha256 = contentSha256(content);
    const size = contentBytes(content);
    const versionId = await insertVersion(tx, {
      storeId,
      memoryId: id,
      operation: "created",
      path,
      content,
      sha256,
      size,
      actor,
    });
    const [row] = await tx.query(
      `INSERT INTO memories (id, store_id, path, content, content_sha256, content_size_bytes, version_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [id, storeId, path, content, sha256, size, versionId],
    );
    return row ?? (await memoryRow(tx, storeId, id));
  };
  const change = async (
    tx: SqlQuery,
    current: SqlRow,
    next: { path: string; content: string },
    actor: BetaManagedAgentsActor,
  ): Promise<SqlRow> => {
    if (next.path === text(current, "path") && next.content === text(current, "content")) return current;
    const storeId = text(current, "store_id");
    if (next.path !== text(current, "path")) await refuseClash(tx, storeId, next.path, text(current, "id"));
    const sha256 = contentSha256(next.content);
    const size = contentBytes(next.content);
    const versionId = await insertVersion(tx, {
      storeId,
      memoryId: text(current, "id"),
      operation: "modified",
      path: next.path,
      content: next.content,
      sha256,
      size,
      actor,
    });
    const [row] = await tx.query(
      `UPDATE memories SET path = $2, content = $3, content_sha256 = $4, content_size_bytes = $5, version_id = $6,
       updated_at = now() WHERE id = $1 RETURNING *`,
      [text(current, "id"), next.path, next.content, sha256, size, versionId],
    );
    return row ?? current;
  };
  return {
    async create(workspaceId, storeId, body, actor) {
      checkMemoryWrite(body.path, body.content);
      return db.transaction(async (tx) => {
        refuseArchived(await memoryStoreRow(tx, workspaceId, storeId, true));
        return memoryOf(await insert(tx, storeId, body.path, body.content, actor), false);
      });
    },
    async get(workspaceId, storeId, id) {
      await memoryStoreRow(db, workspaceId, storeId);
      return memoryOf(await memoryRow(db, storeId, id), true);
    },
    async getByPath(workspaceId, storeId, path) {
      await memoryStoreRow(db, workspaceId, storeId);
      const [row] = await db.query("SELECT * FROM memories WHERE store_id = $1 AND path = $2", [
        storeId,
        path,
      ]);
      return row === undefined ? undefined : memoryOf(row, true);
    },
    async update(workspaceId, storeId, id, patch, actor) {
      checkMemoryWrite(patch.path, patch.content);
      return db.transaction(async (tx) => {
        refuseArchived(await memoryStoreRow(tx, workspaceId, storeId, true));
        const current = await memoryRow(tx, storeId, id);
        const next = {
          path: patch.path ?? text(current, "path"),
          content: patch.content ?? text(current, "content"),
        };
        const already = next.path === text(current, "path") && next.content === text(current, "content");
        if (
          patch.expectedSha256 !== undefined &&
          patch.expectedSha256 !== text(current, "content_sha256") &&
          !already
        ) {
          throw memoryConflict(
            `memory ${id} no longer has content_sha256 ${patch.expectedSha256}: retrieve it and retry`,
            { type: "memory_precondition_failed_error" },
          );
        }
        return memoryOf(await change(tx, current, next, actor), false);
      });
    },
    async write(workspaceId, storeId, path, content, actor) {
      checkMemoryWrite(path, content);
      return db.transaction(async (tx) => {
        refuseArchived(await memoryStoreRow(tx, workspaceId, storeId, true));
        const [current] = await tx.query("SELECT * FROM memories WHERE store_id = $1 AND path = $2", [
          storeId,
          path,
        ]);
        const row =
          current === undefined
            ? await insert(tx, storeId, path, content, actor)
            : await change(tx, current, { path, content }, actor);
        return memoryOf(row, true);
      });
    },
    async list(workspaceId, storeId, request) {
      const prefixProblem = memoryPrefixProblem(request.prefix);
      if (prefixProblem !== undefined) throw invalid(prefixProblem);
      await memoryStoreRow(db, workspaceId, storeId);
      const items: { item: BetaManagedAgentsMemoryListItem; cursor: ListCursor }[] = [];
      let cursor: ListCursor =
        request.page === undefined || request.page === ""
          ? { after: "", skip: null }
          : decodeListCursor(request.page);
      const columns = `id, store_id, path, content_sha256, content_size_bytes, version_id, created_at, updated_at${request.full ? ", content" : ""}`;
      for (;;) {
        const rows = await db.query(
          `SELECT ${columns} FROM memories WHERE store_id = $1 AND starts_with(path, $2) AND path > $3
           AND ($4::text IS NULL OR NOT starts_with(path, $4)) ORDER BY path LIMIT $5`,
          [storeId, request.prefix, cursor.after, cursor.skip, LIST_BATCH],
        );
        let restart = false;
        for (const row of rows) {
          const path = text(row, "path");
          const entry = listedEntry(path, request.prefix, request.depth);
          if (entry.kind === "memory") {
            cursor = { after: path, skip: cursor.skip };
            items.push({ item: memoryOf(row, request.full), cursor });
          } else {
            cursor = { after: path, skip: entry.path };
            items.push({ item: { type: "memory_prefix", path: entry.path }, cursor });
            restart = true;
          }
          if (items.length > request.limit || restart) break;
        }
        if (items.length > request.limit || (!restart && rows.length < LIST_BATCH)) break;
      }
      const kept = items.slice(0, request.limit);
      const hasMore = items.length > request.limit;
      const ids = kept.flatMap(({ item }) => (item.type === "memory" ? [item.id] : []));
      const last = kept.at(-1);
      return {
        data: kept.map(({ item }) => item),
        has_more: hasMore,
        first_id: ids[0] ?? null,
        last_id: ids.at(-1) ?? null,
        next_page: hasMore && last !== undefined ? encodeListCursor(last.cursor) : null,
        prev_page: null,
      };
    },
    async delete(workspaceId, storeId, id, expectedSha256, actor) {
      await db.transaction(async (tx) => {
        await memoryStoreRow(tx, workspaceId, storeId, true);
        const current = await memoryRow(tx, storeId, id);
        if (expectedSha256 !== undefined && expectedSha256 !== text(current, "content_sha256")) {
          throw memoryConflict(
            `memory ${id} no longer has content_sha256 ${expectedSha256}: nothing was deleted`,
            { type: "memory_precondition_failed_error" },
          );
        }
        await insertVersion(tx, {
          storeId,
          memoryId: id,
          operation: "deleted",
          path: text(current, "path"),
          content: null,
          sha256: null,
          size: null,
          actor,
        });
        await tx.query("DELETE FROM memories WHERE id = $1", [id]);
      });
    },
  };
}
