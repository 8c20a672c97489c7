import { type AgentStore, createAgentStore } from "./agents.js";
import { type ContainerStore, createContainerStore } from "./containers.js";
import type { SqlDriver } from "./driver.js";
import { createEnvironmentStore, type EnvironmentStore } from "./environments.js";
import { sweepFileChunks } from "./file-chunks.js";
import { createFileStore, type FileStore } from "./files.js";
import { createMemoryStore, type MemoryStore } from "./memories.js";
import { createMemoryStoreStore, type MemoryStoreStore } from "./memory-stores.js";
import { createMemoryVersionStore, type MemoryVersionStore } from "./memory-versions.js";
import { migrate } from "./migrations.js";
import { createMountContent, type MountContent } from "./mount-content.js";
import { createPostingsUpkeep } from "./postings-upkeep.js";
import { createSessionScratch, type SessionScratch } from "./session-scratch.js";
import { createThreadStore, type ThreadStore } from "./session-threads.js";
import { createSessionStore, type SessionStore } from "./sessions.js";
import { sweepStagedChunks } from "./skill-file-chunks.js";
import { createSkillStore, type SkillStore } from "./skills.js";

/** Everything `serve` keeps, over one database. */
export interface Store {
  db: SqlDriver;
  skills: SkillStore;
  environments: EnvironmentStore;
  agents: AgentStore;
  sessions: SessionStore;
  /** Sessions' threads: the primary thread and the forks' child threads. */
  threads: ThreadStore;
  /** Memory stores, their memories and the memories' versions. */
  memoryStores: MemoryStoreStore;
  memories: MemoryStore;
  memoryVersions: MemoryVersionStore;
  /** Uploaded files, bytes in the database. */
  files: FileStore;
  /** Memories by path and files' bytes, for a file system over a session's mounts. */
  mounts: MountContent;
  /** Served sessions' own files (their `/workspace`). */
  scratch: SessionScratch;
  /** The Messages API's code execution containers and their files. */
  containers: ContainerStore;
  close(): Promise<void>;
}

/**
 * Migrates `db` to the current schema, drops the skill-file and file chunks of uploads a dead process left
 * unfinished, brings the search postings up to date for index-only reads (`PostingsUpkeep`), and returns the
 * store over it.
 */
export async function createStore(db: SqlDriver): Promise<Store> {
  await migrate(db);
  await sweepStagedChunks(db);
  await sweepFileChunks(db);
  const upkeep = createPostingsUpkeep(db);
  await upkeep.opened();
  const memories = createMemoryStore(db);
  const files = createFileStore(db);
  return {
    db,
    skills: createSkillStore(db, upkeep),
    environments: createEnvironmentStore(db),
    agents: createAgentStore(db),
    sessions: createSessionStore(db),
    threads: createThreadStore(db),
    memoryStores: createMemoryStoreStore(db),
    memories,
    memoryVersions: createMemoryVersionStore(db),
    files,
    mounts: createMountContent(memories, files),
    scratch: createSessionScratch(db),
    containers: createContainerStore(db),
    close: () => db.close(),
  };
}
