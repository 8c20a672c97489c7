import { decide } from "./decide.js";
import type { PermissionDecision, PermissionRules } from "./decision.js";

/** Where a read-rule check runs: the working directory, and the home dir for `~/…` rules. */
export interface ReadRuleDirs {
  cwd: string;
  home: string;
}

/**
 * What the `Read` deny and ask rules say about reading the file at `path` (absolute): a deny rule → deny, an ask
 * rule → ask, otherwise allow (allow rules and the read-only default play no part: the caller's own decision
 * stands). The same matching as a `Read` call on that path. Pure.
 */
export function readRuleDecision(
  rules: PermissionRules,
  path: string,
  dirs: ReadRuleDirs,
): PermissionDecision {
  return decide({
    rules,
    tool: "Read",
    subject: { kind: "path", path },
    cwd: dirs.cwd,
    home: dirs.home,
    safe: true,
  });
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** The stricter of two decisions: deny over ask over allow; on a tie, the first. Pure. */
export function stricter(a: PermissionDecision, b: PermissionDecision): PermissionDecision {
  return RANK[b.behavior] > RANK[a.behavior] ? b : a;
}
