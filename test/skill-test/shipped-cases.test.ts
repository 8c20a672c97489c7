// `npm test` runs the test cases that ship with the bundled skills and the example project through the built
// CLI (issue 15 #5): a case that breaks, or a tests file that stops parsing, fails the suite.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

interface JsonReport {
  ok: boolean;
  passed: number;
  skipped: number;
  failed: number;
  skills: number;
  cases: { skill: string; name: string; kind: string; passed: boolean; failures: string[] }[];
  fileErrors: unknown[];
}

const BUNDLED = fileURLToPath(new URL("../../bundled-skills", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../examples/project", import.meta.url));

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** Runs `skillwright test … --json` with the built bin, without an API key (trigger cases are skipped). */
async function run(args: string[]): Promise<{ code: number; report: JsonReport }> {
  tree = await tmpTree({ "home/repo/README.md": "x" });
  const result = await cli(tree, ["test", "--json", ...args]);
  return { code: result.code, report: json<JsonReport>(result) };
}

function failuresOf(report: JsonReport) {
  return report.cases.filter((c) => !c.passed).map((c) => `${c.skill} › ${c.name}: ${c.failures.join("; ")}`);
}

describe("the shipped skill test cases pass through the built CLI", () => {
  it("bundled-skills/*/tests", async () => {
    const { code, report } = await run([BUNDLED]);
    expect(report.fileErrors).toEqual([]);
    expect(failuresOf(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, passed: 10, skipped: 4, failed: 0, skills: 4 });
    expect(new Set(report.cases.map((c) => c.kind))).toEqual(
      new Set(["expansion", "listing", "trigger", "session"]),
    );
    expect(code).toBe(0);
    // A run of the built CLI over every case: about 5 s alone, past 30 s once on a 2-core machine under a CPU hog.
  }, 120_000);

  it("examples/project", async () => {
    const { code, report } = await run(["--cwd", EXAMPLE]);
    expect(report.fileErrors).toEqual([]);
    expect(failuresOf(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, passed: 9, skipped: 2, failed: 0, skills: 3 });
    expect(new Set(report.cases.map((c) => c.kind))).toEqual(
      new Set(["expansion", "listing", "trigger", "session"]),
    );
    expect(code).toBe(0);
    // A run of the built CLI over every case: about 5 s alone, past 30 s once on a 2-core machine under a CPU hog.
  }, 120_000);
});
