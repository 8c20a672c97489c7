import { splitLines } from "./truncate.js";

/** Unchanged lines shown around each change in a hunk. */
export const DIFF_CONTEXT_LINES = 3;

/**
 * Largest changed region (old lines × new lines) diffed line by line; a larger one is shown as a whole
 * removal plus a whole addition, to keep the LCS table small.
 */
export const DIFF_MAX_CELLS = 4_000_000;

/** One line of a line diff: kept (` `), removed (`-`) or added (`+`). */
export type DiffOp = { kind: " " | "-" | "+"; line: string };

function lcsOps(a: readonly string[], b: readonly string[]): DiffOp[] {
  if (a.length * b.length > DIFF_MAX_CELLS) {
    return [
      ...a.map((line): DiffOp => ({ kind: "-", line })),
      ...b.map((line): DiffOp => ({ kind: "+", line })),
    ];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const lineA = a[i];
    const lineB = b[j];
    if (i < a.length && j < b.length && lineA === lineB && lineA !== undefined) {
      ops.push({ kind: " ", line: lineA });
      i++;
      j++;
    } else if (
      lineA !== undefined &&
      (lineB === undefined || (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))
    ) {
      ops.push({ kind: "-", line: lineA });
      i++;
    } else if (lineB !== undefined) {
      ops.push({ kind: "+", line: lineB });
      j++;
    }
  }
  return ops;
}

/**
 * The line diff of `a` → `b`: common prefix and suffix kept, the region between diffed by longest common
 * subsequence (a region over {@link DIFF_MAX_CELLS} is a whole removal then a whole addition); removals come
 * before additions. Pure.
 */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const same = (lines: readonly string[]) => lines.map((line): DiffOp => ({ kind: " ", line }));
  return [
    ...same(a.slice(0, prefix)),
    ...lcsOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
    ...same(a.slice(a.length - suffix)),
  ];
}

function header(start: number, count: number): string {
  return `${count === 0 ? start : start + 1},${count}`;
}

/**
 * A unified diff (`---`/`+++` headers, `@@` hunks with `DIFF_CONTEXT_LINES` of context) between two texts,
 * line by line. Empty string when they are equal. Pure.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const changed = ops.flatMap((op, i) => (op.kind === " " ? [] : [i]));
  if (changed.length === 0) return "";
  // Line counts before each op, in the old and the new text.
  const aBefore: number[] = [];
  const bBefore: number[] = [];
  let a = 0;
  let b = 0;
  for (const op of ops) {
    aBefore.push(a);
    bBefore.push(b);
    if (op.kind !== "+") a++;
    if (op.kind !== "-") b++;
  }
  const out = [`--- a/${label}`, `+++ b/${label}`];
  let g = 0;
  while (g < changed.length) {
    let last = changed[g] ?? 0;
    const first = last;
    while (g + 1 < changed.length && (changed[g + 1] ?? 0) - last <= 2 * DIFF_CONTEXT_LINES + 1) {
      g++;
      last = changed[g] ?? 0;
    }
    g++;
    const from = Math.max(0, first - DIFF_CONTEXT_LINES);
    const to = Math.min(ops.length, last + 1 + DIFF_CONTEXT_LINES);
    const hunk = ops.slice(from, to);
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${header(aBefore[from] ?? 0, aCount)} +${header(bBefore[from] ?? 0, bCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return out.join("\n");
}
