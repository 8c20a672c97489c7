import type { FsOps } from "../io/fs.js";
import type { SkillTermAnalyzers } from "../skill/skill-terms.js";
import type { RootReport, SkillSource, SourceListing } from "../sources/skill-source.js";
import { cacheFileFor } from "./cache-file.js";
import { withCodexMetadata } from "./codex-metadata.js";
import { openHeadCache } from "./head-cache.js";
import { scanSkillRoots } from "./scan-roots.js";
import type { SkillRoot } from "./skill-roots.js";

/** What a file source reads: a file system, its roots (asked at each listing) and an optional head cache. */
export interface FileSourceOptions {
  fs: FsOps;
  /** The roots in precedence order and the project dir the head cache is kept for; asked at each listing. */
  roots: () => Promise<{ roots: SkillRoot[]; projectDir: string }>;
  /** Keep parsed heads between runs in `dir` (one file per project); entries of another `key` are ignored. */
  cache?: { dir: string; key: string; now: () => number; analyze?: SkillTermAnalyzers };
  /** The settings' `skills.categories` (asked at each listing): `.claude/skills` category folders are read too. */
  categories?: () => Promise<boolean>;
}

/**
 * The skill folders of a host (managed, user, project, `--add-dir`, `--skills-dir`, legacy commands, the bundled
 * dir) as one source. Its skills carry their tier (`skill.source`) and come in root order, so the catalog ranks
 * them with the other sources; it also reports each root (`doctor`, `list`). A cache problem is a diagnostic.
 * It reports no changes itself: the host's watcher (or `reload`) rescans.
 */
export function createFileSource(options: FileSourceOptions): SkillSource {
  const { fs } = options;
  return {
    id: "files",
    async list(signal): Promise<SourceListing & { roots: RootReport[] }> {
      const { roots, projectDir } = await options.roots();
      const settings = options.cache;
      const cache =
        settings === undefined
          ? undefined
          : await openHeadCache({
              fs,
              file: cacheFileFor(settings.dir, projectDir),
              key: settings.key,
              now: settings.now(),
              ...(settings.analyze === undefined ? {} : { analyze: settings.analyze }),
            });
      const scanned = await scanSkillRoots({
        fs,
        roots,
        categories: (await options.categories?.()) === true,
        ...(signal === undefined ? {} : { signal }),
        ...(cache === undefined ? {} : { cache }),
      });
      const cacheProblem = await cache?.save();
      const codex = await withCodexMetadata(fs, scanned.skills);
      return {
        ...scanned,
        skills: codex.skills,
        diagnostics: [
          ...scanned.diagnostics,
          ...codex.diagnostics,
          ...(cacheProblem === undefined ? [] : [cacheProblem]),
        ],
      };
    },
    subscribe: () => () => undefined,
  };
}
