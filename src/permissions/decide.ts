import { isAbsolute, relative, resolve } from "node:path";
import { assertNever } from "../diagnostics.js";
import type { PermissionDecision, PermissionRules } from "./decision.js";
import {
  commandContentMatches,
  type MatchDirs,
  type PermissionRule,
  type PermissionSubject,
  parseRules,
  ruleMatches,
  splitCommand,
  toolMatches,
} from "./rules.js";

/** One permission question: may `tool` act on `subject` now? */
export interface DecideInput {
  rules: PermissionRules;
  /** Rules granted for the current turn, e.g. an invoked skill's `allowed-tools`. They never beat deny or ask. */
  grants?: readonly string[];
  tool: string;
  subject?: PermissionSubject;
  cwd: string;
  /** For `~/…` path rules. */
  home?: string;
  /** The tool only reads: allowed without asking when its path is inside `cwd` (or it has no path). */
  readOnly?: boolean;
  /** The caller judged the call harmless (e.g. a skill with only safe properties): allowed without asking. */
  safe?: boolean;
}

/** `Bash(git status)`, `Read(src/a.ts)`, `Skill(deploy)`, or just the tool name. */
export function describeCall(tool: string, subject: PermissionSubject | undefined): string {
  switch (subject?.kind) {
    case undefined:
    case "none":
      return tool;
    case "command":
      return `${tool}(${subject.command})`;
    case "path":
      return `${tool}(${subject.path})`;
    case "skill":
      return `${tool}(${subject.name})`;
    case "text":
      return `${tool}(${subject.text})`;
    default:
      return assertNever(subject);
  }
}

/** The simple commands a command rule must account for; `[]` stands for "the whole, unsplit command". */
function commandParts(subject: PermissionSubject): string[] {
  return subject.kind === "command" ? splitCommand(subject.command).parts : [];
}

/** Leading `NAME=value` assignments removed, so `FOO=1 rm -rf x` still meets `Bash(rm:*)` in deny rules. */
function withoutEnvAssignments(command: string): string {
  return command.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, "");
}

/** Deny and ask: a rule hits when it matches the call, or (for commands) any simple command in it. */
function firstHit(
  rules: readonly PermissionRule[],
  tool: string,
  subject: PermissionSubject,
  dirs: MatchDirs,
): PermissionRule | undefined {
  const parts = commandParts(subject);
  return rules.find((rule) => {
    if (ruleMatches(rule, tool, subject, dirs)) return true;
    const content = rule.content;
    if (content === undefined || parts.length === 0 || !toolMatches(rule.tool, tool)) return false;
    return parts.some(
      (part) =>
        commandContentMatches(content, part) || commandContentMatches(content, withoutEnvAssignments(part)),
    );
  });
}

/**
 * Allow: a bare rule covers anything; for a command, every simple command in it must be covered by some rule
 * and it may hold no command substitution; otherwise one rule must match the call.
 */
function allowHit(
  rules: readonly PermissionRule[],
  tool: string,
  subject: PermissionSubject,
  dirs: MatchDirs,
): PermissionRule | undefined {
  const applicable = rules.filter((rule) => toolMatches(rule.tool, tool));
  const bare = applicable.find((rule) => rule.content === undefined);
  if (bare !== undefined || subject.kind !== "command") {
    return bare ?? applicable.find((rule) => ruleMatches(rule, tool, subject, dirs));
  }
  const split = splitCommand(subject.command);
  if (split.substitution || split.parts.length === 0) return undefined;
  let last: PermissionRule | undefined;
  for (const part of split.parts) {
    last = applicable.find((rule) => rule.content !== undefined && commandContentMatches(rule.content, part));
    if (last === undefined) return undefined;
  }
  return last;
}

function readOnlyInCwd(subject: PermissionSubject, dirs: MatchDirs): boolean {
  if (subject.kind !== "path") return true;
  const rel = relative(dirs.cwd, resolve(dirs.cwd, subject.path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The one permission decision for every tool call, the Skill tool and inline shell (STYLE 6). In order:
 * a matching deny rule → deny (deny always wins, even over grants); an ask rule → ask; an allow rule or a
 * grant → allow; `safe`, or `readOnly` with no path or a path inside `cwd` → allow; otherwise ask. For commands,
 * deny and ask rules hit when they match any simple command of a compound one, while allowing needs every
 * simple command covered and no command substitution. Unparsable rules are ignored (settings reports them).
 * Pure.
 */
export function decide(input: DecideInput): PermissionDecision {
  const subject = input.subject ?? { kind: "none" };
  const dirs: MatchDirs =
    input.home === undefined ? { cwd: input.cwd } : { cwd: input.cwd, home: input.home };
  const call = describeCall(input.tool, subject);

  const denied = firstHit(parseRules(input.rules.deny), input.tool, subject, dirs);
  if (denied !== undefined) {
    return { behavior: "deny", reason: `Permission to use ${call} was denied by the rule ${denied.raw}.` };
  }
  const asked = firstHit(parseRules(input.rules.ask), input.tool, subject, dirs);
  if (asked !== undefined) {
    return { behavior: "ask", prompt: `Allow ${call}? (the rule ${asked.raw} asks to confirm)` };
  }
  const grants = parseRules(input.grants ?? []);
  const allowed = allowHit([...parseRules(input.rules.allow), ...grants], input.tool, subject, dirs);
  if (allowed !== undefined) {
    const reason = grants.includes(allowed)
      ? `granted by ${allowed.raw} for this turn`
      : `allowed by the rule ${allowed.raw}`;
    return { behavior: "allow", reason };
  }
  if (input.safe === true) return { behavior: "allow", reason: "safe" };
  if (input.readOnly === true && readOnlyInCwd(subject, dirs)) {
    return { behavior: "allow", reason: "read-only inside the working directory" };
  }
  return { behavior: "ask", prompt: `Allow ${call}?` };
}
