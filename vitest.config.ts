import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Says once when the tests that read the corpus of real skills (test/support/corpus.ts) are skipped.
    globalSetup: ["test/support/corpus-notice.ts"],
    // `expect.poll` waits for a browser page or a served process: 1 s (vitest's default) failed under load.
    expect: { poll: { timeout: 15_000 } },
  },
});
