import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestBody } from "../support/harness.js";
import {
  type Harness,
  lastUser,
  PLUGINS_DIR,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const REPO_NOTES = join(PLUGINS_DIR, "repo-notes");

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

describe("plugins in a session (SPEC §11)", () => {
  it("repo-notes:remember is listed and invocable; a bare `remember` points at the full name", async () => {
    e = await startHarness({
      engine: { pluginDirs: [REPO_NOTES] },
      // Plugin MCP servers start only when approved (issue 16.1).
      files: { "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["notes"] }) },
      turns: [
        toolTurn("Skill", { skill: "remember" }, { id: "toolu_bare" }),
        toolTurn(
          "Skill",
          { skill: "repo-notes:remember", args: "tests run with vitest" },
          { id: "toolu_full" },
        ),
        textTurn("noted"),
      ],
    });
    await e.send("remember that tests run with vitest");
    const listing = textBlocks(lastUser(e.body(0)).content)[0] ?? "";
    expect(listing).toContain("\n- repo-notes:remember: Saves durable facts about this repository");
    expect(listing).toContain("\n- repo-notes:map-repo: Maps an unfamiliar repository");
    const [bare] = toolResults(e.body(1));
    expect(bare?.is_error).toBe(true);
    expect(bare && resultText(bare)).toBe(
      "<tool_use_error>Unknown skill: remember. Did you mean repo-notes:remember? Invoke it by that full name.</tool_use_error>",
    );
    const [full] = toolResults(e.body(2));
    expect(full && resultText(full)).toBe("Launching skill: repo-notes:remember");
    const expansion = textBlocks(lastUser(e.body(2)).content).join("\n");
    expect(expansion).toContain(`Base directory for this skill: ${join(REPO_NOTES, "skills", "remember")}`);
    expect(expansion).toContain("Request: tests run with vitest");
    // The plugin's MCP server's tools are offered too.
    expect(e.body(0).tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(["mcp__notes__add_note", "mcp__notes__search_notes"]),
    );
  });

  it("repo-notes:map-repo forks with agent repo-notes:cartographer (its system prompt, read-only tools)", async () => {
    e = await startHarness({
      engine: { pluginDirs: [REPO_NOTES] },
      turns: [
        toolTurn("Skill", { skill: "repo-notes:map-repo", args: "the build" }, { match: { agentId: null } }),
        textTurn("MAP: src/ holds the code.", { agentId: "*" }),
        textTurn("Here is the map.", { agentId: null }),
      ],
      session: { allowedTools: ["Skill(repo-notes:map-repo)"] },
    });
    await e.send("map this repo");
    const [fork] = e.forkRequests();
    const body = fork?.body as RequestBody;
    const system = JSON.stringify(body.system);
    expect(system).toContain("You map code repositories for another agent that has to work in them next.");
    expect((body.tools ?? []).map((t) => t.name).sort()).toEqual(["Glob", "Grep", "LS", "Read"]);
    const task = textBlocks(body.messages[0]?.content ?? "").join("\n");
    expect(task).toContain(`Base directory for this skill: ${join(REPO_NOTES, "skills", "map-repo")}\n\n`);
    expect(task).toContain("Map the repository in the current working directory");
    expect(task).toContain("Focus (may be empty, in which case map the whole repository evenly): the build");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBeFalsy();
    expect(result && resultText(result)).toBe(
      'Skill "repo-notes:map-repo" completed (forked execution).\n\nResult:\nMAP: src/ holds the code.',
    );
  });

  it("CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA placeholders are substituted in a plugin skill body", async () => {
    const body = [
      "Root: $",
      "{CLAUDE_PLUGIN_ROOT}\nData: $",
      "{CLAUDE_PLUGIN_DATA}\nDir: $",
      "{CLAUDE_SKILL_DIR}",
    ];
    e = await startHarness({
      files: {
        "plugins/demo/.claude-plugin/plugin.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
        "plugins/demo/skills/where/SKILL.md": skillMd("description: Says where it lives", body.join("")),
      },
      engine: { pluginDirs: ["{tree}/plugins/demo"] },
      turns: [toolTurn("Skill", { skill: "demo:where" }), textTurn("ok")],
    });
    await e.send("where is the plugin?");
    const [result] = toolResults(e.body(1));
    expect(result && resultText(result)).toBe("Launching skill: demo:where");
    const root = e.tree.path("plugins/demo");
    // Claude Code's layout: `{name}-{marketplace}`, and a --plugin-dir plugin's marketplace is `inline`.
    const data = join(e.home, ".skillwright", "plugins", "data", "demo-inline");
    const dir = join(root, "skills", "where");
    expect(textBlocks(lastUser(e.body(1)).content)).toContain(
      `Base directory for this skill: ${dir}\n\nRoot: ${root}\nData: ${data}\nDir: ${dir}`,
    );
    // The data dir is created on first use.
    expect((await stat(data)).isDirectory()).toBe(true);
  });

  it("a plugin hook's command sees CLAUDE_PLUGIN_DATA as {data root}/plugins/data/{plugin}-inline", async () => {
    const command = 'echo "DATA=$' + "{CLAUDE_PLUGIN_DATA} ROOT=$" + '{CLAUDE_PLUGIN_ROOT}"';
    e = await startHarness({
      files: {
        "plugins/demo/.claude-plugin/plugin.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
        "plugins/demo/hooks/hooks.json": JSON.stringify({
          hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command }] }] },
        }),
      },
      engine: { pluginDirs: ["{tree}/plugins/demo"] },
      turns: [textTurn("ok")],
    });
    await e.send("hello");
    const data = join(e.home, ".skillwright", "plugins", "data", "demo-inline");
    const root = e.tree.path("plugins/demo");
    expect(textBlocks(lastUser(e.body(0)).content).join("\n")).toContain(`DATA=${data} ROOT=${root}`);
  });
});
