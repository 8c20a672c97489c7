import { createCatalog, type Discovery } from "../../src/catalog/catalog.js";
import type { HeadCache } from "../../src/discovery/head-cache.js";
import { scanSkillRoots } from "../../src/discovery/scan-roots.js";
import type { SkillRoot } from "../../src/discovery/skill-roots.js";
import type { FsOps } from "../../src/io/fs.js";

/**
 * The skills of `roots` as an engine's catalog resolves them (ranking, clashes, listing order), through the
 * real catalog over one file source: what the tests of file discovery check.
 */
export function discoverSkills(options: {
  fs: FsOps;
  roots: SkillRoot[];
  cache?: HeadCache;
  signal?: AbortSignal;
}): Promise<Discovery> {
  const files = { id: "files", list: () => scanSkillRoots(options), subscribe: () => () => undefined };
  return createCatalog({ sources: [files] }).get();
}
