/** Inputs of the system prompt: fixed for a session so the prompt cache holds (SPEC §3). */
export interface SystemPromptInput {
  cwd: string;
  platform: string;
  /** `YYYY-MM-DD`, taken once at session start. */
  date: string;
  /** Text appended by the host (e.g. `--append-system-prompt`). */
  append?: string;
  /** The `instructions` of the connected MCP servers, in config order (taken once, when the session opens). */
  mcpInstructions?: ReadonlyArray<{ server: string; text: string }>;
}

/** The heading of the MCP server instructions section (Claude Code's wording). */
export const MCP_INSTRUCTIONS_HEADING = "# MCP Server Instructions";

/** The MCP servers' instructions as one system-prompt section, servers in the given order; "" for none. Pure. */
export function mcpInstructionsSection(items: ReadonlyArray<{ server: string; text: string }>): string {
  const given = items.filter((i) => i.text.trim() !== "");
  if (given.length === 0) return "";
  return [
    MCP_INSTRUCTIONS_HEADING,
    "",
    "The following MCP servers have provided instructions for how to use their tools and resources:",
    ...given.flatMap((i) => ["", `## ${i.server}`, i.text.trim()]),
  ].join("\n");
}

/**
 * The main agent's system prompt. It never contains the skill listing (that travels in the messages), so it
 * stays byte-identical for the whole session. Pure.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const lines = [
    "You are an AI agent working in the user's project through tools. Be direct and precise, and finish the task.",
    "",
    "Skills: the messages may hold a <system-reminder> listing skills: packaged instructions for specific tasks.",
    "When a listed skill fits the request, call the Skill tool with its name before doing the work yourself.",
    "A reminder may announce skills that become available later; they can be used from then on.",
    "",
    "Tools: read files before editing them; prefer Edit for changes to existing files; keep commands",
    "non-interactive. When a tool result is an error, read it and adapt instead of repeating the same call.",
    "",
    `Working directory: ${input.cwd}`,
    `Platform: ${input.platform}`,
    `Date: ${input.date}`,
  ];
  const mcp = mcpInstructionsSection(input.mcpInstructions ?? []);
  if (mcp !== "") lines.push("", mcp);
  if (input.append !== undefined && input.append.trim() !== "") lines.push("", input.append.trim());
  return lines.join("\n");
}
