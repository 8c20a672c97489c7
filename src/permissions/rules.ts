import { isAbsolute, relative, resolve } from "node:path";
import ignore from "ignore";
import { assertNever } from "../diagnostics.js";

/** A parsed rule: `Tool` (every call of the tool) or `Tool(content)`. */
export interface PermissionRule {
  /** The rule as written, for messages. */
  raw: string;
  /** A tool name; `*` is a wildcard (`mcp__server__*`), and `mcp__server` means every tool of that server. */
  tool: string;
  /** Undefined for a bare `Tool`, `Tool()` and `Tool(*)`. */
  content?: string;
}

/** The outcome of `parseRule`. */
export type RuleParse = { ok: true; rule: PermissionRule } | { ok: false; message: string };

/**
 * What a call acts on, so that a rule's content is matched the right way: a shell command (`Bash(git add:*)`
 * prefix, `Bash(npm test)` exact), a file path (gitignore-style globs), a skill (`Skill(name)`,
 * `Skill(prefix:*)`), other text (exact, `*` wildcards), or nothing (only bare rules match).
 */
export type PermissionSubject =
  | { kind: "none" }
  | { kind: "command"; command: string }
  | { kind: "path"; path: string }
  | { kind: "skill"; name: string; alias?: string }
  | { kind: "text"; text: string };

/** Dirs a path rule is resolved against. Without `home`, `~/…` rules match nothing. */
export interface MatchDirs {
  cwd: string;
  home?: string;
}

const RULE_PATTERN = /^([\w.*-]+)(?:\(([\s\S]*)\))?$/;

/** Parses `Tool` or `Tool(content)`; `\(` and `\)` in content stand for parentheses. Pure. */
export function parseRule(raw: string): RuleParse {
  const text = raw.trim();
  const match = RULE_PATTERN.exec(text);
  const tool = match?.[1];
  if (match === null || tool === undefined) {
    return { ok: false, message: `Permission rule "${raw}" is not of the form Tool or Tool(content)` };
  }
  const content = match[2]?.replace(/\\([()])/g, "$1").trim();
  if (content === undefined || content === "" || content === "*")
    return { ok: true, rule: { raw: text, tool } };
  return { ok: true, rule: { raw: text, tool, content } };
}

/** Parses many rules, dropping the ones that do not parse (settings report those). Pure. */
export function parseRules(raws: readonly string[]): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const raw of raws) {
    const parsed = parseRule(raw);
    if (parsed.ok) rules.push(parsed.rule);
  }
  return rules;
}

/**
 * Whether `value` is `pattern` with each `*` standing for any run of characters: the whole value, greedy, with
 * one backtrack point (the last `*`), so a rule with many stars costs at most pattern × value steps, never the
 * exponential time a backtracking RegExp of it could take. Pure.
 */
function wildcardMatches(pattern: string, value: string): boolean {
  if (!pattern.includes("*")) return pattern === value;
  let p = 0;
  let v = 0;
  let star = -1;
  let resume = 0;
  while (v < value.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === value[v]) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = v;
    } else if (star >= 0) {
      p = star + 1;
      v = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

/** True when a rule's tool part names `tool`: exact, `*` wildcard, or `mcp__server` for its tools. Pure. */
export function toolMatches(ruleTool: string, tool: string): boolean {
  if (wildcardMatches(ruleTool, tool)) return true;
  return (
    /^mcp__[^_]+(?:_[^_]+)*$/.test(ruleTool) && !ruleTool.includes("*") && tool.startsWith(`${ruleTool}__`)
  );
}

/** A command split at unquoted `;` `&&` `||` `|` `&` and newlines. */
export interface SplitCommand {
  /** The simple commands, trimmed, empty ones left out. */
  parts: string[];
  /** True when the command holds `$(…)`, backticks or process substitution outside single quotes. */
  substitution: boolean;
}

/** Splits a shell command into simple commands, honouring quotes and backslashes. Pure, never throws. */
export function splitCommand(command: string): SplitCommand {
  const parts: string[] = [];
  let substitution = false;
  let quote: "'" | '"' | undefined;
  let start = 0;
  const cut = (end: number, next: number) => {
    const part = command.slice(start, end).trim();
    if (part !== "") parts.push(part);
    start = next;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\") {
      i += 1;
      continue;
    }
    if (c === "`" || (c === "$" && next === "(")) {
      substitution = true;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
    } else if ((c === "<" || c === ">") && next === "(") {
      substitution = true;
    } else if (c === ";" || c === "\n") {
      cut(i, i + 1);
    } else if ((c === "&" && next === "&") || (c === "|" && (next === "|" || next === "&"))) {
      cut(i, i + 2);
      i += 1;
    } else if (c === "|") {
      cut(i, i + 1);
    } else if (c === "&") {
      const previous = command[i - 1];
      // `2>&1`, `&>file` and `>&2` are redirections, not separators.
      if (previous !== ">" && previous !== "<" && next !== ">") cut(i, i + 1);
    }
  }
  cut(command.length, command.length);
  return { parts, substitution };
}

/**
 * Whether a `Bash(…)` content matches one simple command: `prefix:*` matches the prefix itself or the prefix
 * followed by whitespace (so `git add:*` matches `git add .` but not `git addx`); content with `*` is a wildcard
 * over the whole command; anything else must equal the command (both trimmed). Pure.
 */
export function commandContentMatches(content: string, command: string): boolean {
  const cmd = command.trim();
  if (content.endsWith(":*")) {
    const prefix = content.slice(0, -2).trim();
    if (prefix === "") return true;
    if (!cmd.startsWith(prefix)) return false;
    const after = cmd.charAt(prefix.length);
    return after === "" || /\s/.test(after);
  }
  return wildcardMatches(content, cmd);
}

/**
 * Whether a path rule's content matches `path` (absolute, or relative to `dirs.cwd`). Patterns are gitignore
 * style: `./src/**` is anchored at the cwd, `/abs/**` and `//abs/**` at the file-system root, `~/x` at the home
 * dir, and a pattern without a leading slash is relative to the cwd (`*.ts` matches at any depth). A path
 * outside the pattern's base never matches. Pure.
 */
export function pathContentMatches(content: string, path: string, dirs: MatchDirs): boolean {
  let base: string;
  let pattern: string;
  if (content === "~" || content.startsWith("~/")) {
    if (dirs.home === undefined) return false;
    base = dirs.home;
    pattern = content === "~" ? "**" : content.slice(1);
  } else if (content.startsWith("/")) {
    base = "/";
    pattern = content.startsWith("//") ? content.slice(1) : content;
  } else if (content.startsWith("./")) {
    base = dirs.cwd;
    pattern = content.slice(1);
  } else {
    base = dirs.cwd;
    pattern = content;
  }
  const rel = relative(base, resolve(dirs.cwd, path));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return false;
  return ignore().add(pattern).ignores(rel);
}

/** Whether `Skill(…)` content matches a skill name: exact, or `prefix:*` = starts with `prefix`. Pure. */
export function skillContentMatches(content: string, name: string): boolean {
  return content.endsWith(":*") ? name.startsWith(content.slice(0, -2)) : content === name;
}

/**
 * Whether `rule` covers a call of `tool` on `subject` as a whole. A bare rule covers every call of its tools;
 * a rule with content never covers a call without a subject. For commands this compares the whole command
 * string; `decide` applies the compound-command rules on top. Pure.
 */
export function ruleMatches(
  rule: PermissionRule,
  tool: string,
  subject: PermissionSubject,
  dirs: MatchDirs,
): boolean {
  if (!toolMatches(rule.tool, tool)) return false;
  const content = rule.content;
  if (content === undefined) return true;
  switch (subject.kind) {
    case "none":
      return false;
    case "command":
      return commandContentMatches(content, subject.command);
    case "path":
      return pathContentMatches(content, subject.path, dirs);
    case "skill":
      return (
        skillContentMatches(content, subject.name) ||
        (subject.alias !== undefined && skillContentMatches(content, subject.alias))
      );
    case "text":
      return wildcardMatches(content, subject.text);
    default:
      return assertNever(subject);
  }
}
