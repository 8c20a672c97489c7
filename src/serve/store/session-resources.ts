import type {
  BetaManagedAgentsFileResource,
  BetaManagedAgentsMemoryStoreResource,
} from "@anthropic-ai/sdk/resources/beta/sessions/resources";

/** A memory store as a session has it attached: the SDK's resource plus the id, times and mount it is served with. */
export type AttachedMemoryStore = BetaManagedAgentsMemoryStoreResource & {
  id: string;
  created_at: string;
  updated_at: string;
  mount_path: string;
  access: "read_write" | "read_only";
};

/** A session resource serve mounts: an uploaded file or a memory store. */
export type AttachedResource = BetaManagedAgentsFileResource | AttachedMemoryStore;

/**
 * A resource as the session's row keeps it (in its body): the resource the SDK sees, and whether it was given
 * at `sessions.create` (its instructions are in the system prompt) or attached later (announced in a message).
 */
export interface StoredResource {
  resource: AttachedResource;
  atCreate: boolean;
}

/** Where memory stores mount: `/mnt/memory/<store-slug>`. */
export const MEMORY_MOUNT_ROOT = "/mnt/memory";
/** Where an uploaded file mounts unless the resource names a path: `/mnt/session/uploads/<file_id>`. */
export const UPLOADS_MOUNT_ROOT = "/mnt/session/uploads";
/** A served session's own scratch space (its working directory). */
export const SCRATCH_ROOT = "/workspace";
/** How many resources one session may have attached. */
export const MAX_SESSION_RESOURCES = 100;
