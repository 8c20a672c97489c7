import { diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import { commandsNeeded, type NeedFacts, skillNeeds, unmetNeeds } from "../skill/skill-needs.js";
import { type DisabledSkill, partitionSkills, type SkillFilter } from "../skill-filter.js";
import type { SkillSource, SourceListing } from "../sources/skill-source.js";
import { type ResolvedSkills, resolveSkills } from "./resolve.js";

/** What a catalog holds: the enabled skills in listing order, what was wrong, the roots, and what is off. */
export interface Discovery extends ResolvedSkills {
  /**
   * Skills found but switched off (settings `skills.disabled`, `--skills`/`--no-skills`): left out of `skills`,
   * kept here with the reason for `doctor` and `list`. Absent means none.
   */
  disabled?: DisabledSkill[];
}

/** The sources a catalog composes, in order, and which of their skills are switched off. */
export interface CatalogOptions {
  /** Every provider of skills; on a rank tie the earlier source wins (see `SkillSource.rank`). */
  sources: readonly SkillSource[];
  /** Read at each scan: which skills are switched off. Default: none. */
  filter?: () => Promise<SkillFilter>;
  /**
   * Read at a scan only when some enabled skill declares a need, with the commands they name: what the needs are
   * checked against. A skill whose need is not met is left out as disabled, the need as the reason. Default:
   * needs are not checked.
   */
  needFacts?: (commands: readonly string[]) => Promise<NeedFacts>;
}

/**
 * One catalog of skills over any sources: `get()` lists every source once (memoised), `reload()` lists them again
 * and tells the listeners, and a source's `subscribe` refreshes it. Ranking, dedup, clash diagnostics and the
 * enable/disable filter are decided by {@link resolveSkills} and `partitionSkills`, the same for every host.
 */
export interface SkillCatalog {
  get(): Promise<Discovery>;
  reload(): Promise<Discovery>;
  /**
   * A source changed: rescans (and tells the listeners) when something was listed already; before the first
   * `get()` there is nothing to do, the first scan will see the change.
   */
  refresh(): void;
  /** Returns a function that removes the listener. */
  onChange(listener: (discovery: Discovery) => void): () => void;
  /** Stops following the sources' changes. Idempotent. */
  close(): void;
}

/**
 * Composes `sources` into one catalog. A source that fails to list is a `source-failed` error diagnostic and
 * lists nothing; the others still count. `get` and `reload` never reject because of a source.
 */
export function createCatalog(options: CatalogOptions): SkillCatalog {
  const { sources } = options;
  let current: Promise<Discovery> | undefined;
  const listeners = new Set<(discovery: Discovery) => void>();
  const scan = async (): Promise<Discovery> => {
    const [listings, filter] = await Promise.all([Promise.all(sources.map(listSource)), options.filter?.()]);
    const resolved = resolveSkills(
      sources.map((source, i) => ({
        ...(source.rank === undefined ? {} : { rank: source.rank }),
        listing: listings[i] as SourceListing,
      })),
    );
    const { enabled, disabled } =
      filter === undefined
        ? { enabled: resolved.skills, disabled: [] }
        : partitionSkills(resolved.skills, filter);
    const needing = options.needFacts !== undefined && enabled.some((s) => skillNeeds(s).length > 0);
    if (!needing || options.needFacts === undefined) {
      return filter === undefined ? resolved : { ...resolved, skills: enabled, disabled };
    }
    const commands = commandsNeeded(enabled.flatMap((s) => skillNeeds(s)));
    const unmet = unmetNeeds(enabled, await options.needFacts(commands));
    const unavailable: DisabledSkill[] = [...unmet].map(([skill, { need, why }]) => ({
      skill,
      by: { kind: "unmet", need, why },
    }));
    return {
      ...resolved,
      skills: enabled.filter((s) => !unmet.has(s)),
      disabled: [...disabled, ...unavailable],
    };
  };
  const catalog: SkillCatalog = {
    get() {
      current ??= scan();
      return current;
    },
    async reload() {
      const mine = scan();
      current = mine;
      const discovery = await mine;
      // Two reloads in flight (a burst of source changes): only the newest tells the listeners, so an older
      // scan that finishes last never replaces a newer one.
      if (current === mine) for (const listener of listeners) listener(discovery);
      return discovery;
    },
    refresh() {
      if (current === undefined) return;
      void catalog.reload().catch(() => undefined);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      for (const stop of unsubscribe.splice(0)) stop();
    },
  };
  const unsubscribe = sources.map((source) => source.subscribe(() => catalog.refresh()));
  return catalog;
}

async function listSource(source: SkillSource): Promise<SourceListing> {
  try {
    return await source.list();
  } catch (error) {
    const problem = diagnostic(
      "error",
      "source-failed",
      `skill source ${source.id} failed: ${errorMessage(error)}`,
      source.id,
    );
    return { skills: [], diagnostics: [problem] };
  }
}
