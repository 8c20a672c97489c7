import type { SqlQuery, SqlRow } from "./driver.js";
import { hashApiKey, newId } from "./ids.js";
import { iso, text } from "./rows.js";

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

/**
 * Admits `key` to the workspace (stores its hash; admitting a key stored already is a no-op). A key revoked
 * before stays revoked: nothing is admitted and the result says so, with the key's id.
 */
export async function addApiKey(
  db: SqlQuery,
  workspaceId: string,
  key: string,
): Promise<{ kind: "admitted" } | { kind: "revoked"; id: string }> {
  const hash = hashApiKey(key);
  // One statement: insert when new, and read back whether the stored row (new or old) is revoked.
  const [row] = await db.query(
    `WITH added AS (
       INSERT INTO api_keys (key_hash, workspace_id) VALUES ($1, $2) ON CONFLICT (key_hash) DO NOTHING
       RETURNING key_hash
     )
     SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_hash = $1 AND NOT EXISTS (SELECT 1 FROM added)`,
    [hash, workspaceId],
  );
  return row?.revoked === true ? { kind: "revoked", id: apiKeyId(hash) } : { kind: "admitted" };
}

/** The workspace of the key whose {@link hashApiKey} is `keyHash`, or undefined for an unknown or revoked key. */
export async function workspaceForKeyHash(db: SqlQuery, keyHash: string): Promise<string | undefined> {
  const [row] = await db.query(
    "SELECT workspace_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
    [keyHash],
  );
  return row === undefined ? undefined : text(row, "workspace_id");
}

/** How many hex characters of a key's hash name it in `keys list`/`revoke`: enough to tell keys apart, never the hash. */
export const API_KEY_ID_LENGTH = 12;

/** The shortest id prefix `keys revoke` accepts, so that a stray character cannot pick a key by chance. */
export const API_KEY_ID_MIN_PREFIX = 4;

/** A stored API key as `keys list` shows it: a short id (a prefix of its hash), never the key or its hash. */
export interface ApiKeyInfo {
  /** The first {@link API_KEY_ID_LENGTH} hex characters of the key's SHA-256. */
  id: string;
  workspace: string;
  /** ISO 8601. */
  createdAt: string;
}

/** The non-secret id of the key whose {@link hashApiKey} is `keyHash`. */
export function apiKeyId(keyHash: string): string {
  return keyHash.slice(0, API_KEY_ID_LENGTH);
}

/** The columns {@link keyInfo} reads, from `api_keys k` joined to its workspace `w`. */
const KEY_ROWS = `SELECT k.key_hash, w.name, k.created_at FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
  WHERE k.revoked_at IS NULL`;

/** A row of {@link KEY_ROWS} as `keys list` shows it. */
function keyInfo(row: SqlRow): ApiKeyInfo {
  return {
    id: apiKeyId(text(row, "key_hash")),
    workspace: text(row, "name"),
    createdAt: iso(row, "created_at"),
  };
}

/** The stored keys that are not revoked, oldest first; only workspace `workspace` when it is given. */
export async function listApiKeys(db: SqlQuery, workspace?: string): Promise<ApiKeyInfo[]> {
  const rows = await db.query(
    `${KEY_ROWS} AND ($1::text IS NULL OR w.name = $1) ORDER BY k.created_at, k.key_hash`,
    [workspace ?? null],
  );
  return rows.map(keyInfo);
}

/** What {@link revokeApiKey} did: the key it deleted, or why it deleted none. */
export type RevokeResult =
  | { kind: "revoked"; key: ApiKeyInfo }
  | { kind: "invalid"; message: string }
  | { kind: "none" }
  | { kind: "several"; ids: string[] };

/**
 * Whether `prefix` can name a key: {@link API_KEY_ID_MIN_PREFIX} to 64 hex characters (case-insensitive).
 * Returns the lowercased prefix, or undefined.
 */
export function keyIdPrefix(prefix: string): string | undefined {
  const lower = prefix.trim().toLowerCase();
  return new RegExp(`^[0-9a-f]{${API_KEY_ID_MIN_PREFIX},64}$`).test(lower) ? lower : undefined;
}

/** Why `prefix` names no key ({@link keyIdPrefix} refused it), for the user. */
export function keyIdProblem(prefix: string): string {
  return `a key id is ${API_KEY_ID_MIN_PREFIX} or more hex characters (see \`skillwright keys list\`), not "${prefix}"`;
}

/**
 * Revokes the one key whose id starts with `prefix` (in workspace `workspace` when given), for good: its row
 * stays, marked, so that no `serve --api-key` admits it again. Revokes nothing when the prefix is malformed,
 * matches no live key, or matches several. Running `serve` instances keep admitting a revoked key until their
 * key cache entry expires (`API_KEY_TTL_MS`).
 */
export async function revokeApiKey(db: SqlQuery, prefix: string, workspace?: string): Promise<RevokeResult> {
  const wanted = keyIdPrefix(prefix);
  if (wanted === undefined) return { kind: "invalid", message: keyIdProblem(prefix) };
  const rows = await db.query(
    `${KEY_ROWS} AND left(k.key_hash, $1) = $2 AND ($3::text IS NULL OR w.name = $3) ORDER BY k.created_at, k.key_hash`,
    [wanted.length, wanted, workspace ?? null],
  );
  const [only, ...others] = rows;
  if (only === undefined) return { kind: "none" };
  if (others.length > 0) return { kind: "several", ids: rows.map((row) => apiKeyId(text(row, "key_hash"))) };
  await db.query("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1", [text(only, "key_hash")]);
  return { kind: "revoked", key: keyInfo(only) };
}
