import { createHash } from "node:crypto";
import type { BetaManagedAgentsMemory } from "@anthropic-ai/sdk/resources/beta/memory-stores/memories";
import { ApiError, invalid } from "../../src/serve/errors.js";
import { contentBytes, MEMORY_LIMITS, memoryPathProblem } from "../../src/serve/store/memory-paths.js";
import type { MountContent } from "../../src/serve/store/mount-content.js";
import type { SessionScratch } from "../../src/serve/store/session-scratch.js";

/**
 * A served session's stores in memory, for tests that run many tool calls over a mount file system (the fuzz
 * suite): memories keyed by store and path, refused as the database store refuses them (a bad path 400, content
 * over 100 kB 413), an uploaded file's bytes, and a scratch space. No workspace isolation: one workspace.
 */
export function memoryMountStores(files: Readonly<Record<string, Uint8Array>> = {}): {
  content: MountContent;
  scratch: SessionScratch;
} {
  const memories = new Map<string, BetaManagedAgentsMemory>();
  const scratch = new Map<string, { content: Uint8Array; mtimeMs: number }>();
  let versions = 0;
  const key = (storeId: string, path: string) => `${storeId}\u0000${path}`;
  const sorted = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    content: {
      async readMemory(_ws, storeId, path) {
        return memories.get(key(storeId, path));
      },
      async writeMemory(_ws, storeId, path, content) {
        const problem = memoryPathProblem(path);
        if (problem !== undefined) throw invalid(problem);
        if (contentBytes(content) > MEMORY_LIMITS.maxContentBytes) {
          throw new ApiError("request_too_large", "a memory's content is at most 100 kB");
        }
        const now = new Date(0).toISOString();
        const memory: BetaManagedAgentsMemory = {
          id: `mem_${path}`,
          type: "memory",
          memory_store_id: storeId,
          memory_version_id: `memver_${++versions}`,
          path,
          content,
          content_size_bytes: contentBytes(content),
          content_sha256: createHash("sha256").update(content).digest("hex"),
          created_at: now,
          updated_at: now,
        };
        memories.set(key(storeId, path), memory);
        return memory;
      },
      async listMemories(_ws, storeId, prefix) {
        return sorted(memories.entries())
          .map(([, m]) => m)
          .filter((m) => m.memory_store_id === storeId && m.path.startsWith(prefix === "/" ? "/" : prefix))
          .map((m) => ({ path: m.path, size: m.content_size_bytes }));
      },
      async readFile(_ws, fileId) {
        const bytes = files[fileId];
        if (bytes === undefined) throw new ApiError("not_found_error", `no file ${fileId}`);
        return bytes;
      },
    },
    scratch: {
      async read(sessionId, path) {
        return scratch.get(key(sessionId, path));
      },
      async write(sessionId, path, content) {
        scratch.set(key(sessionId, path), { content, mtimeMs: 0 });
      },
      async list(sessionId, prefix) {
        return sorted(scratch.entries())
          .filter(([k]) => k.startsWith(key(sessionId, prefix)))
          .map(([k, f]) => ({
            path: k.slice(sessionId.length + 1),
            size: f.content.length,
            mtimeMs: f.mtimeMs,
          }));
      },
      async remove(sessionId, path) {
        let n = 0;
        for (const k of [...scratch.keys()]) {
          if (k === key(sessionId, path) || k.startsWith(key(sessionId, `${path}/`))) {
            scratch.delete(k);
            n++;
          }
        }
        return n;
      },
      async rename(sessionId, from, to) {
        let n = 0;
        for (const [k, f] of [...scratch.entries()]) {
          const path = k.slice(sessionId.length + 1);
          if (k.startsWith(`${sessionId}\u0000`) && (path === from || path.startsWith(`${from}/`))) {
            scratch.delete(k);
            scratch.set(key(sessionId, to + path.slice(from.length)), f);
            n++;
          }
        }
        return n;
      },
    },
  };
}
