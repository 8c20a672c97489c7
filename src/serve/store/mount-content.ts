import type { BetaManagedAgentsMemory } from "@anthropic-ai/sdk/resources/beta/memory-stores/memories";
import type { BetaManagedAgentsActor } from "@anthropic-ai/sdk/resources/beta/memory-stores/memory-versions";
import type { FileStore } from "./files.js";
import type { MemoryStore } from "./memories.js";

/** One memory as a file system lists it: its path in the store and its size. */
export interface MemoryEntry {
  path: string;
  size: number;
}

/**
 * What a file system over a session's mounts needs from the store, without HTTP: memories read, written and
 * listed by path (each write a new version, by `actor`), and an uploaded file's bytes. Every call is confined
 * to `workspaceId`: another workspace's store or file is not found. Errors are the store's {@link ApiError}s
 * (a bad path 400, content over 100 kB 413, a path clash 409, an archived store 409).
 */
export interface MountContent {
  /** The memory at `path` in the store, with its content; undefined when there is none. */
  readMemory(
    workspaceId: string,
    storeId: string,
    path: string,
  ): Promise<BetaManagedAgentsMemory | undefined>;
  /** Creates the memory at `path` or gives it new content. */
  writeMemory(
    workspaceId: string,
    storeId: string,
    path: string,
    content: string,
    actor: BetaManagedAgentsActor,
  ): Promise<BetaManagedAgentsMemory>;
  /** Every memory under `prefix` (`/` for the whole store, else ending in `/`), in path order. */
  listMemories(workspaceId: string, storeId: string, prefix: string): Promise<MemoryEntry[]>;
  /** An uploaded file's bytes, exactly as uploaded. */
  readFile(workspaceId: string, fileId: string): Promise<Uint8Array>;
}

/** How many memories one list call of {@link MountContent.listMemories} fetches per page. */
const LIST_PAGE = 1000;

/** The {@link MountContent} over the memory and file stores. */
export function createMountContent(memories: MemoryStore, files: FileStore): MountContent {
  return {
    readMemory: (workspaceId, storeId, path) => memories.getByPath(workspaceId, storeId, path),
    writeMemory: (workspaceId, storeId, path, content, actor) =>
      memories.write(workspaceId, storeId, path, content, actor),
    async listMemories(workspaceId, storeId, prefix) {
      const out: MemoryEntry[] = [];
      let page: string | undefined;
      do {
        const listed = await memories.list(workspaceId, storeId, {
          prefix,
          depth: 0,
          limit: LIST_PAGE,
          page,
          full: false,
        });
        for (const item of listed.data) {
          if (item.type === "memory") out.push({ path: item.path, size: item.content_size_bytes });
        }
        page = listed.next_page ?? undefined;
      } while (page !== undefined);
      return out;
    },
    readFile: async (workspaceId, fileId) => (await files.content(workspaceId, fileId)).content,
  };
}
