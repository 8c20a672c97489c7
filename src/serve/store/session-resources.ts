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
  /** False for one attached later whose announcement no turn has carried yet. */
  announced?: boolean;
}

/** Where memory stores mount: `/mnt/memory/<store-slug>`. */
export const MEMORY_MOUNT_ROOT = "/mnt/memory";
/** Where an uploaded file mounts unless the resource names a path: `/mnt/session/uploads/<file_id>`. */
export const UPLOADS_MOUNT_ROOT = "/mnt/session/uploads";
/** A served session's own scratch space (its working directory). */
export const SCRATCH_ROOT = "/workspace";
/** How many resources one session may have attached. */
export const MAX_SESSION_RESOURCES = 100;

/**
 * Why a file resource's `mount_path` is refused, or undefined when it is fine: it must be absolute and
 * normalised (no `.`/`..`, no trailing or doubled `/`), at most 1,024 bytes, and outside `/mnt/memory` and
 * `/workspace`, which the session's stores and scratch space own. Pure.
 */
export function mountPathProblem(path: string): string | undefined {
  if (!path.startsWith("/") || path === "/") return "must be an absolute path below /";
  if (Buffer.byteLength(path, "utf8") > 1024) return "must be at most 1024 bytes";
  const segments = path.slice(1).split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return "must be normalised: no empty, . or .. segments";
  }
  for (const owned of [MEMORY_MOUNT_ROOT, SCRATCH_ROOT]) {
    if (path === owned || path.startsWith(`${owned}/`) || owned.startsWith(`${path}/`)) {
      return `may not be in or above ${owned}`;
    }
  }
  return undefined;
}

/** Whether two mount paths clash: the same, or one inside the other. Pure. */
export function mountsClash(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
