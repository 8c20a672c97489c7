import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { SLOW_FIRST, SYSTEM_TESTS } from "./support/suites.js";

// The split of the tests into `npm test` and `npm run test:system` (test/support/suites.ts) stays true: every
// system entry names a test file (a renamed file would otherwise fall back into npm test unnoticed), the README
// says what each system file needs, and the slow-first order names only files that exist.

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every test file, by path from the repository root. */
function testFiles(dir = "test"): string[] {
  return readdirSync(`${ROOT}${dir}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = testFiles();
const system = files.filter((file) => picomatch.isMatch(file, SYSTEM_TESTS));

describe("the system tests", () => {
  it("each entry of SYSTEM_TESTS names at least one test file", () => {
    for (const pattern of SYSTEM_TESTS) {
      expect(
        files.some((file) => picomatch.isMatch(file, pattern)),
        `${pattern} matches no test file`,
      ).toBe(true);
    }
    // Most files stay in npm test.
    expect(system.length).toBeGreaterThan(0);
    expect(system.length).toBeLessThan(files.length / 10);
  });

  it("the README's Development section names each system file", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const development = readme.slice(readme.indexOf("## Development"));
    const section = development.slice(0, development.indexOf("`npm run build` compiles"));
    expect(section).toContain("npm run test:system");
    for (const file of system) {
      const name = /([^/]+)\.test\.ts$/.exec(file)?.[1] ?? file;
      // web*.test.ts is named by its pattern.
      if (name.startsWith("web")) expect(section).toContain("test/serve/web*.test.ts");
      else
        expect(section, `README.md's Development section does not name ${file}`).toMatch(
          new RegExp(`(?<![\\w-])${name}(?![\\w-])`),
        );
    }
  });

  it("the slow-first order names only existing test files", () => {
    for (const file of SLOW_FIRST) expect(files, file).toContain(file);
  });
});
