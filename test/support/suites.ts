// Which test files run in which set, and in what order: read by vitest.config.ts (pure data, no imports).

/**
 * The system tests: the heavy integration files that drive whole outside systems (headless Chromium, several
 * `serve` instances and restarts on one real PostgreSQL, SIGKILLs of serve mid-turn, bubblewrap sandboxes, an
 * npm pack and install). `npm test` (`vitest run`) leaves them out; `npm run test:system` (vitest.system.config.ts)
 * runs only them, and `.ci/run` runs both. This list is the one place that says which files they are
 * (vitest.config.ts reads it; test/suites.test.ts checks that each entry names a file and the README each file).
 */
export const SYSTEM_TESTS = [
  "test/serve/web*.test.ts",
  "test/serve/crash.test.ts",
  "test/serve/pg-restart.test.ts",
  "test/serve/orphan-resume.test.ts",
  "test/serve/instances-sessions.test.ts",
  "test/serve/messages-instances.test.ts",
  "test/serve/keys-instances.test.ts",
  "test/serve/served-sandbox.test.ts",
  "test/serve/served-os-sandbox.test.ts",
  "test/sandbox/os-sandbox.test.ts",
  "test/sandbox/os-session-sandbox.test.ts",
  "test/cli/os-sandbox-bin.test.ts",
  "test/cli/pack.test.ts",
];

/**
 * The slowest files of each set, slowest first (measured on a 2-core machine): they start first, so that the
 * many short files fill the other worker while they run and the run does not end on a long tail. A path that is
 * gone, or is in the other set, only loses its place.
 */
export const SLOW_FIRST = [
  // npm test
  "test/readme.test.ts",
  "test/serve/sdk.test.ts",
  "test/cli/bundle-paths.test.ts",
  "test/serve/keys.test.ts",
  "test/serve/confirmation-check.test.ts",
  "test/session-cli/cli.test.ts",
  "test/serve/bad-input.test.ts",
  "test/serve/store.test.ts",
  "test/serve/serve-script.test.ts",
  "test/readme-snippets.test.ts",
  // npm run test:system
  "test/cli/pack.test.ts",
  "test/serve/served-sandbox.test.ts",
  "test/serve/crash.test.ts",
  "test/serve/web.test.ts",
  "test/serve/orphan-resume.test.ts",
  "test/sandbox/os-sandbox.test.ts",
];
