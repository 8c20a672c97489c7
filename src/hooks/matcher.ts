import { packageRequire } from "../io/package-require.js";
import { lazy } from "../lazy.js";
/** The name of the tool whose invocations `Skill(name)` matchers look into. */
export const SKILL_TOOL_NAME = "Skill";

/**
 * What a matcher is tested against: the tool name for tool events (or the event's match field, e.g. the
 * `source` of `SessionStart`), plus the skill being invoked when the tool is `Skill`.
 */
export interface MatchTarget {
  toolName: string;
  skillName?: string;
  /** The invoked skill's alias (its `name:` when that differs from the dir name): `Skill(alias)` matches too. */
  skillAlias?: string;
}

const SKILL_FORM = /^Skill\((.*)\)$/s;

/**
 * True when a hook matcher selects the target. Pure; never throws.
 * - empty, undefined or `*`: everything;
 * - a name, `A|B`, or a regex: the whole tool name must match (the pattern is anchored), case-sensitive;
 * - `Skill(name)`: the Skill tool invoking exactly that skill, by its name or its alias (a leading `/` on the
 *   invoked name is ignored);
 *   `Skill(prefix:*)`: any skill whose name starts with `prefix`; `Skill(*)`: any skill. These may be combined
 *   with other alternatives: `Skill(deploy)|Bash`.
 * - an invalid regex matches nothing.
 */
export function matchesHook(matcher: string | undefined, target: MatchTarget): boolean {
  const pattern = matcher?.trim() ?? "";
  if (pattern === "" || pattern === "*") return true;
  if (!pattern.includes("Skill(")) return matchesRegex(pattern, target.toolName);
  return splitAlternatives(pattern).some((alternative) => matchesAlternative(alternative.trim(), target));
}

function matchesAlternative(alternative: string, target: MatchTarget): boolean {
  const skillForm = SKILL_FORM.exec(alternative);
  if (skillForm === null) return matchesRegex(alternative, target.toolName);
  if (target.toolName !== SKILL_TOOL_NAME || target.skillName === undefined) return false;
  const rule = (skillForm[1] ?? "").trim();
  if (matchesSkillRule(rule, target.skillName.replace(/^\//, ""))) return true;
  return target.skillAlias !== undefined && matchesSkillRule(rule, target.skillAlias);
}

function matchesSkillRule(rule: string, skillName: string): boolean {
  if (rule === "" || rule === "*") return true;
  if (rule.endsWith(":*")) return skillName.startsWith(rule.slice(0, -2));
  return skillName === rule;
}

/**
 * RE2 (re2js), loaded on the first regex matcher: linear time, so a matcher from a skill or an agent's settings
 * cannot hold the event loop with a backtracking pattern. Required, not imported, to keep it off start-up.
 */
const re2 = lazy((): { compile(pattern: string): { matcher(input: string): { matches(): boolean } } } => {
  const loaded: unknown = packageRequire()("re2js");
  if (typeof loaded !== "object" || loaded === null || !("RE2JS" in loaded))
    throw new Error("re2js has no RE2JS");
  return loaded.RE2JS as { compile(pattern: string): { matcher(input: string): { matches(): boolean } } };
});

/** Whether the whole of `name` matches `pattern` in RE2 syntax; an invalid or unsupported pattern matches nothing. */
function matchesRegex(pattern: string, name: string): boolean {
  try {
    return re2().compile(`(?:${pattern})`).matcher(name).matches();
  } catch {
    return false;
  }
}

/** Splits on `|` outside parentheses and brackets, honouring backslash escapes. */
function splitAlternatives(pattern: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
    } else if (inClass) {
      if (ch === "]") inClass = false;
    } else if (ch === "[") {
      inClass = true;
    } else if (ch === "(") {
      depth++;
    } else if (ch === ")") {
      depth = Math.max(0, depth - 1);
    } else if (ch === "|" && depth === 0) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts;
}
