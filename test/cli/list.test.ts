import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cliTree } from "./cli-tree.js";
import { cli, json } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await cliTree();
});
afterAll(() => tree.cleanup());

interface ListedSkill {
  name: string;
  alias?: string;
  source: string;
  kind: string;
  path: string;
  description: string;
  flags: string[];
  loadBody?: unknown;
}

const mine = (skills: ListedSkill[]) => skills.filter((s) => s.path.startsWith(tree.root));

describe("skillwright list", () => {
  it("--json: every skill in listing order with name, source, path, description and flags", async () => {
    const result = await cli(tree, ["list", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const skills = mine(json<ListedSkill[]>(result));
    expect(
      skills.map((s) => [
        s.name,
        s.source,
        s.kind,
        s.path.slice(tree.root.length + 1),
        s.description,
        s.flags,
      ]),
    ).toEqual([
      [
        "helper",
        "user",
        "skill",
        "home/.claude/skills/helper/SKILL.md",
        "Helps with things",
        ["fork:Explore", "allowed-tools"],
      ],
      ["broken", "project", "skill", "home/repo/.claude/skills/broken/SKILL.md", "Broken: yaml", []],
      [
        "proj",
        "project",
        "skill",
        "home/repo/.claude/skills/proj/SKILL.md",
        "Project skill",
        ["conditional", "user-only", "effort:high"],
      ],
      ["deploy", "project", "command", "home/repo/.claude/commands/deploy.md", "Deploy to $1", ["command"]],
      ["bund", "bundled", "skill", "bundled/bund/SKILL.md", "Bundled skill", ["model-only"]],
    ]);
    expect(skills[0]?.alias).toBe("help-me");
    expect(skills.every((s) => s.loadBody === undefined)).toBe(true);
  });

  it("human: display name with alias, source, flags, description and path per skill", async () => {
    const result = await cli(tree, ["list"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    const at = lines.indexOf("helper (help-me)  [user]  {fork:Explore, allowed-tools}");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe("    Helps with things");
    expect(lines[at + 2]).toBe(`    ${tree.path("home/.claude/skills/helper/SKILL.md")}`);
    expect(lines).toContain("deploy  [project]  {command}");
    expect(lines).toContain("broken  [project]");
    const order = ["helper (help-me)", "broken", "proj", "deploy", "bund"].map((n) =>
      lines.findIndex((l) => l.startsWith(`${n}  [`)),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(result.stdout).toMatch(/\n\d+ skills\n$/);
  });

  it("long descriptions are cut to one line in human output", async () => {
    const t = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/long/SKILL.md": `---\ndescription: ${"word ".repeat(100)}\n---\n`,
    });
    try {
      const line = (await cli(t, ["list"])).stdout.split("\n").find((l) => l.startsWith("    word"));
      expect(line?.length).toBe(4 + 80);
      expect(line?.endsWith("…")).toBe(true);
    } finally {
      await t.cleanup();
    }
  });

  it("--cwd and --home pick another project and home", async () => {
    const result = await cli(
      tree,
      ["list", "--json", "--cwd", tree.path("home/repo"), "--home", tree.path("home")],
      ".",
    );
    expect(mine(json<ListedSkill[]>(result)).map((s) => s.name)).toEqual([
      "helper",
      "broken",
      "proj",
      "deploy",
      "bund",
    ]);
    const elsewhere = await cli(tree, ["list", "--json", "--cwd", "bundled", "--home", "nowhere"], ".");
    expect(mine(json<ListedSkill[]>(elsewhere)).map((s) => s.name)).toEqual(["bund"]);
  });

  it("--add-dir adds a project root (relative to the cwd)", async () => {
    const result = await cli(tree, ["list", "--json", "--add-dir", "../.."], "home/repo");
    expect(result.code).toBe(0);
    expect(mine(json<ListedSkill[]>(result)).map((s) => s.name)).toEqual([
      "helper",
      "broken",
      "proj",
      "deploy",
      "bund",
    ]);
  });

  it("an empty project says where to look", async () => {
    const empty = await tmpTree({ "home/repo/.git": { dir: true } });
    try {
      const result = await cli(empty, ["list"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("skillwright doctor");
    } finally {
      await empty.cleanup();
    }
  });
});

describe("argument handling of the offline commands", () => {
  it("--help lists the offline commands, exit 0", async () => {
    const result = await cli(tree, ["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["list", "doctor", "show", "validate"]) expect(result.stdout).toContain(command);
  });

  it.each([[["show"]], [["validate"]], [["list", "--no-such-flag"]]])(
    "%j → exit 2 with a message",
    async (argv) => {
      const result = await cli(tree, argv);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toBe("");
      expect(result.stdout).toBe("");
    },
  );
});
