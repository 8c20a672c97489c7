/** Inputs of the system prompt: fixed for a session so the prompt cache holds (SPEC §3). */
export interface SystemPromptInput {
  cwd: string;
  platform: string;
  /** `YYYY-MM-DD`, taken once at session start. */
  date: string;
  /** Text appended by the host (e.g. `--append-system-prompt`). */
  append?: string;
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
  if (input.append !== undefined && input.append.trim() !== "") lines.push("", input.append.trim());
  return lines.join("\n");
}
