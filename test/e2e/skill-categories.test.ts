/**
 * Skill folders in categories (issue #42 item 5) on the shipped bin: `skills/<category>/<name>/SKILL.md` is found
 * under `.agents/skills` always (as Codex) and under `.claude/skills` only with `skills.categories: true` (Claude
 * Code reads none); the category is a folder only, and two categories holding one name are a clash.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cli, cliWithModel, json } from "../cli/run-cli.js";
import { skillMd, textBlocks } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree, under } from "../support/tmp-tree.js";

const project = {
  ".git": { dir: true },
  ".agents/skills/ops/deploy/SKILL.md": skillMd("description: Deploys from the ops category", "OPS-DEPLOY"),
  ".agents/skills/web/deploy/SKILL.md": skillMd("description: Deploys from the web category", "WEB-DEPLOY"),
  ".agents/skills/web/lint-css/SKILL.md": skillMd("description: Lints stylesheets", "LINT-CSS"),
  ".agents/skills/flat/SKILL.md": skillMd("description: A skill not in a category", "FLAT"),
  ".claude/skills/tools/fmt/SKILL.md": skillMd("description: Formats code", "FMT"),
  ".claude/skills/plain/SKILL.md": skillMd("description: A plain Claude Code skill", "PLAIN"),
} as const;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    ...under("home/repo", project),
    ...under("home/on", project),
    "home/on/.claude/settings.json": JSON.stringify({ skills: { categories: true } }),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

interface Listed {
  name: string;
  path: string;
}
interface Doctor {
  diagnostics: { code: string; path?: string; message: string }[];
  ignored: { code: string; path?: string; message: string }[];
}

describe("skill folders in categories on dist/bin", () => {
  it(".agents/skills categories are found by their own names; a name in two categories is a clash", async () => {
    const listed = json<Listed[]>(await cli(tree, ["list", "--json"]));
    const names = listed.flatMap((s) => ("path" in s && typeof s.path === "string" ? [s.name] : []));
    expect(names).toEqual(expect.arrayContaining(["deploy", "lint-css", "flat", "plain"]));
    expect(names).not.toContain("fmt");
    expect(names).not.toContain("web");
    expect(listed.find((s) => s.name === "deploy")?.path).toBe(
      tree.path("home/repo/.agents/skills/ops/deploy/SKILL.md"),
    );
    const doctor = json<Doctor>(await cli(tree, ["doctor", "--json"]));
    const shadowed = doctor.diagnostics.filter((d) => d.code === "shadowed");
    expect(shadowed.map((d) => d.message).join("\n")).toContain(
      tree.path("home/repo/.agents/skills/web/deploy/SKILL.md"),
    );
    // The .claude/skills category is not read, and doctor says how to have it read.
    const fmt = tree.path("home/repo/.claude/skills/tools/fmt/SKILL.md");
    const ignored = doctor.ignored.find((d) => d.path === fmt);
    expect(ignored?.code).toBe("ignored-file");
    expect(ignored?.message).toContain('"skills": { "categories": true }');
    expect(doctor.diagnostics.some((d) => d.code === "category-folder")).toBe(false);
  });

  it("skills.categories: true reads .claude/skills categories; doctor says the skill is found only with it", async () => {
    const listed = json<Listed[]>(await cli(tree, ["list", "--json"], "home/on"));
    expect(listed.find((s) => s.name === "fmt")?.path).toBe(
      tree.path("home/on/.claude/skills/tools/fmt/SKILL.md"),
    );
    const text = await cli(tree, ["doctor"], "home/on");
    expect(text.stdout).toContain(tree.path("home/on/.claude/skills/tools"));
    expect(text.stdout).toMatch(
      /category-folder: a category folder: its skills \(fmt\) are found only because/,
    );
  });

  it("a category skill is listed to the model by its own name", async () => {
    model = await startTestModel([textTurn("ok")]);
    const { result, bodies } = await cliWithModel(tree, model, ["-p", "hi"]);
    expect(result.stdout.trim()).toBe("ok");
    const [first] = bodies;
    const listing = textBlocks(first?.messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("\n- lint-css: Lints stylesheets");
    expect(listing).toContain("\n- deploy: Deploys from the ops category");
    expect(listing).not.toContain("fmt");
  });
});
