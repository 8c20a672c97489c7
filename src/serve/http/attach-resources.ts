import * as z from "zod";
import { invalid, notImplemented } from "../errors.js";
import { newId } from "../store/ids.js";
import { storeSlug } from "../store/memory-paths.js";
import {
  type AttachedResource,
  MAX_SESSION_RESOURCES,
  MEMORY_MOUNT_ROOT,
  mountPathProblem,
  mountsClash,
  type StoredResource,
  UPLOADS_MOUNT_ROOT,
} from "../store/session-resources.js";
import type { Store } from "../store/store.js";

/** A resource as `sessions.create` and `sessions.resources.add` take it (the SDK's resource params). */
export const resourceParam = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("memory_store"),
    memory_store_id: z.string().min(1),
    access: z.enum(["read_write", "read_only"]).nullish(),
    instructions: z.string().max(4096).nullish(),
  }),
  z.strictObject({
    type: z.literal("file"),
    file_id: z.string().min(1),
    mount_path: z.string().min(1).nullish(),
  }),
  z.looseObject({ type: z.literal("github_repository") }),
]);
export type ResourceParam = z.infer<typeof resourceParam>;

/**
 * Checks `params` against the workspace and the session's `existing` resources and returns them as the session
 * keeps them, stamped `at`. A store or file of another workspace (or none) is a 404, an archived store a 400,
 * two resources on one mount path a 400, a GitHub repository a 501: all before anything is stored.
 */
export async function attachResources(
  store: Store,
  workspaceId: string,
  params: readonly ResourceParam[],
  existing: readonly AttachedResource[],
  atCreate: boolean,
): Promise<StoredResource[]> {
  if (existing.length + params.length > MAX_SESSION_RESOURCES) {
    throw invalid(`a session has at most ${MAX_SESSION_RESOURCES} resources`);
  }
  const now = new Date().toISOString();
  const taken = existing.map((r) => r.mount_path);
  const out: StoredResource[] = [];
  for (const param of params) {
    let resource: AttachedResource;
    if (param.type === "memory_store") {
      const memoryStore = await store.memoryStores.get(workspaceId, param.memory_store_id);
      if (memoryStore.archived_at !== null) throw invalid(`memory store ${memoryStore.id} is archived`);
      resource = {
        id: newId("sesrsc"),
        type: "memory_store",
        memory_store_id: memoryStore.id,
        access: param.access ?? "read_write",
        description: memoryStore.description,
        instructions: param.instructions ?? null,
        mount_path: `${MEMORY_MOUNT_ROOT}/${storeSlug(memoryStore.name)}`,
        name: memoryStore.name,
        created_at: now,
        updated_at: now,
      };
    } else if (param.type === "file") {
      const file = await store.files.get(workspaceId, param.file_id);
      const mountPath = param.mount_path ?? `${UPLOADS_MOUNT_ROOT}/${file.id}`;
      const problem = mountPathProblem(mountPath, file.id);
      if (problem !== undefined) throw invalid(`mount_path ${JSON.stringify(mountPath)} ${problem}`);
      resource = {
        id: newId("sesrsc"),
        type: "file",
        file_id: file.id,
        mount_path: mountPath,
        created_at: now,
        updated_at: now,
      };
    } else {
      throw notImplemented("github_repository session resources");
    }
    const clash = taken.find((path) => mountsClash(path, resource.mount_path));
    if (clash !== undefined) {
      throw invalid(`resource mount path ${resource.mount_path} clashes with ${clash}, already mounted`);
    }
    taken.push(resource.mount_path);
    out.push({ resource, atCreate });
  }
  return out;
}
