import { isRecord } from "../is-record.js";
import { commandWords } from "./command-words.js";
import { splitCommand } from "./rules.js";

/** A word that reads as a subcommand (`add` in `git add`, `test` in `npm test`), not a path, flag or value. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/** The plugin a namespaced skill name belongs to (`plug` of `plug:review`); undefined for other names. */
function pluginOf(name: string): string | undefined {
  const at = name.indexOf(":");
  return at > 0 && !name.startsWith("mcp__") ? name.slice(0, at) : undefined;
}

/**
 * The rules an "allow always" answer may write for one asked call, narrowest first (empty when none is
 * offered): a Bash command's {@link suggestedRule}; for a `Skill` call `Skill(name)` (the name as called, a
 * leading `/` dropped) and, for a plugin's skill `plug:name`, `Skill(plug:*)` too, as Claude Code suggests. Such
 * a rule never lifts a `skill-changed` hold (`decideSkill`). Pure.
 */
export function suggestedRules(tool: string, input: unknown): string[] {
  if (tool === "Skill") {
    const raw = isRecord(input) && typeof input.skill === "string" ? input.skill.trim() : "";
    const name = raw.startsWith("/") ? raw.slice(1) : raw;
    if (name === "" || /[()\s]/.test(name)) return [];
    const plugin = pluginOf(name);
    return plugin === undefined ? [`Skill(${name})`] : [`Skill(${name})`, `Skill(${plugin}:*)`];
  }
  const rule = suggestedRule(tool, input);
  return rule === undefined ? [] : [rule];
}

/**
 * The rule an "allow always" answer writes for one asked Bash call, or undefined when none is offered. Only a
 * single Bash command gets one: its program and, when the next word reads as a subcommand, that word
 * (`git add src/a.ts` → `Bash(git add:*)`, `touch notes.txt` → `Bash(touch:*)`). A compound command, a command
 * substitution or a program named by a variable gets none, nor does any other tool (a path rule is the user's to
 * write); skills get theirs from {@link suggestedRules}. Pure.
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
