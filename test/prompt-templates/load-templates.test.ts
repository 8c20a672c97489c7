import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPromptTemplates } from "../../src/prompt-templates/load-templates.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("loadPromptTemplates", () => {
  it("project wins over user; a clash with a skill is a template-shadowed warning and the skill wins", async () => {
    tree = await tmpTree({
      "home/.skillwright/prompts/a.md": "USER A",
      "home/.skillwright/prompts/b.md": "---\ndescription: User b\n---\nUSER B\n",
      "home/.skillwright/prompts/notes.txt": "not a template",
      "home/.skillwright/prompts/bad name.md": "x",
      "repo/.skillwright/prompts/a.md": "---\ndescription: Project a\n---\n\nPROJECT A $1\n",
      "repo/.skillwright/prompts/deploy.md": "DEPLOY",
    });
    const t = tree;
    const loaded = await loadPromptTemplates(
      createNodeFs(),
      { home: t.path("home"), projectDir: t.path("repo") },
      new Set(["deploy"]),
    );
    expect(loaded.templates).toEqual([
      {
        name: "a",
        description: "Project a",
        body: "PROJECT A $1",
        source: "project",
        filePath: t.path("repo/.skillwright/prompts/a.md"),
      },
      {
        name: "b",
        description: "User b",
        body: "USER B",
        source: "user",
        filePath: t.path("home/.skillwright/prompts/b.md"),
      },
    ]);
    // Found while scanning (the bad name), then while merging (the clash).
    expect(loaded.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["name-invalid", t.path("home/.skillwright/prompts/bad name.md")],
      ["template-shadowed", t.path("repo/.skillwright/prompts/deploy.md")],
    ]);
    expect(loaded.diagnostics.find((d) => d.code === "template-shadowed")?.message).toBe(
      'prompt template /deploy is shadowed by the skill "deploy": the skill wins',
    );
  });

  it("no folders: no templates, no diagnostics", async () => {
    tree = await tmpTree({ "home/.keep": "" });
    const loaded = await loadPromptTemplates(
      createNodeFs(),
      { home: tree.path("home"), projectDir: tree.path("x") },
      new Set(),
    );
    expect(loaded).toEqual({ templates: [], diagnostics: [] });
  });
});
