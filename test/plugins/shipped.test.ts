import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pluginValidateCommand } from "../../src/cli/commands/plugin-validate.js";
import type { CliIo } from "../../src/cli/io.js";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { checkForkAgents, type ValidationReport } from "../../src/plugins/validate-plugin.js";

const PLUGINS = join(import.meta.dirname, "..", "..", "plugins");
const SHIPPED = ["git-guard", "repo-notes"];
const DATA = "/nonexistent/data";
const fs = createNodeFs();

function captureIo(): CliIo & { out: () => string } {
  let out = "";
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      out += text;
    },
    env: {},
    cwd: PLUGINS,
    home: "/nonexistent/home",
    bundledDir: "/nonexistent/bundled",
    out: () => out,
  };
}

describe("shipped example plugins", () => {
  it.each(SHIPPED)("%s passes `plugin validate` with no error and no warning", async (name) => {
    const io = captureIo();
    expect(await pluginValidateCommand(fs, io, name, true)).toBe(0);
    const report = JSON.parse(io.out()) as ValidationReport;
    expect(report.ok).toBe(true);
    expect(report.plugins[0]?.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    const human = captureIo();
    expect(await pluginValidateCommand(fs, human, join(PLUGINS, name), false)).toBe(0);
    expect(human.out()).toMatch(new RegExp(`^✓ ${name} 1\\.0\\.0 at .*: 0 error\\(s\\), 0 warning\\(s\\)`));
    expect(human.out().trim().split("\n").at(-1)).toBe("valid (1 plugin)");
  });

  it("git-guard: a namespaced skill and command, and a Bash PreToolUse hook rooted in the plugin", async () => {
    const root = join(PLUGINS, "git-guard");
    const { plugin } = await loadPlugin({ fs, root, dataRoot: DATA });
    expect(plugin?.skills.map((s) => [s.name, s.kind])).toEqual([
      ["git-guard:commit", "skill"],
      ["git-guard:preflight", "command"],
    ]);
    const commit = plugin?.skills[0];
    expect(commit?.allowedTools).toContain("Bash(git commit:*)");
    expect(await commit?.loadBody()).toContain("!`git status --short --branch`");
    expect(plugin?.hooks).toEqual({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `node "${root}/scripts/guard-bash.mjs"`, timeout: 10 }],
        },
      ],
    });
    expect(plugin?.mcpServers).toEqual({});
  });

  it("repo-notes: skills, a forked skill on the plugin's own agent, and an inline MCP server", async () => {
    const root = join(PLUGINS, "repo-notes");
    const { plugin } = await loadPlugin({ fs, root, dataRoot: DATA });
    if (plugin === undefined) throw new Error("repo-notes did not load");
    expect(plugin.skills.map((s) => s.name)).toEqual(["repo-notes:map-repo", "repo-notes:remember"]);
    expect(plugin.skills[0]).toMatchObject({ context: "fork", agent: "repo-notes:cartographer" });
    expect(plugin.agents).toEqual([
      expect.objectContaining({
        name: "repo-notes:cartographer",
        source: "plugin",
        tools: ["Read", "Grep", "Glob", "LS"],
      }),
    ]);
    expect(checkForkAgents(plugin)).toEqual([]);
    expect(plugin.mcpServers).toEqual({
      notes: {
        command: "node",
        args: [`${root}/server/notes-server.mjs`],
        env: { REPO_NOTES_DIR: `${DATA}/repo-notes-inline` },
      },
    });
  });
});
