import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/**
 * The slowest files, slowest first (measured on a 2-core machine): they start first, so that the many short
 * files fill the other worker while they run and the run does not end on a long tail. A path that is gone only
 * loses its place.
 */
const SLOW_FIRST = [
  "test/serve/crash.test.ts",
  "test/readme.test.ts",
  "test/serve/sdk.test.ts",
  "test/cli/bundle-paths.test.ts",
  "test/serve/keys.test.ts",
  "test/serve/confirmation-check.test.ts",
  "test/serve/orphan-resume.test.ts",
  "test/session-cli/cli.test.ts",
  "test/serve/bad-input.test.ts",
  "test/serve/store.test.ts",
  "test/cli/pack.test.ts",
  "test/serve/serve-script.test.ts",
  "test/readme-snippets.test.ts",
];

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

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker process runs many files (vitest's default starts a new one per file): on 2 cores that cut the
    // whole run from 580 s to 450 s, mostly module imports. Tests keep no state between files: each makes its own
    // temp dirs, servers and databases and restores any process state it changes (env, cwd, timers).
    isolate: false,
    // Most slow files wait on child processes, servers and databases rather than compute: two at a time even
    // on 2 cores (vitest's default there is one), one per core beyond.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
    // Says once when the tests that read the corpus of real skills (test/support/corpus.ts) are skipped, and
    // registers the checkout with npx before the README blocks call it (test/support/npx-link.ts).
    globalSetup: ["test/support/corpus-notice.ts", "test/support/npx-link.ts"],
    // `expect.poll` waits for a browser page or a served process: 1 s (vitest's default) failed under load.
    expect: { poll: { timeout: 15_000 } },
  },
});
