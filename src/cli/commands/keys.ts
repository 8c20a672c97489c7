import { newApiKey } from "../../serve/store/ids.js";
import { addApiKey, ensureWorkspace } from "../../serve/store/workspaces.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { openStoreFor } from "./serve.js";

/**
 * `skillwright keys create --workspace W [--db DIR|URL]`: makes an API key for workspace W (created when
 * missing) and prints it; the store keeps only its hash. Exit 2 on bad usage.
 */
export async function keysCommand(io: CliIo, args: CliArgs): Promise<number> {
  const [sub] = args.positionals;
  if (sub !== "create" || args.workspace === undefined || args.workspace.trim() === "") {
    io.stderr("usage: skillwright keys create --workspace <name> [--db DIR|URL]\n");
    return 2;
  }
  const store = await openStoreFor(args, io);
  if (store === undefined) return 1;
  try {
    const key = newApiKey();
    await addApiKey(store.db, await ensureWorkspace(store.db, args.workspace.trim()), key);
    io.stdout(`${key}\n`);
    io.stderr(`an API key for workspace ${args.workspace.trim()}; it is shown only this once\n`);
    return 0;
  } finally {
    await store.close();
  }
}
