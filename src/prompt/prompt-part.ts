/** What a part of the system prompt is, in assembly order. */
export const PROMPT_PART_KINDS = [
  "base",
  "tools",
  "append",
  "context",
  "mcp",
  "skills",
  "environment",
] as const;
export type PromptPartKind = (typeof PROMPT_PART_KINDS)[number];

/**
 * One part of the assembled system prompt and where it came from: a file path, or `option` (given by the host),
 * `built-in` (the engine's own text), `tools` (the tools' snippets and guidelines), `mcp` (the servers'
 * instructions) or `skills` (the skill listing).
 */
export interface PromptPart {
  kind: PromptPartKind;
  origin: string;
  text: string;
}

/** A text and where it came from (a file path, or `option`). */
export interface PromptText {
  text: string;
  origin: string;
}
