import { API_KEY_TTL_MS } from "../../serve/http/api-key-cache.js";
import { hashApiKey, newApiKey } from "../../serve/store/ids.js";
import {
  type ApiKeyInfo,
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
import { openStoreFor } from "./serve.js";

const USAGE = [
  "usage: skillwright keys create --workspace <name> [--db DIR|URL]",
  "       skillwright keys list [--workspace <name>] [--json] [--db DIR|URL]",
  "       skillwright keys revoke <id-or-prefix> [--workspace <name>] [--db DIR|URL]",
  "",
].join("\n");

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

/** One line of `keys list`: id, workspace, created. */
function keyLine(key: ApiKeyInfo): string {
  return `${key.id}  ${key.workspace}  ${key.createdAt}\n`;
}

/**
 * `skillwright keys create|list|revoke` over the store (`--db DIR|URL`). `create --workspace W` makes an API
 * key for workspace W (created when missing) and prints it once; the store keeps only its hash. `list` shows
 * each key's id (a prefix of its hash, never the key), workspace and creation time. `revoke <id-or-prefix>`
 * deletes the one key it names (exit 1 when none or several match); running `serve` instances stop admitting
 * it within their key cache's TTL. Exit 2 on bad usage.
 */
export async function keysCommand(io: CliIo, args: CliArgs): Promise<number> {
  const request = keysRequest(args);
  if (typeof request === "string") {
    io.stderr(request === "" ? USAGE : `skillwright: ${request}\n${USAGE}`);
    return 2;
  }
  const store = await openStoreFor(args, io);
  if (store === undefined) return 1;
  try {
    if (request.sub === "create") {
      const key = newApiKey();
      await addApiKey(store.db, await ensureWorkspace(store.db, request.workspace), key);
      io.stdout(`${key}\n`);
      io.stderr(
        `an API key for workspace ${request.workspace} (id ${apiKeyId(hashApiKey(key))}); it is shown only this once\n`,
      );
      return 0;
    }
    if (request.sub === "list") {
      const keys = await listApiKeys(store.db, request.workspace);
      if (args.json) {
        const shown = keys.map((key) => ({
          id: key.id,
          workspace: key.workspace,
          created_at: key.createdAt,
        }));
        io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
      } else if (keys.length === 0) {
        io.stderr("no API keys\n");
      } else {
        for (const key of keys) io.stdout(keyLine(key));
      }
      return 0;
    }
    const result = await revokeApiKey(store.db, request.id, request.workspace);
    if (result.kind === "revoked") {
      const seconds = API_KEY_TTL_MS / 1000;
      io.stdout(
        `revoked key ${result.key.id} of workspace ${result.key.workspace}; ` +
          `running serve instances stop accepting it within ${seconds} s\n`,
      );
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
