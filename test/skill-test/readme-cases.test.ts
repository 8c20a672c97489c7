// The README's "Testing your skills" section documents every case kind with an example: the example must be a
// valid tests file (the schema `skillwright test` uses) and show each kind; the runnable commands around it are
// run by test/readme.test.ts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCasesFile } from "../../src/skill-test/cases.js";

const README = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");

/** The text of the README section that starts with `heading`, up to the next `## ` heading. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no ${heading}`);
  const end = README.indexOf("\n## ", start + heading.length + 2);
  return README.slice(start, end === -1 ? undefined : end);
}

const TESTING = section("## Testing your skills");

describe('README "Testing your skills"', () => {
  it("its yaml example is a valid tests file with a case of every kind", () => {
    const blocks = [...TESTING.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
    expect(blocks).toHaveLength(1);
    const parsed = parseCasesFile("README.md", blocks[0] ?? "");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.cases.map((c) => c.case.kind)).toEqual([
      "expansion",
      "listing",
      "trigger",
      "session",
      "graded",
    ]);
  });

  it("documents --json, --junit, --update, lint and --min-score, and the advice and progress output", () => {
    for (const text of [
      "--json",
      "--junit",
      "--update",
      "skillwright lint",
      "--min-score",
      "advice",
      "model runs",
    ]) {
      expect(TESTING).toContain(text);
    }
  });
});
