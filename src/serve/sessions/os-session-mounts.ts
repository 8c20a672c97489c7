import { posix } from "node:path";
import type { SessionMount } from "../../sandbox/os-session-sandbox.js";
import { SCRATCH_ROOT, SKILLS_MOUNT_ROOT } from "../store/session-resources.js";
import type { Mount } from "./mount-fs.js";

/**
 * The folders of a served session's file system an `os`-tier command sees at the same paths: `/workspace`
 * (writable), `/mnt/skills` (read-only), each memory store's folder (writable unless attached read-only) and the
 * folders holding its uploaded files (read-only). Outer folders come first, so a mount inside another is bound
 * over it. Pure.
 */
export function osSessionMounts(mounts: readonly Mount[]): SessionMount[] {
  const found = new Map<string, boolean>([
    [SCRATCH_ROOT, true],
    [SKILLS_MOUNT_ROOT, false],
  ]);
  for (const mount of mounts) {
    if (mount.kind === "memory") found.set(mount.path, !mount.readOnly);
    else if (!found.has(posix.dirname(mount.path))) found.set(posix.dirname(mount.path), false);
  }
  const depth = (path: string) => path.split("/").length;
  return [...found]
    .map(([path, writable]) => ({ path, writable }))
    .sort((a, b) => depth(a.path) - depth(b.path));
}
