import { type AgentStore, createAgentStore } from "./agents.js";
import type { SqlDriver } from "./driver.js";
import { createEnvironmentStore, type EnvironmentStore } from "./environments.js";
import { migrate } from "./migrations.js";
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
  close(): Promise<void>;
}

/**
 * Migrates `db` to the current schema, drops the file chunks of uploads a dead process left unfinished, and
 * returns the store over it.
 */
export async function createStore(db: SqlDriver): Promise<Store> {
  await migrate(db);
  await sweepStagedChunks(db);
  return {
    db,
    skills: createSkillStore(db),
    environments: createEnvironmentStore(db),
    agents: createAgentStore(db),
    sessions: createSessionStore(db),
    threads: createThreadStore(db),
    close: () => db.close(),
  };
}
