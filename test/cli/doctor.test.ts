import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupByPath } from "../../src/cli/commands/doctor.js";
import { diagnostic } from "../../src/diagnostics.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cliTree } from "./cli-tree.js";
import { cli, json } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await cliTree();
});
afterAll(() => tree.cleanup());

interface DoctorReport {
  cwd: string;
  projectDir: string;
  gitRoot?: string;
  roots: { dir: string; source: string; label: string; exists: boolean; count: number }[];
  counts: Record<string, number>;
  diagnostics: { severity: string; code: string; path?: string }[];
  ignored: { code: string; path?: string; message: string }[];
}

describe("skillwright doctor", () => {
  it("--json: roots with existence and counts, counts per source, diagnostics, ignored files", async () => {
    const result = await cli(tree, ["doctor", "--json"]);
    expect(result.code).toBe(0);
    const report = json<DoctorReport>(result);
    expect(report.cwd).toBe(tree.path("home/repo"));
    expect(report.gitRoot).toBe(tree.path("home/repo"));
    const roots = report.roots
      .filter((r) => r.dir.startsWith(tree.root))
      .map((r) => [r.label, r.dir.slice(tree.root.length + 1), r.exists, r.count]);
    expect(roots).toEqual([
      ["managed", "managed/skills", false, 0],
      ["managed commands", "managed/commands", false, 0],
      ["user", "home/.claude/skills", true, 1],
      ["user (.agents)", "home/.agents/skills", false, 0],
      ["user commands", "home/.claude/commands", false, 0],
      ["project", "home/repo/.claude/skills", true, 2],
      ["project (.agents)", "home/repo/.agents/skills", false, 0],
      ["project commands", "home/repo/.claude/commands", true, 1],
      ["bundled", "bundled", true, 1],
    ]);
    expect(report.counts).toMatchObject({ user: 1, project: 3, plugin: 0, mcp: 0, bundled: 1 });
    expect(report.diagnostics.map((d) => [d.code, d.path?.slice(tree.root.length + 1)])).toEqual([
      ["yaml-invalid", "home/repo/.claude/skills/broken/SKILL.md"],
      ["description-fallback", "home/repo/.claude/commands/deploy.md"],
      ["shadowed", "home/repo/.claude/skills/helper/SKILL.md"],
    ]);
    expect(report.ignored).toEqual([
      expect.objectContaining({ code: "ignored-file", path: tree.path("home/repo/.claude/skills/stray.md") }),
    ]);
    expect(report.ignored[0]?.message).toMatch(/stray\/SKILL\.md/);
  });

  it("human: roots marked present or missing, counts, diagnostics grouped under their file, ignored files", async () => {
    const result = await cli(tree, ["doctor"]);
    expect(result.code).toBe(0);
    const out = result.stdout;
    const lines = out.split("\n");
    expect(out).toContain(`project dir: ${tree.path("home/repo")} (git root)`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`✓ user +${escapeRegExp(tree.path("home/.claude/skills"))}  \\(1 loaded\\)`),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`· user commands +${escapeRegExp(tree.path("home/.claude/commands"))}  \\(missing\\)`),
      ),
    );
    expect(lines).toContain("  project  3");
    expect(lines).toContain("  bundled  1");
    expect(out).toContain("Diagnostics (3):");
    const broken = lines.indexOf(`  ${tree.path("home/repo/.claude/skills/broken/SKILL.md")}`);
    expect(broken).toBeGreaterThan(0);
    expect(lines[broken + 1]).toMatch(/^ {4}warning yaml-invalid: /);
    const ignoredAt = lines.findIndex((l) => l.startsWith("Ignored (1)"));
    expect(lines[ignoredAt + 1]).toBe(`  ${tree.path("home/repo/.claude/skills/stray.md")}`);
    expect(lines[ignoredAt + 2]).toMatch(/not a skill/);
  });

  it("reports a bad agent file a fork would run as, and --strict fails on it", async () => {
    const agents = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/agents/silent.md": "---\nname: silent\ntools: 3\n---\nYou review.\n",
    });
    try {
      const args = ["--cwd", agents.path("repo"), "--home", agents.path("home")];
      const report = json<DoctorReport>(await cli(tree, ["doctor", "--json", ...args], "."));
      expect(report.diagnostics).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            code: "agent-invalid",
            path: agents.path("repo/.claude/agents/silent.md"),
          }),
        ]),
      );
      expect((await cli(tree, ["doctor", "--strict", ...args], ".")).code).toBe(1);
    } finally {
      await agents.cleanup();
    }
  });

  it("with nothing wrong says so", async () => {
    const result = await cli(tree, ["doctor", "--cwd", "bundled", "--home", "nowhere"], ".");
    expect(result.stdout).toContain("Diagnostics: none");
    expect(result.stdout).not.toContain("Ignored");
  });
});

describe("groupByPath", () => {
  it("groups by path in first-seen order; pathless ones under (general)", () => {
    const groups = groupByPath([
      diagnostic("warning", "shadowed", "m1", "/b"),
      diagnostic("info", "field-unknown", "m2", "/a"),
      diagnostic("error", "yaml-invalid", "m3", "/b"),
      diagnostic("info", "root-missing", "m4"),
    ]);
    expect([...groups.entries()].map(([k, v]) => [k, v.map((d) => d.message)])).toEqual([
      ["/b", ["m1", "m3"]],
      ["/a", ["m2"]],
      ["(general)", ["m4"]],
    ]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
