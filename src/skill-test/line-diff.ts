import { diffLines } from "../tools/diff.js";

/**
 * A line diff of `expected` → `actual` for a report: common lines prefixed `  `, removed `- `, added `+ `
 * (the Edit tool's `diffLines`, so one diff algorithm serves both). Pure.
 */
export function lineDiff(expected: string, actual: string): string[] {
  return diffLines(expected.split("\n"), actual.split("\n")).map((op) => `${op.kind} ${op.line}`);
}
