import { join } from "node:path";
import * as z from "zod";
import type { InstallScope } from "./install-scope.js";

/** The project lock's file name, at the project root (the name the `skills` installer uses). */
export const LOCK_FILE = "skills-lock.json";
/** The lock format version both tools write; the `skills` installer ignores a lock below it. */
export const LOCK_VERSION = 1;

/**
 * Our own fields in a lock entry, kept under one key the `skills` installer passes over: the commit the copy
 * came from and the SHA-256 of each installed file (relative path → hex), which name the files that drifted.
 */
export const SkillwrightLockFields = z.looseObject({
  commit: z.string().optional(),
  files: z.record(z.string(), z.string()).optional(),
});
export type SkillwrightLockFields = z.infer<typeof SkillwrightLockFields>;

/**
 * One skill's entry, in the `skills` installer's shape: `source` (what was asked for: `owner/repo`, a URL, a
 * path), `sourceUrl` (the clone URL, for generic git sources), `ref`, `sourceType` (`github`, `git`, `local`,
 * …; ours add `npm` and `marketplace`), `skillPath` (the SKILL.md's path inside the source) and `computedHash`
 * (see `folder-hash.ts`). Unknown fields are kept as they are.
 */
export const LockEntry = z.looseObject({
  source: z.string(),
  sourceUrl: z.string().optional(),
  ref: z.string().optional(),
  sourceType: z.string(),
  skillPath: z.string().optional(),
  computedHash: z.string(),
  skillwright: SkillwrightLockFields.optional(),
});
export type LockEntry = z.infer<typeof LockEntry>;

/** A whole lock file: its version and an entry per installed skill, keyed by the skill's install name. */
export const SkillsLock = z.looseObject({
  version: z.number(),
  skills: z.record(z.string(), LockEntry),
});
export type SkillsLock = z.infer<typeof SkillsLock>;

/** A lock with no skill. */
export function emptyLock(): SkillsLock {
  return { version: LOCK_VERSION, skills: {} };
}

/**
 * Parses a lock file's text. A missing file (`undefined`) is an empty lock; text that is not a lock is an
 * error value naming what is wrong, never an empty lock (a lock is never overwritten by accident). Pure.
 */
export function parseLock(text: string | undefined): { lock: SkillsLock } | { error: string } {
  if (text === undefined) return { lock: emptyLock() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = SkillsLock.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
  }
  if (parsed.data.version > LOCK_VERSION) {
    return { error: `version ${parsed.data.version} is newer than this skillwright reads (${LOCK_VERSION})` };
  }
  return { lock: parsed.data };
}

/**
 * The lock as the `skills` installer writes it: `version`, then `skills` sorted by name, then any other key as
 * it was (skillwright's `plugins`), two-space JSON and a final newline, so either tool rewriting the other's lock changes only the entries it touched. Pure.
 */
export function serializeLock(lock: SkillsLock): string {
  const skills: Record<string, LockEntry> = {};
  for (const name of Object.keys(lock.skills).sort()) {
    const entry = lock.skills[name];
    if (entry !== undefined) skills[name] = entry;
  }
  // Other top-level keys (our installed `plugins`) follow, as they were.
  const { version, skills: _skills, ...rest } = lock;
  return `${JSON.stringify({ version, skills, ...rest }, null, 2)}\n`;
}

/** Where a scope's skills and lock live. */
export interface ScopePlaces {
  /** The dir holding one folder per installed skill. */
  skillsDir: string;
  /** The lock file. */
  lockFile: string;
}

/**
 * The project scope: `.claude/skills/` and `skills-lock.json` at the project root. The user scope:
 * `~/.claude/skills/` and `~/.skillwright/skills-lock.json`, beside skillwright's user settings. Pure.
 */
export function scopePlaces(scope: InstallScope, places: { projectDir: string; home: string }): ScopePlaces {
  return scope === "project"
    ? {
        skillsDir: join(places.projectDir, ".claude", "skills"),
        lockFile: join(places.projectDir, LOCK_FILE),
      }
    : {
        skillsDir: join(places.home, ".claude", "skills"),
        lockFile: join(places.home, ".skillwright", LOCK_FILE),
      };
}
