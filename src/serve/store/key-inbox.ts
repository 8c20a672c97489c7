import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import type { SqlDriver } from "./driver.js";
import { ensureWorkspace } from "./workspaces.js";

/**
 * The file in a PGlite data dir where `keys create` leaves new keys (their hashes) for the next opener of the
 * store to take in: starting PGlite takes seconds (and initialising a new dir, tens), appending a line does not.
 */
export const KEY_INBOX_FILE = "skillwright-new-keys.jsonl";

/** One key waiting in the inbox: its hash (never the key), its workspace's name, when it was made. */
export interface InboxKey {
  keyHash: string;
  workspace: string;
  /** ISO 8601. */
  createdAt: string;
}

const inboxLineSchema = z.object({
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  workspace: z.string().min(1),
  created_at: z.string().datetime(),
});

/**
 * Appends `key` to the inbox of data dir `dir` and flushes it (and the dir) to disk before returning, so that
 * a key once printed is never lost. The caller holds the dir's lock, so no opener is taking the inbox in.
 */
export async function addToKeyInbox(dir: string, key: InboxKey): Promise<void> {
  const line = JSON.stringify({ key_hash: key.keyHash, workspace: key.workspace, created_at: key.createdAt });
  const file = await open(join(dir, KEY_INBOX_FILE), "a", 0o600);
  try {
    await file.write(`${line}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  // The file may be new: its directory entry must reach the disk too (not every platform can sync a dir).
  const folder = await open(dir, "r").catch(() => undefined);
  await folder?.sync().catch(() => {});
  await folder?.close();
}

/** The keys of an inbox's text, each line read on its own (a line cut short by a crash is skipped). Pure. */
export function inboxKeys(text: string): InboxKey[] {
  const keys: InboxKey[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let parsed: ReturnType<typeof inboxLineSchema.safeParse>;
    try {
      parsed = inboxLineSchema.safeParse(JSON.parse(line));
    } catch {
      continue;
    }
    if (parsed.success) {
      keys.push({
        keyHash: parsed.data.key_hash,
        workspace: parsed.data.workspace,
        createdAt: parsed.data.created_at,
      });
    }
  }
  return keys;
}

/**
 * Moves the keys waiting in data dir `dir`'s inbox into the store `db` (their workspaces are created when
 * missing) in one transaction, then empties the inbox; returns how many keys it held. Taking a key in twice
 * (a crash between the commit and the removal) changes nothing: a stored key, revoked or not, stays as it is.
 */
export async function takeKeyInbox(db: SqlDriver, dir: string): Promise<number> {
  const path = join(dir, KEY_INBOX_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const keys = inboxKeys(text);
  await db.transaction(async (tx) => {
    for (const key of keys) {
      const workspaceId = await ensureWorkspace(tx, key.workspace);
      await tx.query(
        `INSERT INTO api_keys (key_hash, workspace_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (key_hash) DO NOTHING`,
        [key.keyHash, workspaceId, key.createdAt],
      );
    }
  });
  await unlink(path);
  return keys.length;
}
