import type { LintFinding, LintSeverity } from "./rules.js";

/** Points one finding takes off a skill's score, by severity (documented in the README). */
export const SCORE_PENALTY: Readonly<Record<LintSeverity, number>> = { error: 25, warning: 10, info: 0 };

/** Findings of one code that count towards the score at most (ten broken links are one problem, repeated). */
export const MAX_COUNTED_PER_CODE = 2;

/** The best score. */
export const MAX_SCORE = 100;

/**
 * The score of a skill that fails validation (an error from `validate` or `validate --spec`), whatever else it
 * has: below any `--min-score` but 0, and the skill fails lint anyway.
 */
export const INVALID_SCORE = 0;

/** One part of a score: the score is the sum of its parts' points. */
export interface ScorePart {
  /** `base` (the starting 100), a finding's code, `floor` (back up to 0) or `invalid` (the cap for a skill that fails validation). */
  code: LintFinding["code"] | "base" | "floor" | "invalid";
  points: number;
  severity?: LintSeverity;
  file?: string;
  line?: number;
  /** Why a finding costs nothing although its severity has a penalty. */
  note?: string;
}

/**
 * The parts of a skill's score, in the findings' order after `base`: {@link SCORE_PENALTY} per finding (errors
 * 25, warnings 10, info 0), counting at most {@link MAX_COUNTED_PER_CODE} findings of each code and severity;
 * then `floor` when that went below 0, or `invalid` when a validation error caps the score at
 * {@link INVALID_SCORE}. The points sum to the score. Pure.
 */
export function scoreParts(findings: readonly LintFinding[]): ScorePart[] {
  const parts: ScorePart[] = [{ code: "base", points: MAX_SCORE }];
  const counted = new Map<string, number>();
  let total = MAX_SCORE;
  for (const f of findings) {
    const key = `${f.code}:${f.severity}`;
    const n = counted.get(key) ?? 0;
    const part: ScorePart = { code: f.code, severity: f.severity, points: 0, file: f.file, line: f.line };
    if (SCORE_PENALTY[f.severity] > 0 && n >= MAX_COUNTED_PER_CODE) {
      part.note = `only ${MAX_COUNTED_PER_CODE} findings of a code count`;
    } else {
      counted.set(key, n + 1);
      part.points = -SCORE_PENALTY[f.severity];
    }
    total += part.points;
    parts.push(part);
  }
  const invalid = findings.some((f) => f.profile !== undefined && f.severity === "error");
  if (invalid && total !== INVALID_SCORE) parts.push({ code: "invalid", points: INVALID_SCORE - total });
  else if (!invalid && total < 0) parts.push({ code: "floor", points: -total });
  return parts;
}

/** A skill's 0–100 score: the sum of its {@link scoreParts}. Pure. */
export function lintScore(findings: readonly LintFinding[]): number {
  return scoreParts(findings).reduce((sum, part) => sum + part.points, 0);
}
