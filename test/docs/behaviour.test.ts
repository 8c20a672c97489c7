// The behaviour contract lives in the repository (docs/behaviour.md), and every "SPEC §N" that the source, the
// benchmarks, the scripts and the README cite resolves to one of its sections. No document in the repository
// points at files outside it (the workspace's `../shared` folder, its SPEC or its seeds).
// The README is read when the test runs, so a README edited on another branch is checked as it stands.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONTRACT = "docs/behaviour.md";
/** Where citations are looked for: folders (walked) and single files. */
const CITING = ["src", "bench", "scripts", "README.md", CONTRACT];
/** Where no mention of the workspace outside the repository may appear. */
const SELF_CONTAINED = [
  "src",
  "docs",
  "examples",
  "bench",
  "scripts",
  "bundled-skills",
  "README.md",
  "ARCHITECTURE.md",
  "CHANGELOG.md",
];
const OUTSIDE_MENTIONS = ["../shared", "shared/SPEC", "seeds/", "seed 00"];

/** Every file under `path` (a file alone when it is one), as paths relative to `root`; nothing when absent. */
async function filesUnder(root: string, path: string): Promise<string[]> {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  const entries = await readdir(full, { withFileTypes: true, recursive: true }).catch(() => null);
  if (entries === null) return [path];
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** The section numbers of the contract: headings `## §3 …` and `### §14.9 …`. */
function sectionNumbers(contract: string): Set<string> {
  const numbers = new Set<string>();
  for (const match of contract.matchAll(/^#{2,4} §(\d+(?:\.\d+)?)\s/gm)) numbers.add(match[1] ?? "");
  return numbers;
}

/**
 * Each `§N` / `§N.M` in `text` with its 1-based line: a "SPEC §N" citation, the further sections of a list
 * ("SPEC §7, §14.11", "SPEC §8–§10") and a bare "(§14.9)" continuing one across a line break. A section of an
 * outside standard ("RFC 9110 §5.6.2") is not ours.
 */
function citations(text: string): { line: number; section: string }[] {
  const found: { line: number; section: string }[] = [];
  for (const match of text.matchAll(/§(\d+(?:\.\d+)?)/g)) {
    const before = text.slice(Math.max(0, match.index - 20), match.index);
    if (/\bRFC \d+\s*$/.test(before)) continue;
    found.push({ line: text.slice(0, match.index).split("\n").length, section: match[1] ?? "" });
  }
  return found;
}

/** `file:line: §N` for every citation under `root` that the contract has no section for. */
async function unresolvedCitations(root: string): Promise<string[]> {
  const sections = sectionNumbers(await readFile(join(root, CONTRACT), "utf8"));
  const problems: string[] = [];
  for (const path of CITING) {
    for (const file of await filesUnder(root, path)) {
      for (const { line, section } of citations(await readFile(join(root, file), "utf8"))) {
        if (!sections.has(section))
          problems.push(`${file}:${line}: §${section} has no section in ${CONTRACT}`);
      }
    }
  }
  return problems;
}

/** `file:line: "…"` for every mention of the workspace outside the repository. */
async function outsideMentions(root: string): Promise<string[]> {
  const problems: string[] = [];
  for (const path of SELF_CONTAINED) {
    for (const file of await filesUnder(root, path)) {
      const lines = (await readFile(join(root, file), "utf8")).split("\n");
      lines.forEach((text, index) => {
        const hit = OUTSIDE_MENTIONS.find((mention) => text.toLowerCase().includes(mention.toLowerCase()));
        if (hit !== undefined)
          problems.push(`${file}:${index + 1}: mentions "${hit}", outside the repository`);
      });
    }
  }
  return problems;
}

describe("the behaviour contract (docs/behaviour.md)", () => {
  it("has a section for every SPEC §N cited in src, bench, scripts and the README", async () => {
    const sections = sectionNumbers(await readFile(join(ROOT, CONTRACT), "utf8"));
    for (const n of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"]) {
      expect(sections.has(n), `§${n}`).toBe(true);
    }
    expect(await unresolvedCitations(ROOT)).toEqual([]);
  });

  it("keeps the repository's documents and source free of pointers outside it", async () => {
    expect(await outsideMentions(ROOT)).toEqual([]);
  });

  describe("the checks themselves, on a tree of our own", () => {
    let tree: TmpTree | undefined;
    afterEach(async () => {
      await tree?.cleanup();
      tree = undefined;
    });

    it("name the file and line of a citation the contract lacks and of a pointer outside the repository", async () => {
      tree = await tmpTree({
        "docs/behaviour.md":
          "# Contract\n\n## §3 The listing\n\n## §14 Details\n\n### §14.9 Shell failure texts\n",
        "src/a.ts":
          "// SPEC §3: fine\n/** Sent as is (SPEC §14.9,\n * §14.10). RFC 9110 §5.6.2 is not ours. */\n",
        "scripts/b.mjs": "// SPEC §8–§3\n",
        "README.md": "Intro.\n\nAs SPEC §99 says, see ../shared/SPEC.md and seed 004.\n",
      });
      expect(await unresolvedCitations(tree.root)).toEqual([
        `src/a.ts:3: §14.10 has no section in ${CONTRACT}`,
        `scripts/b.mjs:1: §8 has no section in ${CONTRACT}`,
        `README.md:3: §99 has no section in ${CONTRACT}`,
      ]);
      expect(await outsideMentions(tree.root)).toEqual([
        `README.md:3: mentions "../shared", outside the repository`,
      ]);
    });
  });
});
