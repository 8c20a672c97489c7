import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cliTree } from "./cli-tree.js";
import { cli, json } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await cliTree();
});
afterAll(() => tree.cleanup());

describe("skillwright show", () => {
  it("prints the frontmatter as parsed and the body", async () => {
    const result = await cli(tree, ["show", "helper"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("# helper [user skill]");
    expect(result.stdout).toContain(`path: ${tree.path("home/.claude/skills/helper/SKILL.md")}`);
    expect(result.stdout).toContain('"allowed-tools": "Read, Grep"');
    expect(result.stdout).toContain("## Body\n# Helper\n\nDo the thing with $ARGUMENTS.\n");
  });

  it.each(["help-me", "/helper", "/help-me"])(
    "finds a skill by alias or with a leading slash: %s",
    async (name) => {
      const result = await cli(tree, ["show", name]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("# helper [user skill]");
    },
  );

  it("--json: skill, frontmatter, args and body", async () => {
    const result = await cli(tree, ["show", "deploy", "prod", "now", "--json"]);
    expect(result.code).toBe(0);
    const shown = json<{
      skill: { name: string; kind: string };
      frontmatter: unknown;
      args: string;
      body: string;
    }>(result);
    expect(shown).toMatchObject({
      skill: { name: "deploy", kind: "command" },
      frontmatter: { "argument-hint": "<env>" },
      args: "prod now",
      body: "Deploy to $1\n",
    });
  });

  it("the lenient parse is what is shown for bad YAML", async () => {
    const result = await cli(tree, ["show", "broken", "--json"]);
    expect(json<{ frontmatter: unknown }>(result).frontmatter).toEqual({ description: "Broken: yaml" });
  });

  it("names are case-sensitive; an unknown name exits 1 with a message", async () => {
    for (const name of ["nope", "Helper"]) {
      const result = await cli(tree, ["show", name]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`Unknown skill: ${name}`);
    }
  });

  it("a bundled skill shows its body", async () => {
    const result = await cli(tree, ["show", "bund"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Bundled body");
  });

  it("a skill's own name wins over another skill's alias", async () => {
    const t = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/aaa/SKILL.md": "---\nname: zzz\ndescription: aliased\n---\nA body\n",
      "home/repo/.claude/skills/zzz/SKILL.md": "---\ndescription: the real zzz\n---\nZ body\n",
    });
    try {
      const result = await cli(t, ["show", "zzz"]);
      expect(result.stdout).toContain("# zzz [project skill]");
      expect(result.stdout).toContain("Z body");
    } finally {
      await t.cleanup();
    }
  });
});
