import { dirname, join } from "node:path";
import * as z from "zod";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import type { SkillCapability } from "./capabilities.js";

const capabilitySchema = lazy(() =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("allowed-tools"), rule: z.string() }),
    z.object({
      kind: z.literal("hook"),
      event: z.string(),
      matcher: z.string(),
      type: z.string(),
      target: z.string(),
    }),
    z.object({ kind: z.literal("inline-shell"), command: z.string() }),
    z.object({ kind: z.literal("fork"), agent: z.string() }),
    z.object({ kind: z.literal("script"), path: z.string(), hash: z.string() }),
  ]),
);

const recordSchema = lazy(() =>
  z.object({
    name: z.string(),
    source: z.string(),
    path: z.string(),
    hash: z.string(),
    capabilities: z.array(capabilitySchema()),
    approvedAt: z.string(),
  }),
);

const fileSchema = lazy(() =>
  z.object({ version: z.literal(1), skills: z.record(z.string(), recordSchema()) }),
);

/** One approval: the skill as it was approved (name, source, path), its content hash and its capabilities. */
export interface ApprovalRecord {
  name: string;
  source: string;
  /** The skill's file or folder as found when approved. */
  path: string;
  /** {@link skillContentHash} when approved. */
  hash: string;
  capabilities: SkillCapability[];
  /** ISO time of the approval. */
  approvedAt: string;
}

/** The approvals file as read: records by skill identity, or why it could not be used (then none count). */
export interface ApprovalFile {
  records: ReadonlyMap<string, ApprovalRecord>;
  /** The file is there but not an approvals file: nothing in it counts, and nothing is written over it. */
  problem?: string;
}

/**
 * Where approvals of project, `--add-dir`, plugin and MCP skills are kept, by skill identity. Never in the
 * project: a cloned repository must not approve its own skills.
 */
export interface ApprovalStore {
  /** Never rejects for a missing or broken file (see {@link ApprovalFile.problem}); rejects when unreadable. */
  load(): Promise<ApprovalFile>;
  /** Records (or replaces) one approval. Rejects, writing nothing, when the file is there but broken. */
  save(identity: string, record: ApprovalRecord): Promise<void>;
}

/** `~/.skillwright/approvals.json` for a home dir (beside `usage.json` and the caches). */
export function defaultApprovalsPath(home: string): string {
  return join(home, ".skillwright", "approvals.json");
}

/** Parses the file's text. A file that is not an approvals file reads as no approvals with a `problem`. */
export function parseApprovals(text: string, path: string): ApprovalFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { records: new Map(), problem: `${path} is not valid JSON (${errorMessage(error)})` };
  }
  const parsed = fileSchema().safeParse(json);
  if (!parsed.success)
    return {
      records: new Map(),
      problem: `${path} is not an approvals file (${parsed.error.issues[0]?.message})`,
    };
  return { records: new Map(Object.entries(parsed.data.skills)) };
}

/** The file's text: `{ version: 1, skills: { [identity]: record } }`, identities sorted for stable diffs. */
export function serializeApprovals(records: ReadonlyMap<string, ApprovalRecord>): string {
  const skills = Object.fromEntries([...records.keys()].sort().map((key) => [key, records.get(key)]));
  return `${JSON.stringify({ version: 1, skills }, null, 2)}\n`;
}

/**
 * Approvals in one JSON file (created with its dir on the first `save`, written atomically). Saves through one
 * store are applied in order; a writer in another process may lose an approval made at the same moment (last
 * write wins), which only means being asked again.
 */
export function createFileApprovalStore(options: { fs: FsOps; path: string }): ApprovalStore {
  const { fs, path } = options;
  let queue: Promise<void> = Promise.resolve();
  const load = async (): Promise<ApprovalFile> => {
    try {
      return parseApprovals(await fs.readFile(path), path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return { records: new Map() };
      throw error;
    }
  };
  return {
    load,
    save(identity, record) {
      const next = queue.then(async () => {
        const current = await load();
        if (current.problem !== undefined)
          throw new Error(`${current.problem}; not written (fix or remove the file)`);
        const records = new Map(current.records);
        records.set(identity, record);
        await fs.mkdir(dirname(path));
        await writeFileAtomic(fs, path, serializeApprovals(records));
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
