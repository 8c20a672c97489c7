import { describe, expect, it } from "vitest";
import { buildSystemPrompt, mcpInstructionsSection } from "../../src/prompt/system-prompt.js";

const base = { cwd: "/p", platform: "linux", date: "2026-01-02" };

describe("MCP server instructions in the system prompt", () => {
  it("adds one section with each server's instructions, in the given order, before appended text", () => {
    const prompt = buildSystemPrompt({
      ...base,
      mcpInstructions: [
        { server: "b", text: "Use b for billing.\n" },
        { server: "a", text: "  " },
        { server: "c", text: "Call c last." },
      ],
      append: "APPENDED",
    });
    expect(
      prompt.endsWith(
        [
          "Date: 2026-01-02",
          "",
          "# MCP Server Instructions",
          "",
          "The following MCP servers have provided instructions for how to use their tools and resources:",
          "",
          "## b",
          "Use b for billing.",
          "",
          "## c",
          "Call c last.",
          "",
          "APPENDED",
        ].join("\n"),
      ),
    ).toBe(true);
  });

  it("no servers with instructions: no section, the prompt is unchanged", () => {
    expect(mcpInstructionsSection([])).toBe("");
    expect(buildSystemPrompt({ ...base, mcpInstructions: [{ server: "a", text: "" }] })).toBe(
      buildSystemPrompt(base),
    );
  });
});
