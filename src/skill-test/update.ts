import { parseDocument, Scalar } from "yaml";
import type { CaseOutcome } from "./outcome.js";

/**
 * The tests file `text` with the `expect.exact` of each failed case in `outcomes` (of this file) set to its
 * actual body. Cases whose expansion failed, or that give no `exact`, are left alone. Pure.
 */
export function updatedCasesText(text: string, outcomes: readonly CaseOutcome[]): string {
  const doc = parseDocument(text);
  for (const o of outcomes) {
    if (o.passed || o.kind !== "expansion" || o.expected === undefined || o.actual === undefined) continue;
    if (o.failures.some((f) => f.startsWith("expansion failed"))) continue;
    const value = new Scalar(o.actual);
    // A body of several lines is written as a block (`|`), readable in review; one line keeps the plain style.
    if (o.actual.includes("\n")) value.type = Scalar.BLOCK_LITERAL;
    doc.setIn(["cases", o.index, "expect", "exact"], value);
  }
  return doc.toString({ lineWidth: 0 });
}
