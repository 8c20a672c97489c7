import { isRecord } from "../is-record.js";
import { commandWords } from "./command-words.js";
import { splitCommand } from "./rules.js";

/** A word that reads as a subcommand (`add` in `git add`, `test` in `npm test`), not a path, flag or value. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/**
 * The rule an "allow always" answer writes for one asked call, or undefined when none is offered. Only a single
 * Bash command gets one: its program and, when the next word reads as a subcommand, that word
 * (`git add src/a.ts` → `Bash(git add:*)`, `touch notes.txt` → `Bash(touch:*)`). A compound command, a command
 * substitution or a program named by a variable gets none, nor does any other tool (a path rule is the user's to
 * write) or a skill (its approval is pinned to its content instead). Pure.
 */
export function suggestedRule(tool: string, input: unknown): string | undefined {
  if (tool !== "Bash" || !isRecord(input) || typeof input.command !== "string") return undefined;
  const split = splitCommand(input.command);
  if (split.substitution || split.parts.length !== 1) return undefined;
  const [part] = split.parts;
  if (part === undefined) return undefined;
  const { words, dynamic, heredoc } = commandWords(part);
  const [program, next] = words;
  if (heredoc || program === undefined || dynamic[0] === true || program.includes("=")) return undefined;
  const prefix =
    next !== undefined && dynamic[1] !== true && SUBCOMMAND.test(next) ? `${program} ${next}` : program;
  return `Bash(${prefix}:*)`;
}
