import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runSteps } from "../support/interactive-steps.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  model = undefined;
  tree = undefined;
});

async function put(path: string, text: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

describe("/reload in interactive mode", () => {
  it("reloads skills, settings (skills.disabled, hooks) and reports what it found", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nGREET-BODY\n",
    });
    const t = tree;
    model = await startTestModel([
      textTurn("first", { lastUserTextIncludes: "one" }),
      textTurn("second", { lastUserTextIncludes: "two" }),
    ]);
    const result = await runSteps(t, model?.server.url ?? "", [
      { line: "one" },
      {
        before: async () => {
          await put(
            t.path("repo/.claude/skills/fresh/SKILL.md"),
            "---\ndescription: Fresh skill\n---\nFRESH\n",
          );
          await put(
            t.path("repo/.claude/settings.local.json"),
            JSON.stringify({
              skills: { disabled: ["greet"] },
              hooks: {
                UserPromptSubmit: [
                  {
                    hooks: [
                      {
                        type: "command",
                        command:
                          'cat >> "$CLAUDE_PROJECT_DIR/submit.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/submit.jsonl"',
                      },
                    ],
                  },
                ],
              },
            }),
          );
        },
        line: "/reload",
      },
      { line: "two" },
      { line: "/greet" },
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Reloaded: 1 skills (1 disabled), 0 plugins, 1 settings files.");
    const bodies = (model.server.requests.filter((r) => r.path === "/v1/messages") ?? []).map((r) =>
      JSON.stringify(r.body),
    );
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toContain("- greet: Greets people");
    // The turn after /reload announces the new skill (a listing delta) ...
    expect(bodies[1]).toContain("- fresh: Fresh skill");
    // ... runs the new settings hook (from the first prompt after /reload on) ...
    const submitted = (await readFile(t.path("repo/submit.jsonl"), "utf8"))
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
    expect(submitted).toEqual(["two", "/greet"]);
    // ... and the newly disabled skill cannot be typed.
    expect(result.stdout).toContain('Skill "greet" is disabled in this session');
  });

  it("/skills lists the session's skills and switches one off and on again (issue #27 item 8)", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nGREET-BODY\n",
      "repo/.claude/skills/audit/SKILL.md": "---\ndescription: Audits\navailable-to: [reviewer]\n---\nA\n",
    });
    model = await startTestModel([
      toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "one" } }),
      textTurn("first", { hasToolResultFor: "Skill" }),
      textTurn("second", { lastUserTextIncludes: "two" }),
    ]);
    const result = await runSteps(tree, model?.server.url ?? "", [
      { line: "/skills" },
      { line: "/skills off greet" },
      { line: "/skills off nothing-like-it" },
      { line: "one" },
      { line: "/skills on greet" },
      { line: "two" },
      { line: "/skills sideways" },
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  on   greet  [project]\n");
    expect(result.stdout).toContain("  on   audit  [project] (only for: reviewer)\n");
    expect(result.stdout).toContain("Off for this session: greet.\n");
    expect(result.stdout).toContain('No enabled skill matches "nothing-like-it".\n');
    expect(result.stdout).toContain("On again: greet.\n");
    expect(result.stdout).toContain(
      "Usage: /skills (list them), /skills off NAME|GLOB, /skills on NAME|GLOB\n",
    );
    const bodies = model.server.requests
      .filter((r) => r.path === "/v1/messages")
      .map((r) => JSON.stringify(r.body));
    expect(bodies).toHaveLength(3);
    // Switched off: not listed, and the model's call is refused naming the switch.
    expect(bodies[0]).not.toContain("- greet:");
    expect(bodies[1]).toContain('Skill \\"greet\\" is disabled in this session (by /skills off \\"greet\\")');
    // Switched on again: announced in the next turn's listing delta.
    expect(bodies[2]).toContain("- greet: Greets people");
  });

  it("a permission question's 'always' saves the exact rule to settings.local.json; no question again (issue #27 item 10)", async () => {
    tree = await tmpTree({ "home/.keep": "", "repo/.git": { dir: true } });
    const t = tree;
    model = await startTestModel([
      toolTurn("Bash", { command: "touch a.txt" }, { match: { lastUserTextIncludes: "one" } }),
      toolTurn("Bash", { command: "touch b.txt" }, { match: { toolResultIncludes: "" } }),
      textTurn("first", { hasToolResultFor: "Bash", lastUserTextIncludes: "one" }),
      toolTurn("Bash", { command: "touch c.txt" }, { match: { lastUserTextIncludes: "two" } }),
      textTurn("second", { hasToolResultFor: "Bash" }),
    ]);
    const result = await runSteps(t, model?.server.url ?? "", [
      { line: "one", until: "[y/N, a = always allow Bash(touch:*)] " },
      { line: "a" },
      { line: "two" },
    ]);
    expect(result.code).toBe(0);
    // One question in all: b.txt (same turn) and c.txt (next turn, from the saved rule) ran without one.
    expect(result.stdout.match(/\[y\/N/g)).toHaveLength(1);
    const file = t.path("repo/.claude/settings.local.json");
    expect(result.stdout).toContain(`Saved Bash(touch:*) to ${file}.`);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ permissions: { allow: ["Bash(touch:*)"] } });
    for (const name of ["a.txt", "b.txt", "c.txt"]) await access(t.path(`repo/${name}`));
  });
});
