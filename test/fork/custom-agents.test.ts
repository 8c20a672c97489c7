/**
 * Custom agents (`.claude/agents/*.md`) with Claude Code's `skills`, `disallowedTools`, `permissionMode` and
 * `hooks` fields: a forked skill runs as the agent against the scripted model server, and the fork's recorded
 * requests show what it got.
 */
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/agent-types/parse-agent-file.js";
import type { RecordedRequest } from "../../src/dev/model-server.js";
import { createNodeFs } from "../../src/io/fs.js";
import { loadPluginAgents } from "../../src/plugins/load-agents.js";
import { type BodyBlock, type Harness, resultText, skillMd, startHarness } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { tmpTree } from "../support/tmp-tree.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

interface ForkBody {
  tools?: { name: string }[];
  messages: { role: string; content: string | BodyBlock[] }[];
}

const body = (r: RecordedRequest | undefined) => r?.body as ForkBody;
const toolNames = (r: RecordedRequest | undefined) => (body(r).tools ?? []).map((t) => t.name);
const firstTexts = (r: RecordedRequest | undefined) => {
  const content = body(r).messages[0]?.content ?? [];
  return typeof content === "string" ? [content] : content.map((b) => b.text ?? "");
};
/** The tool_result texts of the newest user message of a request. */
const lastResults = (r: RecordedRequest | undefined) => {
  const content = body(r).messages.at(-1)?.content ?? [];
  return typeof content === "string"
    ? []
    : content.filter((b) => b.type === "tool_result").map((b) => resultText(b));
};

function agentFile(frontmatter: string, prompt = "You are a careful reviewer."): string {
  return `---\n${frontmatter.trim()}\n---\n${prompt}\n`;
}

const reviewSkill = skillMd(
  "description: Review with the reviewer\ncontext: fork\nagent: reviewer",
  "REVIEW-TASK",
);
// biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
const styleSkill = skillMd("description: The house style", "STYLE-GUIDE-BODY from ${CLAUDE_SKILL_DIR}");

const launch = toolTurn("Skill", { skill: "review" }, { id: "toolu_review", match: { agentId: null } });
const forkTurn = (name: string, input: Record<string, unknown>) =>
  toolTurn(name, input, { match: { agentId: "*" } });
const forkDone = textTurn("Reviewed.", { agentId: "*" });
const mainDone = textTurn("Done.", { agentId: null });
/** The user's approval of the project's grants (a project agent's granting permissionMode among them). */
const APPROVED = JSON.stringify({ enableProjectPermissions: true });

describe("agent files: the new fields", () => {
  it("parse skills, disallowedTools, permissionMode and hooks (Stop becomes SubagentStop)", () => {
    const parsed = parseAgentFile(
      agentFile(
        [
          "name: reviewer",
          "description: Reviews",
          "skills: [style, lint]",
          "disallowedTools: Bash, Write",
          "permissionMode: acceptEdits",
          "hooks:",
          "  Stop:",
          "    - hooks:",
          "        - type: command",
          "          command: echo done",
        ].join("\n"),
      ),
      "/a/reviewer.md",
      "project",
    );
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.agent).toMatchObject({
      skills: ["style", "lint"],
      disallowedTools: ["Bash", "Write"],
      permissionMode: "acceptEdits",
      hooks: { SubagentStop: [{ hooks: [{ type: "command", command: "echo done" }] }] },
    });
  });

  it("a plugin's agents keep skills and disallowedTools but not hooks or permissionMode (as in Claude Code)", async () => {
    const tree = await tmpTree({
      "agents/helper.md": agentFile(
        [
          "description: Helps",
          "skills: style",
          "disallowedTools: Bash",
          "permissionMode: bypassPermissions",
          "hooks:",
          "  PreToolUse:",
          "    - hooks:",
          "        - type: command",
          "          command: echo hi",
        ].join("\n"),
      ),
    });
    try {
      const loaded = await loadPluginAgents({
        fs: createNodeFs(),
        pluginName: "plug",
        targets: [{ path: tree.path("agents"), required: false }],
        realRoot: await realpath(tree.root),
      });
      const [agent] = loaded.agents;
      expect(agent).toMatchObject({ name: "plug:helper", skills: ["style"], disallowedTools: ["Bash"] });
      expect(agent?.permissionMode).toBeUndefined();
      expect(agent?.hooks).toBeUndefined();
      expect(loaded.diagnostics.map((d) => [d.severity, d.message])).toEqual([
        ["info", "hooks: not supported for plugin agents; ignored"],
        ["info", "permissionMode: not supported for plugin agents; ignored"],
      ]);
    } finally {
      await tree.cleanup();
    }
  });

  it("an unknown permissionMode is a warning and ignored", () => {
    const parsed = parseAgentFile(agentFile("description: x\npermissionMode: yolo"), "/a/x.md", "project");
    expect(parsed.agent?.permissionMode).toBeUndefined();
    expect(parsed.diagnostics.map((d) => d.message).join()).toContain('unknown mode "yolo"');
  });
});

describe("a forked skill running as a custom agent", () => {
  it("skills: the preloaded skill's expansion is in the fork's first message, before the task", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/skills/style/SKILL.md": styleSkill,
        "project/.claude/agents/reviewer.md": agentFile(
          "name: reviewer\ndescription: Reviews\nskills: style",
        ),
      },
      turns: [launch, forkDone, mainDone],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("review it");
    const [fork] = e.forkRequests();
    const texts = firstTexts(fork);
    const style = texts.findIndex((t) => t.includes("STYLE-GUIDE-BODY"));
    const task = texts.findIndex((t) => t.includes("REVIEW-TASK"));
    expect(style).toBeGreaterThanOrEqual(0);
    expect(task).toBeGreaterThan(style);
    expect(texts[style]).toBe(
      `Base directory for this skill: ${join(e.cwd, ".claude/skills/style")}\n\nSTYLE-GUIDE-BODY from ${join(e.cwd, ".claude/skills/style")}`,
    );
    // The main agent never got the preloaded body.
    expect(JSON.stringify(e.bodies())).not.toContain("STYLE-GUIDE-BODY");
  });

  it("disallowedTools removes tools from the fork; permissionMode acceptEdits lets it edit without asking", async () => {
    e = await startHarness({
      files: {
        "project/notes.txt": "old text\n",
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/agents/reviewer.md": agentFile(
          "name: reviewer\ndescription: Reviews\ndisallowedTools: Bash, Write\npermissionMode: acceptEdits",
        ),
        "project/.claude/settings.local.json": APPROVED,
      },
      turns: [
        launch,
        forkTurn("Read", { file_path: "notes.txt" }),
        // `path`: the input this branch's Edit takes and Claude Code's `file_path` version still accepts.
        forkTurn("Edit", { path: "notes.txt", old_string: "old", new_string: "new" }),
        forkDone,
        mainDone,
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("review it");
    const forks = e.forkRequests();
    const names = toolNames(forks[0]);
    expect(names).toContain("Edit");
    expect(names).toContain("Read");
    expect(names).not.toContain("Bash");
    expect(names).not.toContain("Write");
    expect(lastResults(forks[2]).join()).not.toContain("Permission");
    expect(await readFile(join(e.cwd, "notes.txt"), "utf8")).toBe("new text\n");
  });

  it("a project agent's acceptEdits waits for the user's approval of the project's grants", async () => {
    e = await startHarness({
      files: {
        "project/notes.txt": "old text\n",
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/agents/reviewer.md": agentFile(
          "name: reviewer\ndescription: Reviews\npermissionMode: acceptEdits",
        ),
      },
      turns: [
        launch,
        forkTurn("Edit", { path: "notes.txt", old_string: "old", new_string: "new" }),
        forkDone,
        mainDone,
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("review it");
    const forks = e.forkRequests();
    expect(lastResults(forks[1]).join()).toContain("Permission was not granted");
    expect(await readFile(join(e.cwd, "notes.txt"), "utf8")).toBe("old text\n");
  });

  it("permissionMode plan: only read-only tools; bypassPermissions: Bash runs without asking", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/skills/build/SKILL.md": skillMd(
          "description: Builds\ncontext: fork\nagent: builder",
          "BUILD-TASK",
        ),
        "project/.claude/agents/reviewer.md": agentFile(
          "name: reviewer\ndescription: R\npermissionMode: plan",
        ),
        "project/.claude/agents/builder.md": agentFile(
          "name: builder\ndescription: B\npermissionMode: bypassPermissions",
        ),
        "project/.claude/settings.local.json": APPROVED,
      },
      turns: [
        launch,
        textTurn("Planned.", { agentId: "*", lastUserTextIncludes: "REVIEW-TASK" }),
        toolTurn("Skill", { skill: "build" }, { id: "toolu_build", match: { agentId: null } }),
        forkTurn("Bash", { command: "touch built.txt" }),
        textTurn("Built.", { agentId: "*" }),
        mainDone,
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("review and build");
    const [plan, build] = e.forkRequests();
    expect(toolNames(plan)).not.toContain("Bash");
    expect(toolNames(plan)).not.toContain("Edit");
    expect(toolNames(plan)).toContain("Read");
    expect(toolNames(build)).toContain("Bash");
    await expect(readFile(join(e.cwd, "built.txt"), "utf8")).resolves.toBe("");
  });

  it("permissionMode dontAsk: what no rule allows is denied, and nobody is asked", async () => {
    const asked: string[] = [];
    e = await startHarness({
      files: {
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/agents/reviewer.md": agentFile(
          "name: reviewer\ndescription: R\npermissionMode: dontAsk",
        ),
      },
      turns: [launch, forkTurn("Bash", { command: "touch made.txt" }), forkDone, mainDone],
      session: {
        allowedTools: ["Skill"],
        askPermission: async ({ prompt }) => {
          asked.push(prompt);
          return true;
        },
      },
    });
    await e.send("review it");
    expect(asked).toEqual([]);
    expect(lastResults(e.forkRequests()[1]).join()).toBe(
      `touch in '${join(e.cwd, "made.txt")}' needs approval. The path is inside the working directories for this ` +
        `session ('${e.cwd}'), and skillwright asks before a shell command creates, changes or removes files there.`,
    );
    await expect(readFile(join(e.cwd, "made.txt"), "utf8")).rejects.toThrow();
  });

  it("hooks: registered while the agent runs, for its own events only (Stop runs as SubagentStop)", async () => {
    const record = (file: string) =>
      `cat >> "$CLAUDE_PROJECT_DIR/${file}"; echo >> "$CLAUDE_PROJECT_DIR/${file}"`;
    e = await startHarness({
      files: {
        "project/notes.txt": "text\n",
        "project/.claude/skills/review/SKILL.md": reviewSkill,
        "project/.claude/skills/nested/SKILL.md": skillMd(
          "description: Nested\ncontext: fork",
          "NESTED-TASK",
        ),
        "project/.claude/agents/reviewer.md": agentFile(
          [
            "name: reviewer",
            "description: Reviews",
            "hooks:",
            "  PreToolUse:",
            "    - matcher: Read",
            "      hooks:",
            "        - type: command",
            `          command: '${record("agent-pre.jsonl")}'`,
            "  Stop:",
            "    - hooks:",
            "        - type: command",
            `          command: '${record("agent-stop.jsonl")}'`,
          ].join("\n"),
        ),
      },
      turns: [
        toolTurn(
          "Read",
          { file_path: "notes.txt" },
          { id: "toolu_main_read1", match: { agentId: null, lastUserTextIncludes: "review" } },
        ),
        launch,
        forkTurn("Read", { file_path: "notes.txt" }),
        // The reviewer starts a nested fork: its Read and its stop happen while the reviewer's hooks are
        // registered, and must not fire them.
        forkTurn("Skill", { skill: "nested" }),
        toolTurn(
          "Read",
          { file_path: "notes.txt" },
          { match: { agentId: "*", lastUserTextIncludes: "NESTED-TASK" } },
        ),
        textTurn("Nested done.", { agentId: "*" }),
        forkDone,
        toolTurn("Read", { file_path: "notes.txt" }, { id: "toolu_main_read2", match: { agentId: null } }),
        mainDone,
      ],
      session: { allowedTools: ["Skill"] },
    });
    expect(e.opened.diagnostics).toEqual([]);
    await e.send("review it");
    const lines = (file: string) =>
      readFile(join(e?.cwd ?? "", file), "utf8").then((t) =>
        t
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    const pre = await lines("agent-pre.jsonl");
    // Only the reviewer's own Read: not the main agent's (before or after it), not the nested fork's.
    expect(pre).toHaveLength(1);
    expect(pre[0]).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Read" });
    expect(String(pre[0]?.agent_id)).toMatch(/^fork-/);
    const stop = await lines("agent-stop.jsonl");
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatchObject({
      hook_event_name: "SubagentStop",
      agent_type: "reviewer",
      agent_id: pre[0]?.agent_id,
    });
  });
});
