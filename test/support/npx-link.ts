import { fileURLToPath } from "node:url";
import { execa } from "execa";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Vitest's global setup: registers this checkout with npx before any test runs. The README's blocks run
 * `npx skillwright` in the checkout (test/readme.test.ts), and the first such call on a machine installs the
 * checkout into npx's cache, which runs its `prepare` script: `npm run build`, which rewrites dist/ while the
 * other test files run dist/bin (a serve test once failed on a chunk deleted under it). Registered here with
 * `--ignore-scripts`, that install builds nothing, and every later `npx skillwright` finds it done. The npm
 * cache is the one the README's blocks use (test/readme.test.ts keeps it).
 */
export default async function setup(): Promise<void> {
  const result = await execa("npx", ["--yes", "--ignore-scripts", "skillwright", "--version"], {
    cwd: ROOT,
    reject: false,
    all: true,
  });
  if (result.exitCode !== 0)
    throw new Error(
      `npx could not run this checkout's skillwright (run \`npm run build\` first):\n${result.all}`,
    );
}
