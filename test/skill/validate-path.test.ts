import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { validatePath } from "../../src/skill/validate-path.js";
import { spyFs } from "../discovery/spy-fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const GOOD = "---\nname: good\ndescription: A good skill\n---\nbody\n";
const summary = (results: Awaited<ReturnType<typeof validatePath>>) =>
  results.map((r) => ({
    path: r.path,
    name: r.skill?.name,
    codes: [...r.diagnostics, ...(r.spec ?? [])].map((d) => d.code),
  }));

describe("validatePath", () => {
  it("a SKILL.md file, a skill dir and a dir of skills", async () => {
    tree = await tmpTree({
      "skills/good/SKILL.md": GOOD,
      "skills/odd/SKILL.md": "---\ndescription: d\ncolour: red\n---\n",
      "skills/notes/readme.md": "not a skill",
    });
    const fs = createNodeFs();
    expect(summary(await validatePath(fs, tree.path("skills/good/SKILL.md"), false))).toEqual([
      { path: tree.path("skills/good/SKILL.md"), name: "good", codes: [] },
    ]);
    expect(summary(await validatePath(fs, tree.path("skills/good"), false))).toEqual([
      { path: tree.path("skills/good/SKILL.md"), name: "good", codes: [] },
    ]);
    expect(summary(await validatePath(fs, tree.path("skills"), false))).toEqual([
      { path: tree.path("skills/good/SKILL.md"), name: "good", codes: [] },
      { path: tree.path("skills/odd/SKILL.md"), name: "odd", codes: ["field-unknown"] },
    ]);
  });

  it("--spec adds the Agent Skills profile", async () => {
    tree = await tmpTree({
      "skills/good/SKILL.md": GOOD,
      "skills/odd/SKILL.md": "---\ndescription: d\ncolour: red\n---\n",
    });
    const results = await validatePath(createNodeFs(), tree.path("skills"), true);
    expect(summary(results)).toEqual([
      { path: tree.path("skills/good/SKILL.md"), name: "good", codes: [] },
      {
        path: tree.path("skills/odd/SKILL.md"),
        name: "odd",
        codes: ["field-unknown", "spec-name-missing", "spec-unknown-key"],
      },
    ]);
  });

  it("a command file is validated as a command", async () => {
    tree = await tmpTree({ "commands/deploy.md": "---\nname: ignored\n---\nDeploy it\n" });
    const [result] = await validatePath(createNodeFs(), tree.path("commands/deploy.md"), false);
    expect(result?.skill).toMatchObject({ name: "deploy", kind: "command", description: "Deploy it" });
  });

  it("a lowercase skill.md is validated as a skill, with an error saying discovery skips it", async () => {
    tree = await tmpTree({ "skills/low/skill.md": "---\nname: low\ndescription: d\n---\n" });
    const [result] = await validatePath(createNodeFs(), tree.path("skills/low/skill.md"), true);
    expect(result?.skill).toMatchObject({ name: "low", kind: "skill" });
    expect(result?.diagnostics.map((d) => [d.severity, d.code])).toEqual([["error", "ignored-file"]]);
  });

  it("a file that cannot be re-read for the spec profile is an error, not a crash", async () => {
    tree = await tmpTree({ "skills/good/SKILL.md": GOOD });
    let heads = 0;
    const { fs } = spyFs((method) => (method === "readHead" && ++heads === 2 ? "EIO" : undefined));
    const [result] = await validatePath(fs, tree.path("skills/good"), true);
    expect(result?.diagnostics).toEqual([]);
    expect(result?.spec?.map((d) => d.code)).toEqual(["file-unreadable"]);
  });

  it("a 2 MB body is an engine limit, not a spec error (issue 16.9)", async () => {
    tree = await tmpTree({
      "skills/big/SKILL.md": `---\nname: big\ndescription: A big skill\n---\n${"x".repeat(2_000_000)}\n`,
    });
    const [result] = await validatePath(createNodeFs(), tree.path("skills/big"), true);
    expect(result?.diagnostics.map((d) => [d.severity, d.code])).toEqual([["error", "file-too-large"]]);
    expect(result?.spec).toEqual([]);
  });

  it("a directory named SKILL.md is reported as such, whichever path names it (issue 16.7)", async () => {
    tree = await tmpTree({ "skills/bad/SKILL.md/notes.txt": "x", "skills/good/SKILL.md": GOOD });
    const fs = createNodeFs();
    const bad = { path: tree.path("skills/bad/SKILL.md"), name: undefined, codes: ["not-a-file"] };
    expect(summary(await validatePath(fs, tree.path("skills/bad"), false))).toEqual([bad]);
    expect(summary(await validatePath(fs, tree.path("skills/bad/SKILL.md"), false))).toEqual([bad]);
    expect(summary(await validatePath(fs, tree.path("skills"), false))).toEqual([
      bad,
      { path: tree.path("skills/good/SKILL.md"), name: "good", codes: [] },
    ]);
  });

  it("a missing path is an error", async () => {
    tree = await tmpTree();
    const results = await validatePath(createNodeFs(), tree.path("nope"), false);
    expect(summary(results)).toEqual([
      { path: tree.path("nope"), name: undefined, codes: ["file-unreadable"] },
    ]);
    expect(results[0]?.diagnostics[0]?.severity).toBe("error");
  });

  it("a dir with no skill in it is an error", async () => {
    tree = await tmpTree({ "empty/readme.md": "x" });
    const results = await validatePath(createNodeFs(), tree.path("empty"), false);
    expect(summary(results)).toEqual([
      { path: tree.path("empty"), name: undefined, codes: ["ignored-file"] },
    ]);
    expect(results[0]?.diagnostics[0]?.severity).toBe("error");
  });

  it("an oversized file is an error", async () => {
    tree = await tmpTree({ "big/SKILL.md": "a".repeat(1_000_001) });
    const results = await validatePath(createNodeFs(), tree.path("big"), true);
    expect(summary(results)).toEqual([
      {
        path: tree.path("big/SKILL.md"),
        name: undefined,
        codes: ["file-too-large", "spec-yaml-invalid"],
      },
    ]);
  });
});
