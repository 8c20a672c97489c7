import { API_KEY_TTL_MS } from "../../serve/http/api-key-cache.js";
import { lockDataDir } from "../../serve/store/data-dir-lock.js";
import { hashApiKey, newApiKey } from "../../serve/store/ids.js";
import { addToKeyInbox } from "../../serve/store/key-inbox.js";
import { isPostgresUrl } from "../../serve/store/open-driver.js";
import {
  addApiKey,
  apiKeyId,
  ensureWorkspace,
  keyIdPrefix,
  keyIdProblem,
  listApiKeys,
  revokeApiKey,
} from "../../serve/store/workspaces.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { createKeysClient, KeysServerError } from "../keys-client.js";
import { dbLocation, openStoreFor, reportOpenFailure } from "../open-store.js";
import { usageLines } from "../usage.js";

const USAGE = usageLines("keys");

/** What the command line asks for, or undefined when it is bad usage. */
type KeysRequest =
  | { sub: "create"; workspace: string }
  | { sub: "list"; workspace: string | undefined }
  | { sub: "revoke"; id: string; workspace: string | undefined };

/** Reads the sub-command and its operands; on bad usage (exit 2), the problem ("" when the usage says it). */
function keysRequest(args: CliArgs): KeysRequest | string {
  const [sub, ...rest] = args.positionals;
  const workspace = args.workspace?.trim();
  if (workspace === "") return "--workspace needs a name";
  if (sub === "create") return rest.length === 0 && workspace !== undefined ? { sub, workspace } : "";
  if (sub === "list") return rest.length === 0 ? { sub, workspace } : "";
  if (sub === "revoke") {
    const [id, ...extra] = rest;
    if (id === undefined || extra.length > 0) return "";
    return keyIdPrefix(id) === undefined ? keyIdProblem(id) : { sub, id, workspace };
  }
  return "";
}

/** A key as `keys list` shows it: id, workspace, creation time (ISO 8601). */
interface ListedKey {
  id: string;
  workspace: string;
  createdAt: string;
}

/** Writes the keys as `keys list` shows them: lines of id, workspace, created; or a JSON array with `--json`. */
function printKeys(io: CliIo, keys: readonly ListedKey[], json: boolean): void {
  if (json) {
    const shown = keys.map((key) => ({ id: key.id, workspace: key.workspace, created_at: key.createdAt }));
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else if (keys.length === 0) {
    io.stderr("no API keys\n");
  } else {
    for (const key of keys) io.stdout(`${key.id}  ${key.workspace}  ${key.createdAt}\n`);
  }
}

/** Writes a new key (stdout, the only place it is ever shown) and its id (stderr). */
function printNewKey(io: CliIo, key: string, workspace: string): void {
  io.stdout(`${key}\n`);
  io.stderr(
    `an API key for workspace ${workspace} (id ${apiKeyId(hashApiKey(key))}); it is shown only this once\n`,
  );
}

/** `keys … --server URL`: the same three sub-commands through a running serve, with its operator key. */
async function keysOverServer(
  io: CliIo,
  args: CliArgs,
  server: string,
  request: KeysRequest,
): Promise<number> {
  const operatorKey = args.apiKey ?? io.env.SKILLWRIGHT_API_KEY;
  if (operatorKey === undefined || operatorKey === "") {
    io.stderr(
      "skillwright: keys --server needs the operator key (the key serve was started with): --api-key KEY or SKILLWRIGHT_API_KEY\n",
    );
    return 2;
  }
  const client = createKeysClient(server, operatorKey);
  try {
    if (request.sub === "create") {
      const made = await client.create(request.workspace);
      printNewKey(io, made.key, made.workspace);
      return 0;
    }
    if (request.sub === "list") {
      const keys = await client.list(request.workspace);
      printKeys(
        io,
        keys.map((key) => ({ id: key.id, workspace: key.workspace, createdAt: key.created_at })),
        args.json,
      );
      return 0;
    }
    const revoked = await client.revoke(request.id, request.workspace);
    io.stdout(
      `revoked key ${revoked.id} of workspace ${revoked.workspace}; ${server} refuses it now, other serve ` +
        `instances on its database within ${API_KEY_TTL_MS / 1000} s\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof KeysServerError)) throw error;
    io.stderr(`skillwright: ${error.message}\n`);
    return 1;
  }
}

/** What a command refused because serve holds the PGlite dir adds: how to do the same through serve. */
function serverHint(sub: KeysRequest["sub"]): string {
  return `\nto administer keys while serve runs, go through it: skillwright keys ${sub} … --server URL --api-key KEY (the key serve was started with)`;
}

/**
 * `keys create` on a PGlite dir: the key goes to the dir's inbox (under the dir's lock), which the next opener
 * of the store takes in; starting PGlite would take seconds. Refused, like every opener, while serve holds it.
 */
async function createInInbox(io: CliIo, dir: string, workspace: string): Promise<number> {
  let lock: Awaited<ReturnType<typeof lockDataDir>>;
  try {
    lock = await lockDataDir(dir, "skillwright keys create");
  } catch (error) {
    reportOpenFailure(io, dir, error, serverHint("create"));
    return 1;
  }
  const key = newApiKey();
  try {
    await addToKeyInbox(dir, { keyHash: hashApiKey(key), workspace, createdAt: new Date().toISOString() });
  } catch (error) {
    // Nothing was printed: the key, never shown, is as good as never made.
    io.stderr(
      `skillwright: cannot keep the key in ${dir}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  } finally {
    await lock.release();
  }
  printNewKey(io, key, workspace);
  return 0;
}

/**
 * `skillwright keys create|list|revoke` over the store (`--db DIR|URL`), or through a running serve
 * (`--server URL` with the operator key, `--api-key` or SKILLWRIGHT_API_KEY). `create --workspace W` makes an
 * API key for workspace W (created when missing) and prints it once; the store keeps only its hash. `list` shows
 * each key's id (a prefix of its hash, never the key), workspace and creation time. `revoke <id-or-prefix>`
 * revokes the one key it names (exit 1 when none or several match); running `serve` instances stop admitting
 * it within their key cache's TTL, the one it went through at once. A PGlite dir a serve holds is refused
 * (exit 1, naming the holder). Exit 2 on bad usage.
 */
export async function keysCommand(io: CliIo, args: CliArgs): Promise<number> {
  const request = keysRequest(args);
  if (typeof request === "string") {
    io.stderr(request === "" ? USAGE : `skillwright: ${request}\n${USAGE}`);
    return 2;
  }
  if (args.server !== undefined) {
    if (args.db !== undefined) {
      io.stderr(`skillwright: give --db or --server, not both\n${USAGE}`);
      return 2;
    }
    return keysOverServer(io, args, args.server, request);
  }
  const location = dbLocation(args.db, io);
  if (request.sub === "create" && !isPostgresUrl(location))
    return createInInbox(io, location, request.workspace);
  const store = await openStoreFor(args, io, `skillwright keys ${request.sub}`, serverHint(request.sub));
  if (store === undefined) return 1;
  try {
    if (request.sub === "create") {
      const key = newApiKey();
      await addApiKey(store.db, await ensureWorkspace(store.db, request.workspace), key);
      printNewKey(io, key, request.workspace);
      return 0;
    }
    if (request.sub === "list") {
      printKeys(io, await listApiKeys(store.db, request.workspace), args.json);
      return 0;
    }
    const result = await revokeApiKey(store.db, request.id, request.workspace);
    if (result.kind === "revoked") {
      // On a PGlite dir no serve runs (this process holds it); on PostgreSQL, every instance's key cache expires.
      const running =
        store.db.kind === "postgres"
          ? `; running serve instances stop accepting it within ${API_KEY_TTL_MS / 1000} s`
          : "";
      io.stdout(`revoked key ${result.key.id} of workspace ${result.key.workspace}${running}\n`);
      return 0;
    }
    const where = request.workspace === undefined ? "" : ` in workspace ${request.workspace}`;
    if (result.kind === "several") {
      io.stderr(
        `skillwright: ${result.ids.length} keys${where} match "${request.id}" (${result.ids.join(", ")}): give more of the id\n`,
      );
    } else if (result.kind === "none") {
      io.stderr(`skillwright: no key${where} matches "${request.id}" (see \`skillwright keys list\`)\n`);
    } else {
      io.stderr(`skillwright: ${result.message}\n`);
    }
    return 1;
  } finally {
    await store.close();
  }
}
