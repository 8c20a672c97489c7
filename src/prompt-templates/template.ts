import { shellSplit } from "../inline/shell-split.js";
import { substituteTemplateArgs } from "./template-args.js";

/** A prompt template: a Markdown file in `~/.skillwright/prompts/` or `<project>/.skillwright/prompts/`. */
export interface PromptTemplate {
  /** The file name without `.md`: what the user types after `/`. */
  name: string;
  /** The frontmatter `description`, else "". */
  description: string;
  /** The text after the frontmatter, with its placeholders. */
  body: string;
  source: "user" | "project";
  filePath: string;
}

/** The `/name args` of a prompt, or undefined when it does not start with `/` and a name. Pure. */
export function parseSlashPrompt(prompt: string): { name: string; args: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (match === null) return undefined;
  return { name: match[1] ?? "", args: match[2] ?? "" };
}

/**
 * The user prompt `/name args` expanded with the template `name` (args split shell-style, see
 * {@link substituteTemplateArgs}), or undefined when the prompt names no template or `isSkill(name)` (a skill
 * of the same name wins). Pure.
 */
export function expandPromptTemplate(
  prompt: string,
  templates: readonly PromptTemplate[],
  isSkill: (name: string) => boolean,
): string | undefined {
  const slash = parseSlashPrompt(prompt);
  if (slash === undefined || isSkill(slash.name)) return undefined;
  const template = templates.find((t) => t.name === slash.name);
  if (template === undefined) return undefined;
  return substituteTemplateArgs(template.body, shellSplit(slash.args));
}
