import type { AttachedResource } from "../store/session-resources.js";

/** One resource's lines: where it is mounted, how it may be used, and its attachment's instructions. Pure. */
function resourceLines(resource: AttachedResource): string[] {
  if (resource.type === "file") {
    return [`- ${resource.mount_path}: an uploaded file (${resource.file_id}), read-only.`];
  }
  const name = resource.name ?? resource.memory_store_id;
  const access = resource.access === "read_only" ? "read-only" : "read-write";
  const lines = [`- ${resource.mount_path}: the memory store "${name}" (${access}).`];
  if (resource.description !== undefined && resource.description !== "") {
    lines.push(`  Description: ${resource.description}`);
  }
  if (resource.instructions !== undefined && resource.instructions !== null && resource.instructions !== "") {
    lines.push(`  Instructions: ${resource.instructions}`);
  }
  return lines;
}

const INTRO =
  "Your file tools (Read, Write, Edit, Grep, Glob, LS) work on this session's own file system: your working " +
  "directory /workspace is yours to use, your skills' files are readable under /mnt/skills/<skill-name>, and " +
  "these are mounted in it:";
const MEMORY_NOTE =
  "Each file under /mnt/memory/<store> is a memory: writing one stores a new version of it, which later sessions " +
  "attached to the store read.";

/**
 * The system prompt's section on the resources given at `sessions.create` (empty when there are none). It is
 * written once, when the session opens, and never changes: resources attached later are announced by
 * {@link resourceAnnouncement} instead. Pure.
 */
export function resourcePrompt(resources: readonly AttachedResource[]): string {
  if (resources.length === 0) return "";
  const memory = resources.some((r) => r.type === "memory_store");
  return [
    "# Session resources",
    "",
    INTRO,
    ...resources.flatMap(resourceLines),
    ...(memory ? ["", MEMORY_NOTE] : []),
  ].join("\n");
}

/** The `<system-reminder>` that announces resources attached after the session began, in a user turn. Pure. */
export function resourceAnnouncement(resources: readonly AttachedResource[]): string {
  return [
    "<system-reminder>",
    "These resources were attached to this session and are now mounted in your file system:",
    ...resources.flatMap(resourceLines),
    "</system-reminder>",
  ].join("\n");
}
