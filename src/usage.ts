import { dirname, join } from "node:path";
import { writeFileAtomic } from "./io/atomic-write.js";
import { errorCode, type FsOps } from "./io/fs.js";
import type { SkillTrigger } from "./skill/skill.js";

/** How often a skill was invoked and when last (ms since the epoch); `triggers`: by whom (absent in older files). */
export interface UsageEntry {
  count: number;
  lastUsedAt: number;
  triggers?: Partial<Record<SkillTrigger, number>>;
}

/** Usage per skill name. A Map, so that a skill named `__proto__` is just a name. */
export type UsageScores = ReadonlyMap<string, UsageEntry>;

/** A usage score halves every this many days without use (SPEC §3). */
export const USAGE_HALF_LIFE_DAYS = 7;
/** The decay never takes a score below this fraction of its count (SPEC §3). */
export const USAGE_DECAY_FLOOR = 0.1;
const MS_PER_DAY = 86_400_000;

/**
 * The score that orders skills for full descriptions when the listing is over budget:
 * `count × max(0.5^(days since last use / 7), 0.1)`. A last use in the future counts as now. Pure.
 */
export function usageScore(entry: UsageEntry | undefined, now: number): number {
  if (entry === undefined || entry.count <= 0) return 0;
  const days = Math.max(0, now - entry.lastUsedAt) / MS_PER_DAY;
  return entry.count * Math.max(0.5 ** (days / USAGE_HALF_LIFE_DAYS), USAGE_DECAY_FLOOR);
}

/**
 * Where usage scores are kept. The file store is the default; a multi-instance deployment can put them in a
 * database behind the same two methods.
 */
export interface UsageStore {
  /** All entries. Never rejects for missing or corrupt data (that reads as empty). */
  load(): Promise<UsageScores>;
  /** Counts one invocation of `name` at `now` (ms since the epoch), by `trigger` when given. */
  record(name: string, now: number, trigger?: SkillTrigger): Promise<void>;
}

/** `~/.skillwright/usage.json` for a home dir. */
export function defaultUsagePath(home: string): string {
  return join(home, ".skillwright", "usage.json");
}

/**
 * One entry of the file, or `undefined` when it is not one: an object (not an array) whose `count` is a safe
 * integer >= 0 and whose `lastUsedAt` is a finite number; other keys are dropped. By hand, not zod: this runs on
 * every listing that has something new, and building a schema costs more than the file.
 */
function readUsageEntry(value: unknown): UsageEntry | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const count: unknown = "count" in value ? value.count : undefined;
  const lastUsedAt: unknown = "lastUsedAt" in value ? value.lastUsedAt : undefined;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) return undefined;
  if (typeof lastUsedAt !== "number" || !Number.isFinite(lastUsedAt)) return undefined;
  const triggers = readTriggers("triggers" in value ? value.triggers : undefined);
  return triggers === undefined ? { count, lastUsedAt } : { count, lastUsedAt, triggers };
}

const TRIGGERS: readonly SkillTrigger[] = ["user", "model", "nested"];

/** The `triggers` of an entry: the known keys with safe-integer counts; undefined when none is there. */
function readTriggers(value: unknown): Partial<Record<SkillTrigger, number>> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: Partial<Record<SkillTrigger, number>> = {};
  for (const trigger of TRIGGERS) {
    const count: unknown = trigger in value ? (value as Record<string, unknown>)[trigger] : undefined;
    if (typeof count === "number" && Number.isSafeInteger(count) && count > 0) out[trigger] = count;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Parses the file's text; anything unreadable is dropped (a corrupt file reads as empty). */
export function parseUsage(text: string): Map<string, UsageEntry> {
  const scores = new Map<string, UsageEntry>();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return scores;
  }
  // Entries into a Map, not a keyed object: a skill named `__proto__` is just a name.
  if (typeof json !== "object" || json === null || Array.isArray(json)) return scores;
  for (const [name, value] of Object.entries(json)) {
    const entry = readUsageEntry(value);
    if (entry !== undefined) scores.set(name, entry);
  }
  return scores;
}

/** The file's text for some scores: `{ [name]: { count, lastUsedAt } }`, names sorted for stable diffs. */
export function serializeUsage(scores: UsageScores): string {
  const names = [...scores.keys()].sort();
  const body = names.map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(scores.get(name))}`);
  return body.length === 0 ? "{}\n" : `{\n${body.join(",\n")}\n}\n`;
}

/**
 * A usage store in one JSON file. `record` rewrites the file atomically (temp file + rename), creating its dir;
 * a corrupt file is treated as empty and replaced on the next `record`. Records made through one store are
 * applied in order; concurrent writers in other processes may lose each other's increments (last write wins).
 * `load` and `record` reject only when the file cannot be written or read for a reason other than absence.
 */
export function createFileUsageStore(options: { fs: FsOps; path: string }): UsageStore {
  const { fs, path } = options;
  let queue: Promise<void> = Promise.resolve();

  async function read(): Promise<Map<string, UsageEntry>> {
    try {
      return parseUsage(await fs.readFile(path));
    } catch (error) {
      if (errorCode(error) === "ENOENT") return new Map();
      throw error;
    }
  }

  async function write(scores: UsageScores): Promise<void> {
    await fs.mkdir(dirname(path));
    await writeFileAtomic(fs, path, serializeUsage(scores));
  }

  return {
    load: read,
    record(name, now, trigger) {
      const next = queue.then(async () => {
        const scores = await read();
        const previous = scores.get(name);
        const triggers =
          trigger === undefined
            ? previous?.triggers
            : { ...previous?.triggers, [trigger]: (previous?.triggers?.[trigger] ?? 0) + 1 };
        scores.set(name, {
          count: (previous?.count ?? 0) + 1,
          lastUsedAt: now,
          ...(triggers === undefined ? {} : { triggers }),
        });
        await write(scores);
      });
      // A failed write must not block later records; the caller still sees this one's failure.
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
