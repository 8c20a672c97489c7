import { availableParallelism } from "node:os";
import { configDefaults, defineConfig, type ViteUserConfig } from "vitest/config";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";
import { SLOW_FIRST, SYSTEM_TESTS } from "./test/support/suites.js";

/** Vitest's order (failed, then slowest by its cache, when it has one), with {@link SLOW_FIRST} ahead of it. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    return base
      .map((file, index) => ({ file, index, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

/** The configuration of one set of tests: `npm test`'s ("default") or `npm run test:system`'s ("system"). */
export function suiteConfig(set: "default" | "system"): ViteUserConfig {
  return defineConfig({
    test: {
      include: set === "system" ? SYSTEM_TESTS : ["test/**/*.test.ts"],
      exclude: set === "system" ? configDefaults.exclude : [...configDefaults.exclude, ...SYSTEM_TESTS],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      pool: "forks",
      // One worker process runs many files (vitest's default starts a new one per file): on 2 cores that cut
      // the whole run from 580 s to 450 s, mostly module imports. Tests keep no state between files: each makes
      // its own temp dirs, servers and databases and restores any process state it changes (env, cwd, timers).
      isolate: false,
      // Most slow files wait on child processes, servers and databases rather than compute: two at a time even
      // on 2 cores (vitest's default there is one), one per core beyond.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      sequence: { sequencer: SlowFirstSequencer },
      // Says once when the tests that read the corpus of real skills (test/support/corpus.ts) are skipped.
      globalSetup: set === "system" ? [] : ["test/support/corpus-notice.ts"],
      // `expect.poll` waits for a browser page or a served process: 1 s (vitest's default) failed under load.
      expect: { poll: { timeout: 15_000 } },
    },
  });
}

export default suiteConfig("default");
