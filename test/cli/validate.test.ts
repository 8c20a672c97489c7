import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusPath, describeWithCorpus } from "../support/corpus.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

/** Skills we wrote in the shapes real authors use; only api-guide's description is over the spec's limit. */
const SHAPES = fileURLToPath(new URL("../fixtures/skill-shapes", import.meta.url));

interface ValidateReport {
  ok: boolean;
  profile: string;
  files: {
    path: string;
    name?: string;
    ok: boolean;
    diagnostics: { severity: string; code: string; profile: string }[];
  }[];
}

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "skills/good/SKILL.md": "---\nname: good\ndescription: A good skill\nlicense: MIT\n---\nBody\n",
    "skills/warned/SKILL.md": "---\nname: warned\ndescription: Use when warned\neffort: extreme\n---\n",
    "yaml/broken/SKILL.md": "---\nname: broken\ndescription: Use when: yaml is wrong\n---\n",
    "skills/engine-only/SKILL.md": "---\nname: engine-only\ndescription: d\ncontext: fork\n---\n",
    "ttl/ok/SKILL.md": "---\nname: ok\ndescription: d\nttl-turns: 2\n---\nBody\n",
    "ttl/bad/SKILL.md": "---\nname: bad\ndescription: d\nttl-turns: soon\n---\nBody\n",
    "big/SKILL.md": `---\ndescription: big\n---\n${"x".repeat(1_000_001)}`,
  });
});
afterAll(() => tree.cleanup());

describe("skillwright validate", () => {
  it("warnings never block: exit 0 (engine profile)", async () => {
    const result = await cli(tree, ["validate", "skills"], ".");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `✓ ${tree.path("skills/warned/SKILL.md")} (warned): 0 error(s), 1 warning(s)`,
    );
    expect(result.stdout).toMatch(/warning field-invalid: /);
    expect(result.stdout).toMatch(/valid \(engine profile\)\n$/);
  });

  it("frontmatter that is not YAML is an error (discovery reads it line by line; validation refuses it)", async () => {
    const result = await cli(tree, ["validate", "yaml/broken"], ".");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error {3}yaml-invalid: /);
  });

  it("an error exits 1", async () => {
    const result = await cli(tree, ["validate", "big"], ".");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error +file-too-large/);
    expect(result.stdout).toMatch(/validation failed\n$/);
  });

  it("ttl-turns is a known field: a whole number passes, anything else is a field-invalid warning", async () => {
    const ok = await cli(tree, ["validate", "ttl/ok", "--json"], ".");
    expect(ok.code).toBe(0);
    expect(json<ValidateReport>(ok).files[0]?.diagnostics).toEqual([]);
    const bad = await cli(tree, ["validate", "ttl/bad", "--json"], ".");
    expect(bad.code).toBe(0);
    const codes = json<ValidateReport>(bad).files[0]?.diagnostics.map((d) => [d.severity, d.code]);
    expect(codes).toEqual([["warning", "field-invalid"]]);
  });

  it("a missing path exits 1", async () => {
    expect((await cli(tree, ["validate", "nope"], ".")).code).toBe(1);
  });

  it("--spec: engine-only keys are errors; exit 1", async () => {
    const result = await cli(tree, ["validate", "skills/engine-only", "--spec"], ".");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error   spec-unknown-key");
  });

  it("--spec on a spec-clean skill: exit 0", async () => {
    const result = await cli(tree, ["validate", "skills/good/SKILL.md", "--spec"], ".");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("valid (Agent Skills spec profile)");
  });

  it("--json: profile, ok and per-file diagnostics", async () => {
    const result = await cli(tree, ["validate", "skills", "--json"], ".");
    expect(result.code).toBe(0);
    const report = json<ValidateReport>(result);
    expect(report.ok).toBe(true);
    expect(report.profile).toBe("engine");
    expect(report.files.map((f) => [f.name, f.ok, f.diagnostics.map((d) => d.code)])).toEqual([
      ["engine-only", true, []],
      ["good", true, []],
      ["warned", true, ["field-invalid"]],
    ]);
  });

  it("--spec --json on a failing dir: ok false, exit 1", async () => {
    const result = await cli(tree, ["validate", "skills", "--spec", "--json"], ".");
    expect(result.code).toBe(1);
    const report = json<ValidateReport>(result);
    expect(report).toMatchObject({ ok: false, profile: "spec" });
    expect(report.files.find((f) => f.name === "good")?.ok).toBe(true);
    expect(report.files.find((f) => f.name === "engine-only")?.ok).toBe(false);
  });
});

/** `validate --spec` over a folder of real-looking skills where only `long` has a description over 1,024 chars. */
function specOnFolder(dir: () => string, long: string, chars: string, atLeast: number) {
  // skills-ref refuses such a description ("Must be 1-1024 characters"): so do we (issue 16.9).
  it(`${long} --spec: a spec-description-length error (${chars} chars); exit 1`, async () => {
    const result = await cli(tree, ["validate", `${dir()}/${long}`, "--spec", "--json"], ".");
    expect(result.code).toBe(1);
    const report = json<ValidateReport>(result);
    expect(report.files).toHaveLength(1);
    expect(report.files[0]?.diagnostics.map((d) => [d.severity, d.code, d.profile])).toEqual([
      ["error", "spec-description-length", "spec"],
    ]);
  });

  it("the rest of the folder passes --spec", async () => {
    const result = await cli(tree, ["validate", dir(), "--spec", "--json"], ".");
    const report = json<ValidateReport>(result);
    expect(report.files.length).toBeGreaterThanOrEqual(atLeast);
    expect(report.files.filter((f) => !f.ok).map((f) => f.name)).toEqual([long]);
  });
}

describe("validate on skills in the shapes real authors write (test/fixtures/skill-shapes)", () => {
  specOnFolder(() => SHAPES, "api-guide", "1,113", 5);
});

describeWithCorpus("validate on the anthropics/skills corpus", () => {
  specOnFolder(() => corpusPath("anthropics-skills"), "claude-api", "1,068", 10);
});

/** The shipped bin (package.json "bin"); `npm run build` first. */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

describe("the shipped bin: validate --spec (issue 16.9)", () => {
  const run = (...args: string[]) =>
    execa(process.execPath, [BIN, "validate", ...args], { cwd: tree.root, reject: false, timeout: 20_000 });

  it("YAML that is not YAML fails both profiles: the engine's yaml-invalid, the spec's spec-yaml-invalid", async () => {
    const engine = await run("yaml/broken");
    expect(engine.exitCode).toBe(1);
    const spec = await run("yaml/broken", "--spec");
    expect(spec.exitCode).toBe(1);
    expect(spec.stdout).toContain(
      "  Agent Skills spec:\n    error   spec-yaml-invalid: the frontmatter is not valid YAML",
    );
  });

  it("a 2 MB body is reported under the engine, not the spec", async () => {
    const result = await run("big", "--spec", "--json");
    const report = JSON.parse(result.stdout) as ValidateReport;
    expect(report.files[0]?.diagnostics.map((d) => [d.profile, d.code])).toEqual([
      ["engine", "file-too-large"],
      ["spec", "spec-name-missing"],
    ]);
  });
});
