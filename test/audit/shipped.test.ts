/**
 * Audit of issue 2 #4 and #6: the shipped bundled skills and the example project the README's first command
 * (`npm run doctor`) shows. Before this file only one test looked at bundled-skills/ (that the bundled bin
 * lists some bundled skill); nothing checked that each shipped skill is clean or that the example project
 * loads without problems.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/engine.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { parsed, runIn } from "./support.js";

const PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLED = `${PACKAGE}bundled-skills`;
const EXAMPLE = `${PACKAGE}examples/project`;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", "project/.git": { dir: true } });
});
afterAll(() => tree.cleanup());

describe("the shipped bundled skills (issue 2 #4)", () => {
  const names = readdirSync(BUNDLED, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it("there are 3 to 5 of them", () => {
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(names.length).toBeLessThanOrEqual(5);
  });

  it("each loads as a bundled skill with no warning or error, listed after every other source", async () => {
    const engine = createEngine({
      cwd: tree.path("project"),
      home: tree.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
      bundledDir: BUNDLED,
    });
    const discovery = await engine.discover();
    const bundled = discovery.skills.filter((s) => s.source === "bundled").map((s) => s.name);
    expect([...bundled].sort()).toEqual([...names].sort());
    const bad = discovery.diagnostics.filter((d) => d.severity !== "info");
    expect(bad).toEqual([]);
  });

  it.each(names)("%s passes `validate --spec` and has a real body", async (name) => {
    const run = await runIn(tree, ["validate", `${BUNDLED}/${name}`, "--spec", "--json"]);
    expect(run.code, run.stdout).toBe(0);
    const body = await createEngine({
      cwd: tree.path("project"),
      home: tree.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
      bundledDir: BUNDLED,
    })
      .discover()
      .then((d) => d.skills.find((s) => s.name === name)?.loadBody());
    expect((body ?? "").length).toBeGreaterThan(500);
  });
});

describe("the README's offline command: doctor on examples/project (issue 2 #6)", () => {
  it("exits 0 with no error or warning diagnostics, the example skills and the bundled skills listed", async () => {
    const run = await runIn(tree, ["doctor", "--json", "--cwd", EXAMPLE], { bundledDir: BUNDLED });
    expect(run.code).toBe(0);
    const report = parsed<{
      diagnostics: { severity: string; code: string }[];
      counts: Record<string, number>;
      listing: { text: string };
    }>(run);
    expect(report.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(report.counts.bundled).toBeGreaterThanOrEqual(3);
    for (const name of ["commit-message", "code-review", "release-notes", "team:standup", "skill-author"]) {
      expect(report.listing.text).toContain(`- ${name}`);
    }
  });
});
