import * as z from "zod";
import { createdKeySchema, KEYS_PATH, keyInfoSchema, keyListSchema } from "../serve/http/keys-routes.js";

/** A stored key as a running serve lists it. */
export type ServedKey = z.infer<typeof keyInfoSchema>;

/** A key a running serve has just made (shown once). */
export type MadeKey = z.infer<typeof createdKeySchema>;

/** Why a call to the serve failed: its error message, or that it could not be reached. */
export class KeysServerError extends Error {}

const errorSchema = z.object({ error: z.object({ message: z.string() }) });

/** `keys … --server URL`: key administration through a running serve, with the operator key. */
export interface KeysClient {
  create(workspace: string): Promise<MadeKey>;
  list(workspace: string | undefined): Promise<ServedKey[]>;
  revoke(id: string, workspace: string | undefined): Promise<ServedKey>;
}

/** A {@link KeysClient} for the serve at `server` (its base URL) over `fetch`, sending `operatorKey`. */
export function createKeysClient(
  server: string,
  operatorKey: string,
  fetchFn: typeof fetch = fetch,
): KeysClient {
  const base = `${server.replace(/\/+$/, "")}${KEYS_PATH}`;
  const call = async <T>(schema: z.ZodType<T>, path: string, init: RequestInit = {}): Promise<T> => {
    let response: Response;
    try {
      response = await fetchFn(`${base}${path}`, {
        ...init,
        headers: { "x-api-key": operatorKey, "content-type": "application/json" },
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      throw new KeysServerError(`cannot reach ${server}${cause}`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const failure = errorSchema.safeParse(body);
      const message = failure.success ? failure.data.error.message : text.slice(0, 200);
      throw new KeysServerError(`${server} answered ${response.status}: ${message}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new KeysServerError(`${server} answered something that is not a skillwright serve's`);
    return parsed.data;
  };
  const query = (workspace: string | undefined) =>
    workspace === undefined ? "" : `?workspace=${encodeURIComponent(workspace)}`;
  return {
    create: (workspace) =>
      call(createdKeySchema, "", { method: "POST", body: JSON.stringify({ workspace }) }),
    list: async (workspace) => (await call(keyListSchema, query(workspace))).data,
    revoke: (id, workspace) =>
      call(keyInfoSchema, `/${encodeURIComponent(id)}${query(workspace)}`, { method: "DELETE" }),
  };
}
