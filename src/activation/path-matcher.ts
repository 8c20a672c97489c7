import ignore, { type Ignore } from "ignore";
import type { Diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import {
  type CompiledGlob,
  compileGlob,
  forEachPathKey,
  KEY_KINDS,
  type KeyKind,
  skillPatterns,
} from "./globs.js";

/** What the matcher needs of a skill. */
export type ConditionalSkill = Pick<Skill, "name" | "paths" | "filePath">;

/**
 * A stateful pass over one matcher: skills it has matched (or was told to exclude) are never tested again,
 * and patterns whose skills are all done drop out of its index. Owned by one session.
 */
export interface MatchSession {
  /**
   * The names of skills newly matched by `relPaths`, in the order they matched. Paths are `/`-separated and
   * relative to the cwd (see `matchPath`); a leading `./` is dropped, and empty paths or paths starting with
   * `/` or `..` match nothing.
   */
  match(relPaths: readonly string[]): string[];
  /** Marks skills as done (e.g. activated elsewhere); unknown names are ignored. */
  exclude(names: Iterable<string>): void;
}

/** One matcher for every conditional skill. */
export interface PathMatcher {
  /**
   * The names of the skills (not in `exclude`) whose patterns match at least one of `relPaths` (paths as in
   * `MatchSession.match`). Each skill is tested until it matches, then skipped. No state survives the call.
   */
  match(relPaths: readonly string[], exclude?: Iterable<string>): Set<string>;
  /** Starts a stateful pass (see `MatchSession`), with `exclude` already done. */
  session(exclude?: Iterable<string>): MatchSession;
  /** Conditional skills held (skills without `paths:` are left out). */
  readonly skillCount: number;
  /** Distinct compiled patterns. */
  readonly patternCount: number;
  /** `field-invalid` warnings from the per-skill pattern bound. */
  readonly diagnostics: readonly Diagnostic[];
}

interface Entry {
  name: string;
  /** Ids of the skill's positive patterns. */
  patterns: number[];
  /** The skill's own `ignore` rules: set only when it has `!` patterns, which need the whole list in order. */
  exact?: Ignore;
}

/**
 * Compiles every conditional skill's patterns once into one matcher. Identical patterns are compiled once and
 * shared; each is indexed by a literal every matching path must hold (an extension or a literal segment: see
 * `CompiledGlob.key`), so a path is tested only against patterns that could match it. A skill matches when
 * one of its patterns matches (for skills with `!` patterns, their `ignore` rules decide: last match wins, as
 * in `.gitignore`). Skills are matched by name; the first skill of a name wins.
 */
export function createPathMatcher(skills: readonly ConditionalSkill[]): PathMatcher {
  const entries: Entry[] = [];
  const diagnostics: Diagnostic[] = [];
  const globs: CompiledGlob[] = [];
  const owners: number[][] = [];
  const byPattern = new Map<string, number>();
  const byName = new Map<string, number>();

  for (const skill of skills) {
    if (skill.paths === undefined || byName.has(skill.name)) continue;
    const { patterns, diagnostics: bound } = skillPatterns(skill);
    diagnostics.push(...bound);
    const index = entries.length;
    const entry: Entry = { name: skill.name, patterns: [] };
    entries.push(entry);
    byName.set(skill.name, index);
    let negations = false;
    for (const pattern of patterns) {
      if (pattern.startsWith("!")) {
        negations = true;
        continue;
      }
      let id = byPattern.get(pattern);
      if (id === undefined) {
        const glob = compileGlob(pattern);
        if (glob === undefined) continue;
        id = globs.length;
        globs.push(glob);
        owners.push([]);
        byPattern.set(pattern, id);
      }
      const list = owners[id];
      if (list !== undefined && list[list.length - 1] !== index) {
        list.push(index);
        entry.patterns.push(id);
      }
    }
    if (negations) entry.exact = ignore({ allowRelativePaths: true }).add(patterns);
  }

  const index = new Map<KeyKind, Map<string, number[]>>(KEY_KINDS.map((kind) => [kind, new Map()]));
  const unkeyed: number[] = [];
  for (const [id, glob] of globs.entries()) {
    const colon = glob.key?.indexOf(":") ?? -1;
    const kind = KEY_KINDS.find((k) => k === glob.key?.slice(0, colon));
    const map = kind === undefined ? undefined : index.get(kind);
    if (glob.key === undefined || map === undefined) unkeyed.push(id);
    else bucket(map, glob.key.slice(colon + 1)).push(id);
  }

  function session(exclude?: Iterable<string>): MatchSession {
    const done = new Uint8Array(entries.length);
    const alive = Int32Array.from(owners, (list) => list.length);
    let pending = entries.length;
    const buckets = new Map<KeyKind, Map<string, number[]>>();
    for (const [kind, map] of index)
      buckets.set(kind, new Map([...map].map(([key, ids]) => [key, [...ids]])));
    const always = [...unkeyed];
    const testedAt = new Int32Array(globs.length).fill(-1);
    let stamp = -1;

    const finish = (o: number): void => {
      done[o] = 1;
      pending -= 1;
      for (const id of entries[o]?.patterns ?? []) alive[id] = (alive[id] ?? 1) - 1;
    };
    const markExcluded = (names: Iterable<string>): void => {
      for (const name of names) {
        const o = byName.get(name);
        if (o !== undefined && done[o] === 0) finish(o);
      }
    };
    if (exclude !== undefined) markExcluded(exclude);

    /** Tests `path` against a bucket, dropping patterns whose skills are all done (order is irrelevant). */
    const visit = (ids: number[] | undefined, path: string, found: string[]): void => {
      if (ids === undefined) return;
      for (let j = 0; j < ids.length; ) {
        const id = ids[j] ?? 0;
        if (alive[id] === 0) {
          ids[j] = ids[ids.length - 1] ?? 0;
          ids.pop();
          continue;
        }
        j += 1;
        if (testedAt[id] === stamp) continue;
        testedAt[id] = stamp;
        if (!globs[id]?.test(path)) continue;
        for (const o of owners[id] ?? []) {
          const entry = entries[o];
          if (entry === undefined || done[o] === 1) continue;
          if (entry.exact !== undefined && !entry.exact.ignores(path)) continue;
          finish(o);
          found.push(entry.name);
        }
      }
    };

    return {
      match(relPaths) {
        const found: string[] = [];
        let path = "";
        const visitKey = (kind: KeyKind, value: string): void =>
          visit(buckets.get(kind)?.get(value), path, found);
        for (const raw of relPaths) {
          if (pending === 0) break;
          path = raw.startsWith("./") ? raw.slice(2) : raw;
          if (path === "" || path.startsWith("/") || path === ".." || path.startsWith("../")) continue;
          stamp += 1;
          visit(always, path, found);
          forEachPathKey(path, visitKey);
        }
        return found;
      },
      exclude: markExcluded,
    };
  }

  return {
    match: (relPaths, exclude) => new Set(session(exclude).match(relPaths)),
    session,
    skillCount: entries.length,
    patternCount: globs.length,
    diagnostics,
  };
}

function bucket(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}
