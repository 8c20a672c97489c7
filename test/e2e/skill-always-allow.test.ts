/**
 * "Always allow" for skills (issue #42 item 4) on the shipped bin: the interactive permission question offers
 * `Skill(name)` and, for a plugin's skill, `Skill(plugin:*)`, saved to the settings file the person picks; a
 * `Skill(name)` rule never lifts a `skill-changed` hold.
 */
import { readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { permissionChoices, readPermissionReply } from "../../src/cli/always-allow.js";
import { suggestedRules } from "../../src/permissions/suggested-rule.js";
import { cli } from "../cli/run-cli.js";
import { type RequestBody, resultText, skillMd, toolResults } from "../support/harness.js";
import { runSteps } from "../support/interactive-steps.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  model = undefined;
  tree = undefined;
});

describe("always allow for skills (pure)", () => {
  it("offers Skill(name), and Skill(plugin:*) for a plugin's skill; reads the letter and the file", () => {
    expect(suggestedRules("Skill", { skill: "/deploy" })).toEqual(["Skill(deploy)"]);
    expect(suggestedRules("Skill", { skill: "plug:hello" })).toEqual(["Skill(plug:hello)", "Skill(plug:*)"]);
    expect(suggestedRules("Read", { file_path: "/x" })).toEqual([]);
    const offered = ["Skill(plug:hello)", "Skill(plug:*)"];
    expect(permissionChoices(offered)).toBe(
      "[y/N, a = always allow Skill(plug:hello), b = always allow Skill(plug:*); add p to save it to .claude/settings.json, u to ~/.claude/settings.json, else .claude/settings.local.json]",
    );
    expect(permissionChoices(["Bash(touch:*)"])).toBe("[y/N, a = always allow Bash(touch:*)]");
    expect(readPermissionReply("bu", offered)).toEqual({
      kind: "always",
      rule: "Skill(plug:*)",
      scope: "user",
    });
    expect(readPermissionReply("A", offered)).toEqual({
      kind: "always",
      rule: "Skill(plug:hello)",
      scope: "local",
    });
    expect(readPermissionReply("ap", offered)).toEqual({
      kind: "always",
      rule: "Skill(plug:hello)",
      scope: "project",
    });
    expect(readPermissionReply("c", offered)).toEqual({ kind: "no" });
    expect(readPermissionReply("yes", offered)).toEqual({ kind: "yes" });
  });
});

describe("always allow for skills", () => {
  it("interactive: saves Skill(plug:*) to the user's settings and Skill(deploy) to the local ones, as picked; no second question", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys\nallowed-tools: Read", "DEPLOY"),
      "plug/.claude-plugin/plugin.json": JSON.stringify({ name: "plug", version: "1.0.0" }),
      "plug/skills/hello/SKILL.md": skillMd("description: Says hello\nallowed-tools: Read", "HELLO-BODY"),
      "plug/skills/bye/SKILL.md": skillMd("description: Says bye\nallowed-tools: Read", "BYE-BODY"),
    });
    model = await startTestModel([
      toolTurn("Skill", { skill: "plug:hello" }, { match: { lastUserTextIncludes: "one" } }),
      textTurn("first-done", { toolResultIncludes: "Launching skill: plug:hello" }),
      toolTurn("Skill", { skill: "plug:bye" }, { match: { lastUserTextIncludes: "two" } }),
      textTurn("second-done", { toolResultIncludes: "Launching skill: plug:bye" }),
      toolTurn("Skill", { skill: "deploy" }, { match: { lastUserTextIncludes: "three" } }),
      textTurn("third-done", { toolResultIncludes: "Launching skill: deploy" }),
    ]);
    const run = await runSteps(
      tree,
      model.server.url,
      [
        { line: "one", until: "always allow Skill(plug:*)" },
        { line: "bu" },
        { line: "two" },
        { line: "three", until: "a = always allow Skill(deploy);" },
        { line: "a" },
      ],
      { pluginDirs: [tree.path("plug")] },
    );
    expect(run.stdout).toContain("third-done");
    expect(run.code).toBe(0);
    const user = tree.path("home/.claude/settings.json");
    expect(run.stdout).toContain(`Saved Skill(plug:*) to ${user}.`);
    expect(JSON.parse(await readFile(user, "utf8"))).toEqual({ permissions: { allow: ["Skill(plug:*)"] } });
    // plug:bye was covered by Skill(plug:*): asked once in all for the plugin.
    expect(run.stdout.split("always allow Skill(plug:*)")).toHaveLength(2);
    const local = tree.path("repo/.claude/settings.local.json");
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({ permissions: { allow: ["Skill(deploy)"] } });
  });

  it("dist/bin: a Skill(name) allow rule never lifts a skill-changed hold", async () => {
    const skill = "home/repo/.claude/skills/deploy/SKILL.md";
    tree = await tmpTree({
      "home/.keep": "",
      "home/repo/.git": { dir: true },
      [skill]: skillMd("description: Deploys\nallowed-tools: Read", "DEPLOY-BODY"),
      "home/repo/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill(deploy)"] } }),
    });
    expect((await cli(tree, ["approve", "deploy"])).code).toBe(0);
    await writeFile(
      tree.path(skill),
      skillMd("description: Deploys\nallowed-tools: Read, Bash", "DEPLOY-BODY"),
    );
    model = await startTestModel([toolTurn("Skill", { skill: "deploy" }), textTurn("done")]);
    const run = await cli(tree, ["-p", "deploy it"], "home/repo", {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.server.url,
    });
    expect(run.code).toBe(0);
    const bodies = model.server.requests
      .filter((r) => r.path === "/v1/messages")
      .map((r) => r.body as RequestBody);
    const [result] = toolResults(bodies[1] as RequestBody);
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toContain(
      "skill-changed: Skill deploy changed since it was approved",
    );
    expect(JSON.stringify(bodies[1])).not.toContain("DEPLOY-BODY");
  });
});
