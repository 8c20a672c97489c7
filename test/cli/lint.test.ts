import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS_DIR, itWithCorpus } from "../support/corpus.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

/** Skills we wrote in the shapes real authors use (test/fixtures/skill-shapes). */
const SHAPES = fileURLToPath(new URL("../fixtures/skill-shapes", import.meta.url));

interface LintReport {
  ok: boolean;
  minScore: number | null;
  summary: { skills: number; mean: number; min: number; max: number; errors: number; warnings: number };
  missing: string[];
  skills: {
    path: string;
    name?: string;
    score: number;
    listing?: Record<"200k" | "1M", { chars: number; budget: number; share: number; cut?: string }>;
    findings: { code: string; severity: string; file: string; line: number; message: string }[];
    scoreParts: { code: string; points: number }[];
  }[];
}

/** A skill with nothing to find, named `name` (the spec requires the name; lint fails a skill without one). */
const clean = (name: string) =>
  `---\nname: ${name}\ndescription: Formats SQL. Use when the user asks to tidy a query.\n---\nTidy the query.\n`;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.claude/skills/clean/SKILL.md": clean("clean"),
    "home/repo/.claude/skills/vague/SKILL.md":
      "---\nname: vague\ndescription: Formats SQL.\n---\nTidy the query.\n",
    "risky/wipe/SKILL.md": `${clean("wipe")}See [notes](references/notes.md).\n`,
    "risky/wipe/scripts/clean.sh": "#!/bin/sh\nset -e\nrm -rf $OUT/\n",
    "prompt/pdf/SKILL.md":
      "---\nname: pdf-tools\ndescription: Read <PDF> & forms. Use when a .pdf is named.\n---\nx\n",
    "prompt/sql/SKILL.md": clean("sql"),
    "broken/SKILL.md": "---\ndescription: [unclosed\n---\nbody\n",
    "empty/README.md": "nothing here\n",
    "shared-refs/notes.md": "notes\n",
    "linked/skill/SKILL.md": `${clean("skill")}See [notes](references/notes.md).\n`,
    "linked/skill/references": { symlink: "../../shared-refs" },
  });
});
afterAll(() => tree.cleanup());

describe("skillwright lint", () => {
  it("lints the project's skills by default and exits 0 on warnings only", async () => {
    const result = await cli(tree, ["lint"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ .claude/skills/clean/SKILL.md (clean): score 100");
    expect(result.stdout).toContain("✓ .claude/skills/vague/SKILL.md (vague): score 90");
    expect(result.stdout).toMatch(/warning description-no-when SKILL\.md:3: /);
    expect(result.stdout).toContain("2 skill(s), score mean 95, min 90, max 100; 0 error(s), 1 warning(s)\n");
  });

  it("exits 1 on an error finding, with code, file and line (--json)", async () => {
    const result = await cli(tree, ["lint", "risky", "--json"], ".");
    expect(result.code).toBe(1);
    const report = json<LintReport>(result);
    expect(report.ok).toBe(false);
    const [skill] = report.skills;
    expect(skill?.name).toBe("wipe");
    expect(skill?.findings.map((f) => [f.code, f.severity, f.file, f.line])).toEqual([
      ["risky-rm-rf", "error", "scripts/clean.sh", 3],
      ["broken-link", "error", "SKILL.md", 6],
      ["listing-cost", "info", "SKILL.md", 1],
    ]);
    expect(skill?.score).toBe(50);
    // "- wipe: Formats SQL. Use when the user asks to tidy a query." is 60 chars.
    expect(skill?.listing).toEqual({
      "200k": { chars: 60, budget: 8000, share: 60 / 8000 },
      "1M": { chars: 60, budget: 30000, share: 60 / 30000 },
    });
  });

  it("follows a linked references dir when checking links", async () => {
    const result = await cli(tree, ["lint", "linked", "--json"], ".");
    expect(result.code).toBe(0);
    expect(json<LintReport>(result).skills[0]?.findings.map((f) => f.code)).toEqual(["listing-cost"]);
  });

  it("--min-score gates on the score", async () => {
    const below = await cli(tree, ["lint", "--min-score", "95"]);
    expect(below.code).toBe(1);
    expect(below.stdout).toContain(
      "✗ .claude/skills/vague/SKILL.md (vague): score 90 (below --min-score 95)",
    );
    const at = await cli(tree, ["lint", "--min-score", "90", "--json"]);
    expect(at.code).toBe(0);
    expect(json<LintReport>(at).minScore).toBe(90);
  });

  it("rejects a --min-score outside 0–100", async () => {
    const result = await cli(tree, ["lint", "--min-score", "101"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--min-score takes a whole number from 0 to 100");
  });

  it("reports a path with no skill, and a skill that does not load, without crashing", async () => {
    const result = await cli(tree, ["lint", "empty", "broken", "--json"], ".");
    expect(result.code).toBe(1);
    const report = json<LintReport>(result);
    expect(report.missing).toEqual([tree.path("empty")]);
    expect(report.skills).toHaveLength(1);
  });

  /** Lints `dir` as a whole: every skill scored within 0–100, each with its listing cost. */
  async function lintsWhole(dir: string, atLeast: number) {
    const result = await cli(tree, ["lint", dir, "--json"], ".");
    const report = json<LintReport>(result);
    expect(report.summary.skills).toBeGreaterThanOrEqual(atLeast);
    for (const skill of report.skills) {
      expect(skill.score).toBeGreaterThanOrEqual(0);
      expect(skill.score).toBeLessThanOrEqual(100);
      expect(skill.findings.some((f) => f.code === "listing-cost")).toBe(true);
    }
  }

  it("runs on skills in the shapes real authors write without crashing", async () => {
    await lintsWhole(SHAPES, 5);
  });

  itWithCorpus("runs on the real corpus without crashing", async () => {
    await lintsWhole(CORPUS_DIR ?? "", 31);
  });
});

describe("skillwright to-prompt", () => {
  it("prints the <available_skills> block with escaped values, in the order given", async () => {
    const result = await cli(tree, ["to-prompt", "prompt/pdf", "prompt/sql"], ".");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${[
        "<available_skills>",
        "<skill>",
        "<name>",
        "pdf-tools",
        "</name>",
        "<description>",
        "Read &lt;PDF&gt; &amp; forms. Use when a .pdf is named.",
        "</description>",
        "<location>",
        tree.path("prompt/pdf/SKILL.md"),
        "</location>",
        "</skill>",
        "<skill>",
        "<name>",
        "sql",
        "</name>",
        "<description>",
        "Formats SQL. Use when the user asks to tidy a query.",
        "</description>",
        "<location>",
        tree.path("prompt/sql/SKILL.md"),
        "</location>",
        "</skill>",
        "</available_skills>",
      ].join("\n")}\n`,
    );
  });

  it("fails clearly for a dir with no skill, and needs at least one dir", async () => {
    const missing = await cli(tree, ["to-prompt", "empty"], ".");
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("<available_skills>\n</available_skills>\n");
    expect(missing.stderr).toContain("empty: no SKILL.md here or below");
    const none = await cli(tree, ["to-prompt"], ".");
    expect(none.code).toBe(2);
  });
});
