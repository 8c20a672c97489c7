import { afterEach, describe, expect, it } from "vitest";
import { pluginValidateCommand } from "../../src/cli/commands/plugin-validate.js";
import type { CliIo } from "../../src/cli/io.js";
import { createNodeFs } from "../../src/io/fs.js";
import { checkForkAgents, type ValidationReport } from "../../src/plugins/validate-plugin.js";
import { makeSkill } from "../support/make-skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const fs = createNodeFs();
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

function captureIo(cwd: string): CliIo & { out: () => string } {
  let out = "";
  const write = (text: string) => {
    out += text;
  };
  return {
    stdout: write,
    stderr: write,
    env: {},
    cwd,
    home: `${cwd}/home`,
    bundledDir: "/x",
    out: () => out,
  };
}

const json = (value: unknown) => JSON.stringify(value);

describe("pluginValidateCommand", () => {
  it("exits 1 on a plugin with errors, naming each problem", async () => {
    tree = await tmpTree({
      "bad/.claude-plugin/plugin.json": json({
        name: "bad",
        skills: "../elsewhere",
        mcpServers: { remote: { url: "https://x" }, local: { command: "node", args: [1] } },
      }),
      "bad/skills/ok/SKILL.md": "---\ndescription: fine\n---\n",
      "bad/hooks/hooks.json": json({ hooks: { PreToolUse: [{ hooks: [{ type: "command" }] }] } }),
    });
    const io = captureIo(tree.root);
    expect(await pluginValidateCommand(fs, io, "bad", false)).toBe(1);
    const out = io.out();
    expect(out).toMatch(/^✗ bad at .*: 4 error\(s\), 0 warning\(s\)/);
    expect(out).toContain("skills:   bad:ok");
    expect(out).toContain("mcp:      remote (invalid), local (stdio)");
    expect(out).toContain('error   plugin-invalid: skills: "../elsewhere" leads outside the plugin root');
    expect(out).toContain("error   hooks-invalid:");
    expect(out).toContain('MCP server "remote"');
    expect(out).toContain("(hooks/hooks.json)");
    expect(out.trim().split("\n").at(-1)).toBe("validation failed (1 plugin with errors)");

    const jsonIo = captureIo(tree.root);
    expect(await pluginValidateCommand(fs, jsonIo, tree.path("bad"), true)).toBe(1);
    const report = JSON.parse(jsonIo.out()) as ValidationReport;
    expect(report.ok).toBe(false);
    expect(report.plugins[0]?.name).toBe("bad");
    expect(report.plugins[0]?.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([
      "plugin-invalid",
      "hooks-invalid",
      "plugin-invalid",
      "plugin-invalid",
    ]);
  });

  it("exits 1 when the dir is not a plugin at all", async () => {
    tree = await tmpTree({ "x/.claude-plugin/plugin.json": json({ version: "1.0.0" }) });
    const io = captureIo(tree.root);
    expect(await pluginValidateCommand(fs, io, "x", false)).toBe(1);
    expect(io.out()).toContain("✗ (not loaded)");
    expect(await pluginValidateCommand(fs, captureIo(tree.root), "missing", false)).toBe(1);
  });

  it("validates every local plugin of a marketplace dir", async () => {
    tree = await tmpTree({
      "m/.claude-plugin/marketplace.json": json({
        name: "m",
        plugins: [
          { name: "good", source: "./good" },
          { name: "far", source: { source: "github", repo: "x/far" } },
          { name: "gone", source: "./gone" },
        ],
      }),
      "m/good/skills/s/SKILL.md": "---\ndescription: s\n---\n",
    });
    const io = captureIo(tree.root);
    expect(await pluginValidateCommand(fs, io, "m", false)).toBe(1);
    const out = io.out();
    expect(out).toContain("marketplace m at ");
    expect(out).toContain("far: remote source (github) not checked");
    expect(out).toMatch(/✓ good at .*: 0 error/);
    expect(out).toMatch(/✗ \(not loaded\) at .*gone: 1 error/);
  });
});

describe("checkForkAgents", () => {
  const fork = (agent: string) =>
    makeSkill({ name: "p:s", context: "fork", agent, filePath: "/p/skills/s/SKILL.md" });
  it.each([
    ["a built-in agent", "Explore", []],
    ["the plugin's agent by full name", "p:scout", []],
    ["the plugin's agent by bare name", "scout", ["write agent: p:scout"]],
    ["an unknown agent", "ghost", ["not a built-in agent"]],
  ])("%s", (_label, agent, messages) => {
    const diagnostics = checkForkAgents({
      name: "p",
      skills: [fork(agent), makeSkill({ name: "p:inline", agent: "ghost" })],
      agents: [{ name: "p:scout", description: "", readOnly: true, systemPrompt: "", source: "plugin" }],
    });
    expect(diagnostics.map((d) => d.severity)).toEqual(messages.map(() => "warning"));
    diagnostics.forEach((d, i) => {
      expect(d.message).toContain(messages[i]);
    });
  });
});
