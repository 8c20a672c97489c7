import type { BetaEnvironment } from "@anthropic-ai/sdk/resources/beta/environments/environments";
import { notFound } from "../errors.js";
import type { SqlDriver, SqlQuery, SqlRow } from "./driver.js";
import { newId } from "./ids.js";
import { type Page, type PageRequest, toPage } from "./page.js";
import { iso, isoOrNull, num, record, text } from "./rows.js";

/** What an environment holds besides its id and timestamps (checked by the route). */
export interface EnvironmentBody {
  name: string;
  description: string | null;
  config: BetaEnvironment["config"];
  metadata: Record<string, string>;
  scope?: "organization" | "account";
}

function environmentOf(row: SqlRow): BetaEnvironment {
  const body = record(row, "body");
  return {
    ...(body as unknown as EnvironmentBody),
    id: text(row, "id"),
    type: "environment",
    archived_at: isoOrNull(row, "archived_at"),
    created_at: iso(row, "created_at"),
    updated_at: iso(row, "updated_at"),
  };
}

/** Environments: named settings a session runs in. */
export interface EnvironmentStore {
  create(workspaceId: string, body: EnvironmentBody): Promise<BetaEnvironment>;
  get(workspaceId: string, id: string): Promise<BetaEnvironment>;
  update(
    workspaceId: string,
    id: string,
    patch: (current: EnvironmentBody) => EnvironmentBody,
  ): Promise<BetaEnvironment>;
  list(workspaceId: string, page: PageRequest, includeArchived: boolean): Promise<Page<BetaEnvironment>>;
  delete(workspaceId: string, id: string): Promise<void>;
  archive(workspaceId: string, id: string): Promise<BetaEnvironment>;
}

/** The environment store over `db`. */
export function createEnvironmentStore(db: SqlDriver): EnvironmentStore {
  const getRow = async (q: SqlQuery, workspaceId: string, id: string, lock = false): Promise<SqlRow> => {
    const [row] = await q.query(
      `SELECT * FROM environments WHERE id = $1 AND workspace_id = $2${lock ? " FOR UPDATE" : ""}`,
      [id, workspaceId],
    );
    if (row === undefined) throw notFound("environment", id);
    return row;
  };
  return {
    async create(workspaceId, body) {
      const id = newId("env");
      await db.query("INSERT INTO environments (id, workspace_id, body) VALUES ($1, $2, $3::jsonb)", [
        id,
        workspaceId,
        JSON.stringify(body),
      ]);
      return environmentOf(await getRow(db, workspaceId, id));
    },
    async get(workspaceId, id) {
      return environmentOf(await getRow(db, workspaceId, id));
    },
    async update(workspaceId, id, patch) {
      return db.transaction(async (tx) => {
        const current = record(await getRow(tx, workspaceId, id, true), "body");
        const next = patch(current as unknown as EnvironmentBody);
        await tx.query("UPDATE environments SET body = $1::jsonb, updated_at = now() WHERE id = $2", [
          JSON.stringify(next),
          id,
        ]);
        return environmentOf(await getRow(tx, workspaceId, id));
      });
    },
    async list(workspaceId, page, includeArchived) {
      const rows = await db.query(
        `SELECT * FROM environments WHERE workspace_id = $1 AND ($2::bigint IS NULL OR seq < $2)${includeArchived ? "" : " AND archived_at IS NULL"} ORDER BY seq DESC LIMIT $3`,
        [workspaceId, page.after ?? null, page.limit + 1],
      );
      return toPage(
        rows.map((row) => ({ item: environmentOf(row), seq: num(row, "seq") })),
        page.limit,
      );
    },
    async delete(workspaceId, id) {
      await getRow(db, workspaceId, id);
      await db.query("DELETE FROM environments WHERE id = $1 AND workspace_id = $2", [id, workspaceId]);
    },
    async archive(workspaceId, id) {
      await getRow(db, workspaceId, id);
      await db.query(
        "UPDATE environments SET archived_at = coalesce(archived_at, now()), updated_at = now() WHERE id = $1",
        [id],
      );
      return environmentOf(await getRow(db, workspaceId, id));
    },
  };
}
