import type { SettingsScope } from "./local-settings.js";

/** A person's answer to a permission question: once, no, or always (a rule saved to a settings file). */
export type PermissionReply =
  | { kind: "yes" }
  | { kind: "no" }
  | { kind: "always"; rule: string; scope: SettingsScope };

/** The letters that pick the offered rules, in order (`a` the narrowest). */
const RULE_LETTERS = "abcd";

/**
 * The choices after a permission question: `[y/N]` when no rule is offered; `[y/N, a = always allow R]` for one
 * Bash rule; for skill rules each rule with its letter and where it is saved (`p` added: the project's
 * `.claude/settings.json`, `u`: `~/.claude/settings.json`, else `.claude/settings.local.json`). Pure.
 */
export function permissionChoices(rules: readonly string[]): string {
  if (rules.length === 0) return "[y/N]";
  const offered = rules
    .slice(0, RULE_LETTERS.length)
    .map((rule, i) => `${RULE_LETTERS[i]} = always allow ${rule}`)
    .join(", ");
  if (!rules.some((rule) => rule.startsWith("Skill("))) return `[y/N, ${offered}]`;
  return `[y/N, ${offered}; add p to save it to .claude/settings.json, u to ~/.claude/settings.json, else .claude/settings.local.json]`;
}

/**
 * Reads an answer to a question offered `rules`: `y`/`yes` once; a rule's letter (or `always` for the first),
 * optionally followed by `p` (project settings) or `u` (user settings), saves that rule (default: the project's
 * local settings); anything else is no. Case-insensitive. Pure.
 */
export function readPermissionReply(answer: string, rules: readonly string[]): PermissionReply {
  const text = answer.trim().toLowerCase();
  if (/^y(es)?$/.test(text)) return { kind: "yes" };
  const match = /^(always|[a-d])([pu]?)$/.exec(text);
  if (match === null) return { kind: "no" };
  const letter = match[1] === "always" ? "a" : (match[1] ?? "a");
  const rule = rules[RULE_LETTERS.indexOf(letter)];
  if (rule === undefined) return { kind: "no" };
  const scope: SettingsScope = match[2] === "p" ? "project" : match[2] === "u" ? "user" : "local";
  return { kind: "always", rule, scope };
}
