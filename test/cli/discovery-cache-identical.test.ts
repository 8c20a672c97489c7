import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOVERY_CACHE_ENV } from "../../src/cli/discovery-cache.js";
import { HEAD_CACHE_FORMAT, RACY_WINDOW_MS } from "../../src/discovery/head-cache.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, cli } from "./run-cli.js";

/** Skills per kind of head in the generated tree. */
const EACH = 6;

/** The frontmatter shapes discovery meets in real skills, the malformed ones included (index `i` varies them). */
const HEADS: ((i: number) => string)[] = [
  (i) => `---\ndescription: plain ${i}\n---\nBody ${i}\n`,
  (i) =>
    `---\ndescription: "quoted \\"${i}\\" with \\\\ escapes"\nallowed-tools: [Read, "Bash(git add:*)"]\n---\n`,
  (i) => `---\ndescription: 'single ${i}'\nallowed-tools:\n  - Read\n  - Grep\n---\nbody\n`,
  (i) =>
    `---\ndescription: |\n  block ${i}\n  second line\nmetadata:\n  owner: team-${i}\n  tier: ${i}\n---\n`,
  (i) => `---\r\ndescription: crlf ${i}\r\nargument-hint: "[file]"\r\n---\r\nBody\r\n`,
  (i) => `\uFEFF---\ndescription: bom ${i}\npaths: ["src/**/*.ts"]\n---\nbody\n`,
  (i) => `---\ndescription: [unclosed ${i}\nmodel: x\n---\nbroken yaml\n`,
  (i) => `---\ndescription: never closed ${i}\n`,
  (i) => `---\ndescription: binary ${i}\n---\nbody\0with a NUL\n`,
  (i) => `No frontmatter; the first line describes skill ${i}.\n`,
  (i) => `---\ndescription: anchors ${i}\nbase: &b { x: [1, 2] }\nmore: *b\nunknown-field: ${i}\n---\n`,
  () => "",
];

/** A project with user skills, project skills (some clashing), legacy commands and a symlinked skill dir. */
function generatedTree(): Record<string, TreeEntry> {
  const entries: Record<string, TreeEntry> = { "home/repo/.git": { dir: true } };
  for (const [kind, head] of HEADS.entries()) {
    for (let i = 0; i < EACH; i += 1) {
      const text = head(i);
      const name = `k${kind}-s${i}`;
      entries[`home/.claude/skills/${name}/SKILL.md`] = text;
      if (i % 2 === 0) entries[`home/repo/.claude/skills/${i === 0 ? name : `p-${name}`}/SKILL.md`] = text;
      if (i % 3 === 0) entries[`home/.claude/commands/ns${kind}/c${i}.md`] = text;
    }
  }
  entries["home/repo/.claude/skills/linked"] = { symlink: "../../../.claude/skills/k0-s1" };
  return entries;
}

describe("list --json through the shipped bin, with and without the discovery cache", () => {
  let tree: TmpTree;
  beforeAll(async () => {
    assertBuilt();
    tree = await tmpTree(generatedTree());
    // Files changed within the racy window are never kept: wait until these are old enough.
    await new Promise((r) => setTimeout(r, RACY_WINDOW_MS + 100));
  });
  afterAll(() => tree.cleanup());

  const list = async (env: Record<string, string> = {}) => {
    const result = await cli(tree, ["list", "--json"], "home/repo", env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    return result.stdout;
  };
  const doctor = async (env: Record<string, string> = {}) => {
    const result = await cli(tree, ["doctor", "--json"], "home/repo", env);
    const report = JSON.parse(result.stdout) as { diagnostics?: unknown };
    return JSON.stringify(report.diagnostics);
  };

  it("prints the same skills and diagnostics off, cold and warm, and the warm run reads the cache it wrote", async () => {
    const uncached = await list({ [DISCOVERY_CACHE_ENV]: "off" });
    const uncachedDiagnostics = await doctor({ [DISCOVERY_CACHE_ENV]: "off" });
    expect(JSON.parse(uncached).length).toBeGreaterThan(HEADS.length * EACH);
    expect(uncachedDiagnostics).toContain("yaml-invalid");
    expect(uncachedDiagnostics).toContain("frontmatter-unclosed");
    expect(uncachedDiagnostics).toContain("shadowed");

    const cacheDir = tree.path("home/.skillwright/cache/discovery");
    expect(await list()).toBe(uncached);
    const [file = ""] = readdirSync(cacheDir);
    const [header = "", ...lines] = readFileSync(join(cacheDir, file), "utf8").trimEnd().split("\n");
    expect(JSON.parse(header)).toMatchObject({ format: HEAD_CACHE_FORMAT });
    // One entry per file read (the symlinked dir's SKILL.md is another path to the same file: kept too).
    expect(lines.length).toBeGreaterThan(HEADS.length * EACH);
    const written = readFileSync(join(cacheDir, file), "utf8");

    expect(await list()).toBe(uncached);
    expect(await doctor()).toBe(uncachedDiagnostics);
    // A warm run with nothing changed leaves the file as it was.
    expect(readFileSync(join(cacheDir, file), "utf8")).toBe(written);
  }, 60_000);
});
