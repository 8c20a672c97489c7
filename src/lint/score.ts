import type { LintFinding, LintSeverity } from "./rules.js";

/** Points one finding takes off a skill's score, by severity (documented in the README). */
export const SCORE_PENALTY: Readonly<Record<LintSeverity, number>> = { error: 25, warning: 10, info: 0 };

/** Findings of one code that count towards the score at most (ten broken links are one problem, repeated). */
export const MAX_COUNTED_PER_CODE = 2;

/** The best score. */
export const MAX_SCORE = 100;

/**
 * A skill's 0–100 score: 100 minus {@link SCORE_PENALTY} per finding (errors 25, warnings 10, info 0), counting
 * at most {@link MAX_COUNTED_PER_CODE} findings of each code and severity (the worst first), at least 0. Pure.
 */
export function lintScore(findings: readonly LintFinding[]): number {
  const counted = new Map<string, number>();
  let lost = 0;
  const worstFirst = [...findings].sort((a, b) => SCORE_PENALTY[b.severity] - SCORE_PENALTY[a.severity]);
  for (const f of worstFirst) {
    const key = `${f.code}:${f.severity}`;
    const n = counted.get(key) ?? 0;
    if (n >= MAX_COUNTED_PER_CODE) continue;
    counted.set(key, n + 1);
    lost += SCORE_PENALTY[f.severity];
  }
  return Math.max(0, MAX_SCORE - lost);
}
