import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AgentType, BUILTIN_AGENTS } from "../../src/agent-types/agent-types.js";
import {
  agentDirs,
  discoverAgentTypes,
  withheldProjectModes,
} from "../../src/agent-types/discover-agents.js";
import type { SkillRoot } from "../../src/discovery/skill-roots.js";
import { createNodeFs } from "../../src/io/fs.js";
import { tmpTree } from "../support/tmp-tree.js";

const root = (
  dir: string,
  source: SkillRoot["source"],
  layout: SkillRoot["layout"] = "skills",
): SkillRoot => ({
  dir,
  source,
  layout,
  label: source,
});

describe("agentDirs: where custom agents live, in precedence order", () => {
  it("the user's ~/.claude/agents, then the agents dir beside each project .claude/skills root, nearest first", () => {
    const roots = [
      root("/m/.claude/skills", "managed"),
      root("/home/u/.claude/skills", "user"),
      root("/repo/pkg/.claude/skills", "project"),
      root("/repo/pkg/.claude/commands", "project", "commands"),
      root("/repo/.claude/skills", "project"),
      root("/extra/skills", "project"),
    ];
    expect(agentDirs("/home/u", roots)).toEqual([
      { dir: join("/home/u", ".claude", "agents"), source: "user" },
      { dir: join("/repo/pkg/.claude", "agents"), source: "project" },
      { dir: join("/repo/.claude", "agents"), source: "project" },
    ]);
  });
});

describe("discoverAgentTypes: built-in, user, project, plugin; the first of a name wins", () => {
  it("finds each source's agents in that order, and plugin agents after them", async () => {
    const tree = await tmpTree({
      "home/.claude/agents/reviewer.md": "---\nname: reviewer\ndescription: from user\n---\nU",
      "repo/.claude/skills/.keep": "",
      "repo/.claude/agents/reviewer.md": "---\nname: reviewer\ndescription: from project\n---\nP",
      "repo/.claude/agents/tester.md": "---\nname: tester\ndescription: from project\n---\nT",
    });
    const pluginAgent: AgentType = {
      ...(BUILTIN_AGENTS[0] as AgentType),
      name: "plugin-helper",
      source: "plugin",
    };
    const { agents, diagnostics } = await discoverAgentTypes({
      fs: createNodeFs(),
      home: tree.path("home"),
      roots: [root(tree.path("repo/.claude/skills"), "project")],
      plugins: [{ agents: [pluginAgent] }],
      projectGrantsApproved: true,
    });
    expect(agents.map((a) => [a.name, a.source])).toEqual([
      ...BUILTIN_AGENTS.map((a) => [a.name, "builtin"]),
      ["reviewer", "user"],
      ["tester", "project"],
      ["plugin-helper", "plugin"],
    ]);
    expect(agents.find((a) => a.name === "reviewer")?.description).toBe("from user");
    expect(diagnostics).toEqual([]);
    await tree.cleanup();
  });
});

describe("withheldProjectModes (pure)", () => {
  const agent = (source: AgentType["source"], permissionMode: AgentType["permissionMode"]): AgentType => ({
    ...(BUILTIN_AGENTS[0] as AgentType),
    name: `${source}-${permissionMode}`,
    source,
    ...(permissionMode === undefined ? {} : { permissionMode }),
    path: `/x/${source}.md`,
  });

  it("drops a project agent's granting mode until the project's grants are approved", () => {
    const agents = [
      agent("project", "bypassPermissions"),
      agent("project", "acceptEdits"),
      agent("project", "plan"),
      agent("user", "bypassPermissions"),
    ];
    const held = withheldProjectModes(agents, false);
    expect(held.agents.map((a) => a.permissionMode)).toEqual([
      undefined,
      undefined,
      "plan",
      "bypassPermissions",
    ]);
    expect(held.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["permissions-unapproved", "/x/project.md"],
      ["permissions-unapproved", "/x/project.md"],
    ]);
    expect(withheldProjectModes(agents, true).agents).toEqual(agents);
  });
});
