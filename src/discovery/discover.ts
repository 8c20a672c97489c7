import pLimit from "p-limit";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { loadSkillFile, type SkillFileRef } from "../skill/load-skill.js";
import type { Skill } from "../skill/skill.js";
import { explainMissingSkill } from "./explain.js";
import { listingOrder } from "./order.js";
import { dirProblem, scanRoot } from "./scan-dir.js";
import type { SkillRoot } from "./sources.js";

/** How many files are read at once. */
export const DISCOVERY_CONCURRENCY = 64;

export interface DiscoverOptions {
  fs: FsOps;
  /** File roots in precedence order (from `skillRoots`). */
  roots: SkillRoot[];
  /** Skills from other loaders (plugins, MCP, registered bundled skills), already namespaced, in that order. */
  extraSkills?: Skill[];
  signal?: AbortSignal;
}

export interface RootReport {
  dir: string;
  source: SkillRoot["source"];
  label: string;
  exists: boolean;
  /** Skills and commands loaded from this root (after dedup and clashes). */
  count: number;
}

export interface Discovery {
  /** In listing order (SPEC §2). */
  skills: Skill[];
  diagnostics: Diagnostic[];
  roots: RootReport[];
}

type Found = { ref: SkillFileRef; rank: number; real?: string; missing?: boolean; problem?: Diagnostic };

/**
 * Finds every skill under the roots (SPEC §2): realpath dedup (first path wins), name clashes resolved by
 * precedence with a skill dir beating a legacy command, losers reported as `shadowed`. Never throws for bad
 * content; deterministic for a given tree.
 */
export async function discoverSkills(options: DiscoverOptions): Promise<Discovery> {
  const { fs, roots } = options;
  const limit = pLimit(DISCOVERY_CONCURRENCY);
  const scans = await Promise.all(roots.map((root) => limit(() => scanRoot(fs, root))));
  const diagnostics: Diagnostic[] = scans.flatMap((s) => s.diagnostics);

  const found: Found[] = scans.flatMap((scan, rank) => scan.files.map((ref) => ({ ref, rank })));
  await Promise.all(
    found.map((f) =>
      limit(async () => {
        options.signal?.throwIfAborted();
        try {
          f.real = await fs.realpath(f.ref.path);
        } catch (error) {
          if (errorCode(error) === "ENOENT") f.missing = true;
          else f.problem = dirProblem(f.ref.kind === "skill" ? f.ref.baseDir : f.ref.path, error);
        }
      }),
    ),
  );

  const unique: Found[] = [];
  const seenReal = new Map<string, string>();
  for (const f of found) {
    if (f.problem !== undefined) diagnostics.push(f.problem);
    if (f.real === undefined) continue;
    const first = seenReal.get(f.real);
    if (first !== undefined) {
      diagnostics.push(
        diagnostic(
          "info",
          "duplicate-realpath",
          `same file as ${first}; loaded once, from there`,
          f.ref.path,
        ),
      );
      continue;
    }
    seenReal.set(f.real, f.ref.path);
    unique.push(f);
  }

  const missing = found.filter((f) => f.missing === true && f.ref.kind === "skill");
  const [loaded, explanations] = await Promise.all([
    Promise.all(unique.map((f) => limit(() => loadSkillFile(fs, f.ref)))),
    Promise.all(missing.map((f) => limit(() => explainMissingSkill(fs, f.ref.baseDir)))),
  ]);
  diagnostics.push(...explanations);

  const candidates: { skill: Skill; rank: number }[] = [];
  loaded.forEach((result, i) => {
    diagnostics.push(...result.diagnostics);
    const f = unique[i];
    if (result.skill !== undefined && f !== undefined) candidates.push({ skill: result.skill, rank: f.rank });
  });
  const extra = options.extraSkills ?? [];
  for (const [i, skill] of extra.entries()) candidates.push({ skill, rank: roots.length + i });

  const winners = resolveClashes(candidates, diagnostics);
  const rootRank = new Map(roots.map((r, i) => [r.dir, i] as const));
  const counts = new Map<string, number>();
  for (const skill of winners) counts.set(skill.root, (counts.get(skill.root) ?? 0) + 1);
  return {
    skills: listingOrder(winners, rootRank),
    diagnostics,
    roots: scans.map((s) => ({
      dir: s.root.dir,
      source: s.root.source,
      label: s.root.label,
      exists: s.exists,
      count: counts.get(s.root.dir) ?? 0,
    })),
  };
}

/**
 * First in precedence wins a name, except that a skill dir beats a legacy command whatever their sources.
 * Each loser becomes a `shadowed` warning naming both files.
 */
function resolveClashes(candidates: { skill: Skill; rank: number }[], diagnostics: Diagnostic[]): Skill[] {
  const ordered = [...candidates].sort((a, b) => {
    const ka = a.skill.kind === "skill" ? 0 : 1;
    const kb = b.skill.kind === "skill" ? 0 : 1;
    return ka !== kb ? ka - kb : a.rank - b.rank;
  });
  const byName = new Map<string, Skill>();
  for (const { skill } of ordered) {
    const winner = byName.get(skill.name);
    if (winner === undefined) {
      byName.set(skill.name, skill);
      continue;
    }
    diagnostics.push(
      diagnostic(
        "warning",
        "shadowed",
        `${skill.kind} "${skill.name}" at ${where(skill)} is shadowed by the ${winner.source} ${winner.kind} at ${where(winner)}`,
        where(skill),
      ),
    );
  }
  return [...byName.values()];
}

function where(skill: Skill): string {
  return skill.filePath === "" ? `${skill.source}:${skill.name}` : skill.filePath;
}
