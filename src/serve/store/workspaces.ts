import type { SqlQuery } from "./driver.js";
import { hashApiKey, newId } from "./ids.js";
import { text } from "./rows.js";

/** The workspace `serve --api-key` admits its key to. */
export const DEFAULT_WORKSPACE = "default";

/** The id of the workspace called `name`, created when missing. */
export async function ensureWorkspace(db: SqlQuery, name: string): Promise<string> {
  await db.query("INSERT INTO workspaces (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
    newId("wrkspc"),
    name,
  ]);
  const [row] = await db.query("SELECT id FROM workspaces WHERE name = $1", [name]);
  if (row === undefined) throw new Error(`workspace ${name} could not be created`);
  return text(row, "id");
}

/** Admits `key` to the workspace (stores its hash; admitting it again is a no-op). */
export async function addApiKey(db: SqlQuery, workspaceId: string, key: string): Promise<void> {
  await db.query(
    "INSERT INTO api_keys (key_hash, workspace_id) VALUES ($1, $2) ON CONFLICT (key_hash) DO NOTHING",
    [hashApiKey(key), workspaceId],
  );
}

/** The workspace a key belongs to, or undefined for an unknown key. */
export async function workspaceForKey(db: SqlQuery, key: string): Promise<string | undefined> {
  return workspaceForKeyHash(db, hashApiKey(key));
}

/** The workspace of the key whose {@link hashApiKey} is `keyHash`, or undefined for an unknown key. */
export async function workspaceForKeyHash(db: SqlQuery, keyHash: string): Promise<string | undefined> {
  const [row] = await db.query("SELECT workspace_id FROM api_keys WHERE key_hash = $1", [keyHash]);
  return row === undefined ? undefined : text(row, "workspace_id");
}
