import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import { type Diagnostic, diagnostic } from "../../diagnostics.js";
import { parseFrontmatter } from "../../skill/frontmatter.js";
import { splitFrontmatter } from "../../skill/frontmatter-core.js";
import type { Skill } from "../../skill/skill.js";
import { memorySkill } from "../../sources/memory-skill.js";
import type { SkillSource } from "../../sources/skill-source.js";
import type { SqlDriver } from "../store/driver.js";
import type { SkillStore } from "../store/skills.js";

/** What a store-backed source reads: the skill versions and their files. */
export interface StoreSkillSourceDeps {
  db: SqlDriver;
  skills: SkillStore;
  workspaceId: string;
  /** The agent's skills (`custom` ones come from the store; `anthropic` ones are not served). */
  refs: BetaManagedAgentsAgent["skills"];
  /**
   * Parsed skill versions kept across turns and sessions, by version id (a version never changes, so an entry
   * never goes stale; `latest` is resolved to a version id on every `list`). Absent: nothing is kept.
   */
  cache?: SkillVersionCache;
}

/** What a stored skill version parses to: its SKILL.md body and frontmatter, and its file paths. */
export interface ParsedSkillVersion {
  body: string;
  frontmatter: Record<string, unknown>;
  paths: readonly string[];
}

/** A bounded map of parsed skill versions by version id (the oldest entry goes first). */
export interface SkillVersionCache {
  get(versionId: string): ParsedSkillVersion | undefined;
  set(versionId: string, parsed: ParsedSkillVersion): void;
}

/** A {@link SkillVersionCache} of at most `max` versions. */
export function createSkillVersionCache(max = 1000): SkillVersionCache {
  const entries = new Map<string, ParsedSkillVersion>();
  return {
    get: (versionId) => entries.get(versionId),
    set(versionId, parsed) {
      entries.delete(versionId);
      entries.set(versionId, parsed);
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(oldest);
      }
    },
  };
}

const decoder = new TextDecoder();

/** A store-backed source that can be told the store's current `latest` versions. */
export interface StoreSkillSource extends SkillSource {
  /**
   * Compares `latest` (skill id to its latest version id; absent: gone) with the versions the last listing
   * resolved `latest` to; when one moved, tells the subscribers, so the engine rescans and open sessions get
   * the new version on their next request. Before any listing there is nothing to compare.
   */
  checkLatest(latest: ReadonlyMap<string, string>): void;
  /** The version id of each skill the last listing gave, by skill name (what a search of them ranks). */
  versions(): ReadonlyMap<string, string>;
  /**
   * The files of the skill the last listing gave under `name` (every path of its version, SKILL.md included,
   * and their bytes from the store), or undefined when it gave none of that name.
   */
  files(name: string): StoredSkillFiles | undefined;
}

/** A listed skill version's files: their paths relative to the skill's root, and their bytes on demand. */
export interface StoredSkillFiles {
  paths: readonly string[];
  /** The bytes of `path`, or undefined when the version has no such file. */
  read(path: string): Promise<Uint8Array | undefined>;
}

/** Whether a `latest` skill listed at one version id (null: not found) has moved. Pure. */
export function latestMoved(
  listed: ReadonlyMap<string, string | null>,
  latest: ReadonlyMap<string, string>,
): boolean {
  for (const [skillId, versionId] of listed) {
    if ((latest.get(skillId) ?? null) !== versionId) return true;
  }
  return false;
}

/**
 * The agent's skills as a {@link SkillSource} over the store: each listed skill is the version the agent pins
 * (or the skill's latest), its head and body parsed from the version's SKILL.md; every other file of the
 * version is a reference the model reads with `load_reference`, fetched from the database only when asked.
 * Nothing is written to the host's disk. A skill or version gone from the store is a diagnostic, not an error.
 */
export function createStoreSkillSource(deps: StoreSkillSourceDeps): StoreSkillSource {
  const { db, skills, workspaceId } = deps;
  const listeners = new Set<() => void>();
  // What the last listing resolved each `latest` skill to (null: not in the store).
  let listedLatest: ReadonlyMap<string, string | null> = new Map();
  // The version each listed skill was given, by name.
  let listedVersions: ReadonlyMap<string, string> = new Map();
  // The files of each listed skill's version, by name.
  let listedFiles: ReadonlyMap<string, StoredSkillFiles> = new Map();
  const readFile = async (versionId: string, path: string): Promise<string> => {
    const content = await skills.file(versionId, path);
    return content === undefined ? "" : decoder.decode(content);
  };
  const parse = async (versionId: string): Promise<ParsedSkillVersion> => {
    const paths = (
      await db.query("SELECT path FROM skill_files WHERE version_id = $1 ORDER BY path", [versionId])
    ).map((row) => String(row.path));
    const split = splitFrontmatter(await readFile(versionId, "SKILL.md"));
    const frontmatter = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
    const { name: _name, description: _description, ...rest } = frontmatter;
    return { body: split.body, frontmatter: rest, paths };
  };
  const one = async (
    skillId: string,
    version: string,
  ): Promise<{
    skill?: Skill;
    diagnostics: Diagnostic[];
    versionId: string | null;
    paths?: readonly string[];
  }> => {
    const found = await skills.getVersion(workspaceId, skillId, version).catch(() => undefined);
    if (found === undefined) {
      return {
        versionId: null,
        diagnostics: [
          diagnostic(
            "warning",
            "source-failed",
            `skill ${skillId} version ${version} is not in the store`,
            `store:${skillId}`,
          ),
        ],
      };
    }
    const parsed = deps.cache?.get(found.id) ?? (await parse(found.id));
    deps.cache?.set(found.id, parsed);
    const made = memorySkill(
      {
        name: found.name,
        description: found.description,
        body: parsed.body,
        frontmatter: parsed.frontmatter,
        references: parsed.paths
          .filter((path) => path !== "SKILL.md")
          .map((path) => ({
            name: path,
            description: `file ${path}`,
            content: () => readFile(found.id, path),
          })),
      },
      "app",
      "store",
    );
    return { ...made, versionId: found.id, paths: parsed.paths };
  };
  return {
    id: "store",
    async list() {
      const custom = deps.refs.flatMap((ref) => (ref.type === "custom" ? [ref] : []));
      const built = await Promise.all(custom.map((ref) => one(ref.skill_id, ref.version)));
      listedLatest = new Map(
        custom.flatMap((ref, n) =>
          ref.version === "latest" ? [[ref.skill_id, built[n]?.versionId ?? null] as const] : [],
        ),
      );
      listedVersions = new Map(
        built.flatMap((b) =>
          b.skill === undefined || b.versionId === null ? [] : [[b.skill.name, b.versionId]],
        ),
      );
      listedFiles = new Map(
        built.flatMap((b) => {
          const { skill, versionId, paths } = b;
          if (skill === undefined || versionId === null || paths === undefined) return [];
          const read = (path: string) => (paths.includes(path) ? skills.file(versionId, path) : undefined);
          return [[skill.name, { paths, read: async (path: string) => read(path) }] as const];
        }),
      );
      return {
        skills: built.flatMap((b) => (b.skill === undefined ? [] : [b.skill])),
        diagnostics: built.flatMap((b) => b.diagnostics),
      };
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    versions: () => listedVersions,
    files: (name) => listedFiles.get(name),
    checkLatest(latest) {
      if (!latestMoved(listedLatest, latest)) return;
      for (const listener of listeners) listener();
    },
  };
}
