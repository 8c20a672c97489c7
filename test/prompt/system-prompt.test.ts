import { describe, expect, it } from "vitest";
import {
  buildSystemPrompt,
  DEFAULT_BASE_PROMPT,
  mcpInstructionsSection,
  SKILL_CATALOG_INTRO,
  systemPromptParts,
  TOOL_ERROR_GUIDELINE,
  toolsSection,
} from "../../src/prompt/system-prompt.js";

const base = { cwd: "/p", platform: "linux", date: "2026-01-02" };

describe("system prompt assembly order", () => {
  it("every part present: base, tools, appended, context files, MCP, skill listing, environment", () => {
    const parts = systemPromptParts({
      ...base,
      base: { text: "BASE", origin: "/p/.skillwright/SYSTEM.md" },
      tools: [
        { name: "Read", snippet: "Read a file", guidelines: ["Read first."] },
        { name: "mcp__x__y" },
        { name: "Bash", snippet: "Run a command", guidelines: ["Read first.", "No prompts."] },
      ],
      append: [
        { text: "FILE APPEND", origin: "/p/.skillwright/APPEND_SYSTEM.md" },
        { text: "FLAG APPEND", origin: "option" },
      ],
      contextFiles: [
        { path: "/home/u/.claude/CLAUDE.md", text: "USER CONTEXT\n" },
        { path: "/p/AGENTS.md", text: "PROJECT CONTEXT" },
      ],
      mcpInstructions: [{ server: "s", text: "Use s." }],
      skillListing: [{ name: "pdf", description: "Fill <PDF> forms" }],
    });
    expect(parts.map((p) => [p.kind, p.origin])).toEqual([
      ["base", "/p/.skillwright/SYSTEM.md"],
      ["tools", "tools"],
      ["append", "/p/.skillwright/APPEND_SYSTEM.md"],
      ["append", "option"],
      ["context", "/home/u/.claude/CLAUDE.md"],
      ["context", "/p/AGENTS.md"],
      ["mcp", "mcp"],
      ["skills", "skills"],
      ["environment", "built-in"],
    ]);
    expect(parts.map((p) => p.text)).toEqual([
      "BASE",
      [
        "Available tools:",
        "- Read: Read a file",
        "- Bash: Run a command",
        "",
        "Guidelines:",
        "- Read first.",
        "- No prompts.",
        `- ${TOOL_ERROR_GUIDELINE}`,
      ].join("\n"),
      "FILE APPEND",
      "FLAG APPEND",
      "Instructions from /home/u/.claude/CLAUDE.md:\n\nUSER CONTEXT",
      "Instructions from /p/AGENTS.md:\n\nPROJECT CONTEXT",
      mcpInstructionsSection([{ server: "s", text: "Use s." }]),
      `${SKILL_CATALOG_INTRO}\n\n<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nFill &lt;PDF&gt; forms\n</description>\n</skill>\n</available_skills>`,
      "Working directory: /p\nPlatform: linux\nDate: 2026-01-02",
    ]);
  });

  it("defaults: the built-in base and the environment; nothing for absent parts", () => {
    const parts = systemPromptParts(base);
    expect(parts.map((p) => [p.kind, p.origin])).toEqual([
      ["base", "built-in"],
      ["environment", "built-in"],
    ]);
    expect(buildSystemPrompt(base)).toBe(
      `${DEFAULT_BASE_PROMPT}\n\nWorking directory: /p\nPlatform: linux\nDate: 2026-01-02`,
    );
  });

  it("without a file system: no working directory, platform or date", () => {
    const prompt = buildSystemPrompt({ ...base, filesystem: false, append: "APP" });
    expect(prompt).toBe(`${DEFAULT_BASE_PROMPT}\n\nAPP`);
    expect(prompt).not.toContain("Working directory");
  });

  it("tools without a snippet give no tools section", () => {
    expect(toolsSection([{ name: "x" }])).toBe("");
  });
});

describe("MCP server instructions in the system prompt", () => {
  it("one section with each server's instructions, in the given order", () => {
    expect(
      mcpInstructionsSection([
        { server: "b", text: "Use b for billing.\n" },
        { server: "a", text: "  " },
        { server: "c", text: "Call c last." },
      ]),
    ).toBe(
      [
        "# MCP Server Instructions",
        "",
        "The following MCP servers have provided instructions for how to use their tools and resources:",
        "",
        "## b",
        "Use b for billing.",
        "",
        "## c",
        "Call c last.",
      ].join("\n"),
    );
  });

  it("no servers with instructions: no section, the prompt is unchanged", () => {
    expect(mcpInstructionsSection([])).toBe("");
    expect(buildSystemPrompt({ ...base, mcpInstructions: [{ server: "a", text: "" }] })).toBe(
      buildSystemPrompt(base),
    );
  });
});
