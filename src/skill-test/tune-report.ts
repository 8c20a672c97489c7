import type { DescriptionScores, TuneResult } from "./run-tune.js";
import type { SplitScore } from "./tune-decision.js";
import type { TunePrompt } from "./tune-split.js";

function percent(value: number | undefined): string {
  return value === undefined ? "n/a" : `${Math.round(value * 100)}%`;
}

/** How many of `prompts` are the skill's own and how many the neighbours'. */
function partSize(prompts: readonly TunePrompt[], skill: string): string {
  const own = prompts.filter((p) => p.owner === skill);
  const should = own.filter((p) => p.expected === "trigger").length;
  return `${prompts.length} prompt(s): ${should} should, ${own.length - should} should-not, ${prompts.length - own.length} of neighbours`;
}

/** The sizes of the split, as the run says them before it starts. Pure. */
export function splitSummary(result: Pick<TuneResult, "skill" | "seed" | "working" | "heldOut">): string {
  return `split (seed ${result.seed}): working ${partSize(result.working, result.skill)}; held out ${partSize(result.heldOut, result.skill)}`;
}

function row(
  label: string,
  part: string,
  score: SplitScore,
  offline: number | undefined,
  neighbours: string[],
) {
  return [
    label,
    part,
    percent(score.recall),
    percent(score.falseTriggers),
    percent(score.score),
    percent(offline),
    ...neighbours.map((n) => percent(score.neighbours.find((x) => x.name === n)?.precision)),
  ];
}

/** The row of a description on one part, or none when it did not run there. */
function rowsOf(
  label: string,
  d: DescriptionScores,
  neighbours: string[],
  part: "working" | "heldOut",
): string[][] {
  const score = d[part];
  if (score === undefined) return [];
  return [row(label, part === "working" ? "working" : "held out", score, d.offline?.[part], neighbours)];
}

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * The before/after table (recall, false triggers, score and the retriever's offline recall of each description
 * on each part it ran on, and each neighbour's precision), the descriptions, and the verdict with its reason.
 * Pure.
 */
export function tuneTextReport(result: TuneResult, file: string, written: boolean): string {
  const neighbours = result.neighbours;
  const header = ["description", "part", "recall", "false", "score", "offline", ...neighbours];
  const rows = [
    header,
    ...[result.current, ...result.candidates].flatMap((d, i) =>
      rowsOf(i === 0 ? "current" : `candidate ${i}`, d, neighbours, "working"),
    ),
    ...[result.current, ...result.candidates].flatMap((d, i) =>
      rowsOf(i === 0 ? "current" : `candidate ${i}`, d, neighbours, "heldOut"),
    ),
  ];
  const lines = [
    `tune ${result.skill}`,
    splitSummary(result),
    `neighbours: ${neighbours.length === 0 ? "none" : neighbours.join(", ")}`,
    "",
    table(rows),
    "",
    `current: ${result.current.description}`,
    ...result.candidates.map(
      (c, i) =>
        `candidate ${i + 1}: ${c.description === "" ? "(empty)" : c.description}${c.problem === undefined ? "" : ` (not run: ${c.problem})`}`,
    ),
    "",
    result.proposal === undefined
      ? `no change proposed: ${result.reason}`
      : `proposed (candidate ${(result.chosen ?? 0) + 1}): ${result.reason}`,
  ];
  if (result.proposal !== undefined) {
    lines.push(
      `description: ${result.proposal}`,
      written ? `written into ${file}` : `run with --write to write it into ${file}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The one JSON document of `tune --json`. Pure. */
export function tuneJsonReport(result: TuneResult, file: string, written: boolean): string {
  return `${JSON.stringify(
    {
      skill: result.skill,
      file,
      seed: result.seed,
      split: {
        working: result.working.map(({ prompt, owner, expected, runs }) => ({
          prompt,
          owner,
          expected,
          runs,
        })),
        heldOut: result.heldOut.map(({ prompt, owner, expected, runs }) => ({
          prompt,
          owner,
          expected,
          runs,
        })),
      },
      neighbours: result.neighbours,
      current: result.current,
      candidates: result.candidates,
      ...(result.chosen === undefined ? {} : { chosen: result.chosen + 1 }),
      verdict: {
        proposed: result.proposal !== undefined,
        reason: result.reason,
        ...(result.proposal === undefined ? {} : { description: result.proposal }),
      },
      written,
    },
    null,
    2,
  )}\n`;
}
