import { isAbsolute, relative, resolve } from "node:path";
import { assertNever } from "../diagnostics.js";
import {
  allowedDirs,
  type CommandDirs,
  commandTouch,
  isInsideAllowed,
  isReadOnlyCommand,
  type OutsideWrite,
  outsideWrites,
} from "./command-effects.js";
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

/** Deny reason for a bare rule (`Bash`, `--disallowedTools Bash`): Claude Code's text (SPEC §14.1). */
export function toolDeniedReason(tool: string): string {
  return `Permission to use ${tool} has been denied.`;
}

/** Ask reason when one part of a compound command is not allowed (SPEC §14.9). */
export function multipleOperationsReason(part: string): string {
  return `This Bash command contains multiple operations. The following part requires approval: ${part}`;
}

/** Ask reason for a command holding `$(…)`, backticks or process substitution (SPEC §14.9). */
export const NESTED_COMMAND_REASON = "A nested command in this command can't be checked before it runs";

/** Ask reason for a write outside the allowed directories (SPEC §14.9, issue 16.6), in Claude Code's style. */
export function outsideWriteReason(write: OutsideWrite, dirs: CommandDirs): string {
  const allowed = allowedDirs(dirs)
    .map((d) => `'${d}'`)
    .join(", ");
  return (
    `${write.command} in '${write.path}' needs approval. For security, commands may only write to files in the ` +
    `allowed working directories for this session without asking: ${allowed}. Add the directory with --add-dir ` +
    "or permissions.additionalDirectories to allow it."
  );
}

/**
 * Ask reason for one simple command that neither only reads nor has a rule (SPEC §14.9), in Claude Code's words
 * where it names a path the command writes: `{cmd} in '{path}' needs approval. The path is inside the working
 * directories for this session ('{dir}', …), and skillwright asks before a shell command creates, changes or
 * removes files there.` A path outside them says `outside` and ends at `files.`; a command whose written path
 * the command line does not tell gives `{cmd} needs approval. skillwright runs a shell command without asking
 * only when it only reads inside the working directories for this session (…) or a rule allows it.` Pure.
 */
export function commandApprovalReason(part: string, dirs: CommandDirs): string | undefined {
  const touch = commandTouch(part, dirs);
  if (touch === undefined) return undefined;
  const allowed = allowedDirs(dirs)
    .map((d) => `'${d}'`)
    .join(", ");
  if (touch.path === undefined) {
    return (
      `${touch.command} needs approval. skillwright runs a shell command without asking only when it only reads ` +
      `inside the working directories for this session (${allowed}) or a rule allows it.`
    );
  }
  return isInsideAllowed(touch.path, dirs)
    ? `${touch.command} in '${touch.path}' needs approval. The path is inside the working directories for this ` +
        `session (${allowed}), and skillwright asks before a shell command creates, changes or removes files there.`
    : `${touch.command} in '${touch.path}' needs approval. The path is outside the working directories for this ` +
        `session (${allowed}), and skillwright asks before a shell command creates, changes or removes files.`;
}

/** The first allow rule or grant that covers one simple command, if any. */
function coveringRule(rules: readonly PermissionRule[], part: string): PermissionRule | undefined {
  return rules.find((rule) => rule.content !== undefined && commandContentMatches(rule.content, part));
}

type CommandVerdict =
  | { behavior: "allow"; rule?: PermissionRule; readOnly: boolean }
  | { behavior: "ask"; reason?: string };

/**
 * A command with no bare allow rule (SPEC §14.8, §14.9, issue 16.6): a nested command needs approval; a write
 * outside the allowed directories needs approval even when a rule covers its command; otherwise every simple
 * command must be covered by a rule or grant, or only read. Of the parts that are not, the first that writes a
 * path the command line names is asked about with that path (`touch in '{path}' needs approval …`), even in a
 * compound command (issue #44, as Claude Code checks paths first); else a compound command names the first part
 * that is not covered.
 */
function commandVerdict(
  applicable: readonly PermissionRule[],
  command: string,
  dirs: CommandDirs,
): CommandVerdict {
  const split = splitCommand(command);
  if (split.parts.length === 0) return { behavior: "ask" };
  if (split.substitution) return { behavior: "ask", reason: NESTED_COMMAND_REASON };
  for (const part of split.parts) {
    const outside = outsideWrites(part, dirs)[0];
    if (outside !== undefined) return { behavior: "ask", reason: outsideWriteReason(outside, dirs) };
  }
  let last: PermissionRule | undefined;
  let readOnly = true;
  const uncovered: string[] = [];
  for (const part of split.parts) {
    const rule = coveringRule(applicable, part);
    if (rule !== undefined) {
      last = rule;
      readOnly = false;
    } else if (!isReadOnlyCommand(part, dirs)) uncovered.push(part);
  }
  const [first] = uncovered;
  if (first === undefined) {
    return last === undefined ? { behavior: "allow", readOnly } : { behavior: "allow", rule: last, readOnly };
  }
  // The path check comes first, as Claude Code's does: a part that writes a known path is named with it.
  for (const part of uncovered) {
    if (commandTouch(part, dirs)?.path === undefined) continue;
    const reason = commandApprovalReason(part, dirs);
    if (reason !== undefined) return { behavior: "ask", reason };
  }
  if (split.parts.length > 1) return { behavior: "ask", reason: multipleOperationsReason(first) };
  const reason = commandApprovalReason(first, dirs);
  return reason === undefined ? { behavior: "ask" } : { behavior: "ask", reason };
}

function readOnlyInCwd(subject: PermissionSubject, dirs: MatchDirs): boolean {
  if (subject.kind !== "path") return true;
  const rel = relative(dirs.cwd, resolve(dirs.cwd, subject.path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The one permission decision for every tool call, the Skill tool and inline shell (STYLE 6). In order:
 * a matching deny rule → deny (deny always wins, even over grants; a bare rule gives Claude Code's
 * `Permission to use {tool} has been denied.`); an ask rule → ask; a bare allow rule or grant → allow. Then,
 * for a command: a nested command (`$(…)`, backticks) → ask; a write (redirection, `tee`) outside the working
 * directory and `rules.additionalDirectories` → ask, even if a rule covers the command; every simple command
 * covered by an allow rule or grant, or only reading (`isReadOnlyCommand`) → allow; else ask, naming the part
 * of a compound command that needs approval, or for a simple one what it writes (`commandApprovalReason`). For other subjects: a matching allow rule or grant → allow;
 * `safe`, or `readOnly` with no path or a path inside `cwd` → allow; otherwise ask. Deny and ask rules hit when
 * they match any simple command of a compound one. Unparsable rules are ignored (settings reports them). Pure.
 */
export function decide(input: DecideInput): PermissionDecision {
  const subject = input.subject ?? { kind: "none" };
  const dirs: MatchDirs =
    input.home === undefined ? { cwd: input.cwd } : { cwd: input.cwd, home: input.home };
  const call = describeCall(input.tool, subject);

  const denied = firstHit(parseRules(input.rules.deny), input.tool, subject, dirs);
  if (denied !== undefined) {
    const reason =
      denied.content === undefined
        ? toolDeniedReason(input.tool)
        : `Permission to use ${call} was denied by the rule ${denied.raw}.`;
    return { behavior: "deny", reason };
  }
  const asked = firstHit(parseRules(input.rules.ask), input.tool, subject, dirs);
  if (asked !== undefined) {
    return { behavior: "ask", prompt: `Allow ${call}? (the rule ${asked.raw} asks to confirm)` };
  }
  const grants = parseRules(input.grants ?? []);
  const applicable = [...parseRules(input.rules.allow), ...grants].filter((rule) =>
    toolMatches(rule.tool, input.tool),
  );
  const allowedBy = (rule: PermissionRule): PermissionDecision => ({
    behavior: "allow",
    reason: grants.includes(rule)
      ? `granted by ${rule.raw} for this turn`
      : `allowed by the rule ${rule.raw}`,
  });
  const bare = applicable.find((rule) => rule.content === undefined);
  if (bare !== undefined) return allowedBy(bare);

  if (subject.kind === "command") {
    const commandDirs: CommandDirs = {
      ...dirs,
      ...(input.rules.additionalDirectories === undefined
        ? {}
        : { additional: input.rules.additionalDirectories }),
    };
    const verdict = commandVerdict(applicable, subject.command, commandDirs);
    if (verdict.behavior === "allow") {
      if (verdict.rule !== undefined) return allowedBy(verdict.rule);
      return { behavior: "allow", reason: "the command only reads" };
    }
    if (input.safe === true) return { behavior: "allow", reason: "safe" };
    return verdict.reason === undefined
      ? { behavior: "ask", prompt: `Allow ${call}?` }
      : { behavior: "ask", prompt: `Allow ${call}? ${verdict.reason}`, reason: verdict.reason };
  }

  const allowed = applicable.find((rule) => ruleMatches(rule, input.tool, subject, dirs));
  if (allowed !== undefined) return allowedBy(allowed);
  if (input.safe === true) return { behavior: "allow", reason: "safe" };
  if (input.readOnly === true && readOnlyInCwd(subject, dirs)) {
    return { behavior: "allow", reason: "read-only inside the working directory" };
  }
  return { behavior: "ask", prompt: `Allow ${call}?` };
}
