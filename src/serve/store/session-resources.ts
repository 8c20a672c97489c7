import type {
  BetaManagedAgentsFileResource,
  BetaManagedAgentsMemoryStoreResource,
} from "@anthropic-ai/sdk/resources/beta/sessions/resources";
import { pathProblem } from "../../io/path-limits.js";

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
/** Where a served session's skills' files are readable: `/mnt/skills/<skill-name>/<file>`. */
export const SKILLS_MOUNT_ROOT = "/mnt/skills";
/**
 * The roots a file resource may not mount in or above: the session's memory stores, its scratch space, its
 * skills' files and the uploads' root (a file mounts there only at its own default path,
 * `/mnt/session/uploads/<file_id>`).
 */
export const RESERVED_MOUNT_ROOTS = [
  MEMORY_MOUNT_ROOT,
  SCRATCH_ROOT,
  SKILLS_MOUNT_ROOT,
  "/mnt/session",
] as const;
/** How many resources one session may have attached. */
export const MAX_SESSION_RESOURCES = 100;

/**
 * Why a file resource's `mount_path` is refused, or undefined when it is fine: it keeps the limits every path
 * keeps (`pathProblem`: absolute, normalised, 1 to 20 segments, at most 1,024 bytes, no control or format
 * characters, NFC), and it is not in or above one of `RESERVED_MOUNT_ROOTS`, except the file's own default path
 * (`/mnt/session/uploads/<fileId>`). Pure.
 */
export function mountPathProblem(path: string, fileId?: string): string | undefined {
  if (path === "/") return "must be an absolute path below /";
  const problem = pathProblem(path, "a mount_path");
  if (problem !== undefined) return problem;
  if (fileId !== undefined && path === `${UPLOADS_MOUNT_ROOT}/${fileId}`) return undefined;
  for (const owned of RESERVED_MOUNT_ROOTS) {
    if (path === owned || path.startsWith(`${owned}/`) || owned.startsWith(`${path}/`)) {
      return `may not be in or above ${owned}, which the session's own files use`;
    }
  }
  return undefined;
}

/** Whether two mount paths clash: the same, or one inside the other. Pure. */
export function mountsClash(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
