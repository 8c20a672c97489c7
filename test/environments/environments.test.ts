import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/engine.js";
import { listEnvironments } from "../../src/environments/environments.js";
import { UnknownEnvironmentError } from "../../src/environments/unknown-environment-error.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await tree?.cleanup();
  engine = undefined;
  tree = undefined;
});

const ENVS = "home/.skillwright/environments";

/** A home with two environments (`writing`, `ops`), a user skill and a project. */
async function setUp(environment?: string): Promise<{ t: TmpTree; e: Engine }> {
  tree = await tmpTree({
    "repo/.git": { dir: true },
    "repo/.claude/skills/lint-docs/SKILL.md": "---\ndescription: Project lint\n---\nPROJECT\n",
    "home/.claude/skills/release-notes/SKILL.md": "---\ndescription: User release notes\n---\nUSER\n",
    [`${ENVS}/writing/skills/release-notes/skill.md`]:
      "---\nname: Release Notes\ndescription: Writes release notes\n---\nENV-BODY\n",
    [`${ENVS}/writing/skills/style-guide/SKILL.md`]: "---\ndescription: House style\n---\nSTYLE\n",
    [`${ENVS}/writing/skills/hidden/SKILL.md`]:
      "---\ndescription: Not for the model\ndisable-model-invocation: true\n---\nH\n",
    [`${ENVS}/writing/settings.json`]: JSON.stringify({ skills: { disabled: ["lint-docs"] } }),
    [`${ENVS}/ops/skills/deploy/skill.md`]: "---\nname: Deploy It\ndescription: Deploys\n---\nDEPLOY\n",
    [`${ENVS}/.hidden/skills/x/SKILL.md`]: "---\ndescription: x\n---\n",
  });
  const t = tree;
  engine = createEngine({
    cwd: t.path("repo"),
    home: t.path("home"),
    env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
    ...(environment === undefined ? {} : { environment }),
  });
  return { t, e: engine };
}

describe("named environments (SPEC §17)", () => {
  it("lists the environment folders, sorted, hidden ones left out", async () => {
    const { t } = await setUp();
    expect(await listEnvironments(createNodeFs(), t.path("home"))).toEqual(["ops", "writing"]);
  });

  it("loads skill.md and SKILL.md, keeps a title name for display, and beats the user's skill of the same id", async () => {
    const { t, e } = await setUp("writing");
    const discovery = await e.discover();
    const notes = discovery.skills.find((s) => s.name === "release-notes");
    expect(notes?.title).toBe("Release Notes");
    expect(notes?.alias).toBeUndefined();
    expect(notes?.filePath).toBe(t.path(`${ENVS}/writing/skills/release-notes/skill.md`));
    expect(await notes?.loadBody()).toBe("ENV-BODY\n");
    // A title is not an invalid alias there; the user skill of the same id is shadowed by the environment's.
    expect(discovery.diagnostics.map((d) => d.code)).not.toContain("alias-invalid");
    expect(discovery.diagnostics.find((d) => d.code === "shadowed")?.path).toBe(
      t.path("home/.claude/skills/release-notes/SKILL.md"),
    );
    expect(discovery.roots.find((r) => r.label === "environment writing")?.count).toBe(3);
    // The environment's settings.json is a settings layer: it disables the project's skill.
    expect(discovery.disabled?.map((d) => d.skill.name)).toEqual(["lint-docs"]);
  });

  it("answers listSkills, getSkill and getSkillsInfoForToolDescription as SPEC §17 names them", async () => {
    const { t, e } = await setUp("writing");
    expect(await e.listSkills()).toEqual([
      {
        id: "hidden",
        name: "hidden",
        description: "Not for the model",
        path: t.path(`${ENVS}/writing/skills/hidden/SKILL.md`),
        source: "user",
      },
      {
        id: "release-notes",
        name: "Release Notes",
        description: "Writes release notes",
        path: t.path(`${ENVS}/writing/skills/release-notes/skill.md`),
        source: "user",
      },
      {
        id: "style-guide",
        name: "style-guide",
        description: "House style",
        path: t.path(`${ENVS}/writing/skills/style-guide/SKILL.md`),
        source: "user",
      },
    ]);
    expect((await e.getSkill("release-notes"))?.name).toBe("Release Notes");
    expect(await e.getSkill("Release Notes")).toBeUndefined();
    expect(await e.getSkill("nope")).toBeUndefined();
    expect(await e.getSkillsInfoForToolDescription()).toBe(
      "- release-notes (Release Notes): Writes release notes\n- style-guide: House style",
    );
  });

  it("outside an environment a title-like name is still an invalid alias (SPEC §1) and skill.md is ignored", async () => {
    tree = await tmpTree({
      "repo/.git": { dir: true },
      "repo/.claude/skills/a/SKILL.md": "---\nname: Title Case\ndescription: A\n---\n",
      "repo/.claude/skills/b/skill.md": "---\ndescription: B\n---\n",
      "home/.keep": "",
    });
    engine = createEngine({
      cwd: tree.path("repo"),
      home: tree.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
    });
    const discovery = await engine.discover();
    expect(discovery.skills.map((s) => [s.name, s.title])).toEqual([["a", undefined]]);
    expect(discovery.diagnostics.map((d) => d.code)).toContain("alias-invalid");
  });

  it("switches environments: the skills and settings follow, the current one is kept on an unknown name", async () => {
    const { e } = await setUp("writing");
    expect((await e.discover()).skills.map((s) => s.name)).toContain("style-guide");
    const switched = await e.switchEnvironment("ops");
    expect(e.currentEnvironment()).toBe("ops");
    expect(switched.skills.map((s) => [s.name, s.title ?? "", s.source])).toEqual([
      ["deploy", "Deploy It", "user"],
      ["release-notes", "", "user"],
      ["lint-docs", "", "project"],
    ]);
    const error = await e.switchEnvironment("../writing").catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UnknownEnvironmentError);
    expect(error).toMatchObject({ code: "unknown-environment", available: ["ops", "writing"] });
    expect(e.currentEnvironment()).toBe("ops");
    expect((await e.switchEnvironment(undefined)).skills.map((s) => s.name)).toEqual([
      "release-notes",
      "lint-docs",
    ]);
  });

  it("rejects discovery with a typed error naming the environments that exist", async () => {
    const { e } = await setUp("nope");
    const error = await e.discover().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UnknownEnvironmentError);
    expect(String(error)).toContain("ops, writing");
  });
});
