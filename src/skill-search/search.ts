import pLimit from "p-limit";
import { isRacy } from "../discovery/head-cache.js";
import type { FsOps } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import { type UsageScores, usageScore } from "../usage.js";
import { queryTerms } from "./analyze.js";
import { fuseRankings } from "./fusion.js";
import { type IndexCacheOptions, type IndexStamp, loadIndexCache, saveIndexCache } from "./index-cache.js";
import {
  buildLexicalIndex,
  type LexicalIndex,
  queryLexicalIndex,
  scoreDocuments,
  scoreFloor,
} from "./lexical-index.js";
import type { RetrievalDocument, SkillRetriever } from "./retriever.js";
import { headDocument, skillDocument } from "./skill-document.js";

/** How many matches the skill search returns (SPEC §14.15). */
export const SKILL_SEARCH_LIMIT = 10;
/** With a retriever, this many of each ranking's best go into the fusion. */
export const FUSION_DEPTH = 50;
/** Bodies are read this many at a time when the index is built. */
export const BODY_READ_CONCURRENCY = 32;

/** One match: the skill and its score (higher is better; BM25F, or fused ranks with a retriever). */
export interface SkillMatch<S = Skill> {
  skill: S;
  score: number;
}

/** What a searcher needs; every part is optional (none: an in-memory index, lexical ranking, no usage). */
export interface SkillSearcherOptions {
  /** Keep the index between runs in this file (the CLI: beside the discovery cache). Needs `fs` for stamps. */
  cache?: IndexCacheOptions;
  /** An application's retriever, fused with the lexical ranking (hybrid). */
  retriever?: SkillRetriever;
  /** Usage scores, which break ties (the more used first). */
  usage?: () => Promise<UsageScores>;
  /** The clock, for usage decay and the cache's racy window (`isRacy`). Default `Date.now`. */
  now?: () => number;
  /**
   * Told when an index is built from the skills' bodies (no valid cache: the first search of a project, or its
   * skills changed), with how many skills; what it returns is called once the index is built (or the build
   * failed). The CLI shows progress with it.
   */
  onIndexBuild?: (skills: number) => () => void;
}

/** The one skill search every caller uses (the `SkillSearch` tool, `skillwright search`, the library). */
export interface SkillSearcher {
  /**
   * The best `limit` (default 10) matches of `query` among `skills`, best first; `disable-model-invocation`
   * skills are left out, and so is any skill that matches no query word (and that the retriever does not
   * rank). A query that is the name or alias of a skill puts it first; equal scores go to the more used skill,
   * then to listing order. The first search builds the index (reading every body once, or loading the index
   * cache when it is still valid); later ones reuse it while the skills are the same objects.
   */
  search<S extends Skill>(
    skills: readonly S[],
    query: string,
    options?: { limit?: number; signal?: AbortSignal },
  ): Promise<Array<SkillMatch<S>>>;
}

/** 32-bit FNV-1a, as 8 hex digits. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A hash of the skills' names and searchable heads, in order. Pure. */
export function headSignature(skills: readonly Skill[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const s of skills) {
    const head = `${s.name}\0${s.alias ?? ""}\0${s.description}\0${s.whenToUse ?? ""}\0${s.argumentHint ?? ""}\u0001`;
    a = fnv1a(head, a);
    b = fnv1a(head, b ^ 0x5bd1e995);
  }
  return `${skills.length}:${a.toString(16)}:${b.toString(16)}`;
}

/** A skill whose body is searched: not an MCP prompt (its text comes from the server, per call). */
function bodySearched(skill: Skill): boolean {
  return skill.mcpServer === undefined;
}

async function readBody(skill: Skill, signal?: AbortSignal): Promise<string | undefined> {
  if (!bodySearched(skill)) return undefined;
  try {
    return await skill.loadBody(signal);
  } catch {
    return undefined;
  }
}

/** The text a retriever sees for a skill. Pure. */
export function retrievalDocument(skill: Skill): RetrievalDocument {
  const parts = [
    skill.alias === undefined ? skill.name : `${skill.name} (${skill.alias})`,
    skill.description,
  ];
  if (skill.whenToUse !== undefined) parts.push(skill.whenToUse);
  if (skill.argumentHint !== undefined) parts.push(skill.argumentHint);
  return { name: skill.name, text: parts.join("\n") };
}

interface Built {
  skills: readonly Skill[];
  index: LexicalIndex;
  /** Each skill's place in `skills`, by name. */
  places: ReadonlyMap<string, number>;
}

function built(skills: readonly Skill[], index: LexicalIndex): Built {
  const places = new Map<string, number>();
  skills.forEach((skill, place) => {
    if (!places.has(skill.name)) places.set(skill.name, place);
  });
  return { skills, index, places };
}

/**
 * A skill searcher: BM25F over each skill's name, description, `when_to_use`, argument hint and body (see
 * `lexical-index.ts`), fused with `retriever` when one is given. Never rejects for a skill whose body cannot
 * be read (it is searched by its head) nor for a cache or retriever failure (the search goes on without).
 */
export function createSkillSearcher(options: SkillSearcherOptions = {}): SkillSearcher {
  const now = options.now ?? Date.now;
  let current: Built | undefined;
  // Bodies read so far, by skill object: an index rebuilt for another skill set (a fork's scope, a skill that
  // appeared) reads only the bodies it has not seen.
  const bodies = new WeakMap<Skill, Promise<string | undefined>>();
  const bodyOf = (skill: Skill, signal?: AbortSignal) => {
    let body = bodies.get(skill);
    if (body === undefined) {
      // A read cut short by the caller's abort is not kept: the next search reads it again.
      body = readBody(skill, signal).then((text) => {
        if (text === undefined && signal?.aborted === true) bodies.delete(skill);
        return text;
      });
      bodies.set(skill, body);
    }
    return body;
  };
  let building: Promise<Built> | undefined;

  const stampsOf = async (skills: readonly Skill[], fs: FsOps, signal?: AbortSignal) => {
    const limit = pLimit(BODY_READ_CONCURRENCY);
    let racy = false;
    const time = now();
    const stamps = await Promise.all(
      skills.map((skill) =>
        limit(async () => {
          if (!bodySearched(skill)) return "mcp";
          if (skill.filePath === "") return `body:${fnv1a((await bodyOf(skill, signal)) ?? "").toString(16)}`;
          try {
            const s = await fs.stat(skill.filePath);
            // Changed too recently to trust its stamp (coarse timestamps): the cache is not written this time.
            if (isRacy(s, time)) racy = true;
            return `${s.fileId}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
          } catch {
            return "gone";
          }
        }),
      ),
    );
    return { stamps, racy };
  };

  const build = async (skills: readonly Skill[], signal?: AbortSignal): Promise<Built> => {
    const cache = options.cache;
    let stamp: IndexStamp | undefined;
    let racy = false;
    if (cache !== undefined) {
      const found = await stampsOf(skills, cache.fs, signal);
      stamp = { signature: headSignature(skills), stamps: found.stamps };
      racy = found.racy;
      const loaded = await loadIndexCache(cache, stamp);
      if (loaded !== undefined) return built(skills, loaded);
    }
    const done = options.onIndexBuild?.(skills.length);
    try {
      const limit = pLimit(BODY_READ_CONCURRENCY);
      const read = await Promise.all(skills.map((skill) => limit(() => bodyOf(skill, signal))));
      const index = buildLexicalIndex(skills.map((skill, i) => skillDocument(skill, read[i])));
      if (cache !== undefined && stamp !== undefined && !racy && signal?.aborted !== true) {
        await saveIndexCache(cache, index, stamp, now());
      }
      return built(skills, index);
    } finally {
      done?.();
    }
  };

  const indexFor = async (skills: readonly Skill[], signal?: AbortSignal): Promise<Built> => {
    const same = (b: Built | undefined): b is Built =>
      b !== undefined && b.skills.length === skills.length && b.skills.every((s, i) => s === skills[i]);
    if (same(current)) return current;
    const pending = building;
    if (pending !== undefined) {
      const result = await pending.catch(() => undefined);
      if (same(result)) return result;
    }
    const started = build([...skills], signal);
    building = started;
    try {
      const result = await started;
      // An index built while the caller aborted may lack bodies: used for this answer, not kept.
      if (signal?.aborted !== true) current = result;
      return result;
    } finally {
      if (building === started) building = undefined;
    }
  };

  return {
    async search<S extends Skill>(
      all: readonly S[],
      query: string,
      searchOptions: { limit?: number; signal?: AbortSignal } = {},
    ): Promise<Array<SkillMatch<S>>> {
      const limit = searchOptions.limit ?? SKILL_SEARCH_LIMIT;
      const skills = all.filter((s) => !s.disableModelInvocation);
      const terms = queryTerms(query);
      const whole = query.trim().toLowerCase();
      if (limit <= 0 || whole === "") return [];
      const { index, places } = await indexFor(skills, searchOptions.signal);
      const placeOf = (name: string) => places.get(name);
      const matches = queryLexicalIndex(index, terms);
      // Only the best can be returned (or fused): the rest are never sorted. Ties at the floor stay in, so
      // usage can still break them; a skill named by the whole query stays in too.
      const floor = scoreFloor(matches, options.retriever === undefined ? limit : FUSION_DEPTH);
      const lexical: Array<{ name: string; score: number }> = [];
      matches.docs.forEach((doc, i) => {
        const score = matches.scores[i] ?? 0;
        const name = index.names[doc] ?? "";
        if (
          score >= floor ||
          name.toLowerCase() === whole ||
          skills[placeOf(name) ?? -1]?.alias?.toLowerCase() === whole
        ) {
          lexical.push({ name, score });
        }
      });
      let ranked: Array<{ name: string; score: number }> = lexical;
      if (options.retriever !== undefined) {
        const best = [...lexical].sort((a, b) => b.score - a.score).slice(0, FUSION_DEPTH);
        const other = await options.retriever
          .retrieve({
            query,
            documents: skills.map(retrievalDocument),
            limit: FUSION_DEPTH,
            ...(searchOptions.signal === undefined ? {} : { signal: searchOptions.signal }),
          })
          .catch(() => undefined);
        if (other !== undefined) {
          const seen = new Set<string>();
          const names = other
            .map((r) => r.name)
            .filter((n) => placeOf(n) !== undefined && !seen.has(n) && seen.add(n) !== undefined)
            .slice(0, FUSION_DEPTH);
          ranked = fuseRankings([
            { names: best.map((m) => m.name), weight: 1 },
            { names, weight: 1 },
          ]);
        }
      }
      const usage = ranked.length > 1 && options.usage !== undefined ? await options.usage() : undefined;
      const time = now();
      const keyed = ranked.flatMap(({ name, score }) => {
        const order = placeOf(name);
        const skill = order === undefined ? undefined : skills[order];
        if (order === undefined || skill === undefined) return [];
        const exact = skill.name.toLowerCase() === whole || skill.alias?.toLowerCase() === whole;
        const used = usage === undefined ? 0 : usageScore(usage.get(name), time);
        return [{ skill, score, exact, used, order }];
      });
      keyed.sort(
        (a, b) =>
          Number(b.exact) - Number(a.exact) || b.score - a.score || b.used - a.used || a.order - b.order,
      );
      return keyed.slice(0, limit).map(({ skill, score }) => ({ skill, score }));
    },
  };
}

/**
 * The skill search on heads alone, synchronously, for decisions that may not read bodies (the listing focus of
 * a session's first prompt, on the start-up path): BM25F over each callable skill's name, alias, description,
 * `when_to_use` and argument hint, with the searcher's analysis and order (the whole query as a name first,
 * then score, then listing order; no usage): one pass over the heads (`scoreDocuments`), no index. Pure.
 */
export function searchCallable<S extends Skill>(
  skills: readonly S[],
  query: string,
  limit: number = SKILL_SEARCH_LIMIT,
): Array<SkillMatch<S>> {
  const callable = skills.filter((s) => !s.disableModelInvocation);
  const whole = query.trim().toLowerCase();
  const terms = queryTerms(query);
  if (limit <= 0 || whole === "" || terms.length === 0) return [];
  const matches = scoreDocuments(callable.map(headDocument), terms);
  const ranked: Array<{ skill: S; score: number; exact: boolean; order: number }> = [];
  matches.docs.forEach((doc, i) => {
    const skill = callable[doc];
    if (skill === undefined) return;
    const exact = skill.name.toLowerCase() === whole || skill.alias?.toLowerCase() === whole;
    ranked.push({ skill, score: matches.scores[i] ?? 0, exact, order: doc });
  });
  ranked.sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || a.order - b.order);
  return ranked.slice(0, limit).map(({ skill, score }) => ({ skill, score }));
}
