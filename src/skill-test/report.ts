import { isAbsolute, relative } from "node:path";
import { adviceLines } from "./advice.js";
import { type BaselineResult, MEASURES, type Measure, totalBaseline } from "./baseline.js";
import type { CaseFileError } from "./cases.js";
import { lineDiff } from "./line-diff.js";
import type { CaseOutcome } from "./outcome.js";
import type { TestRun } from "./run-tests.js";

/** True when every case passed and every tests file parsed. */
export function runPassed(run: TestRun): boolean {
  return run.fileErrors.length === 0 && run.outcomes.every((o) => o.passed);
}

/** How each measure is named in the reports. */
const MEASURE_LABELS: Record<Measure, string> = {
  passRate: "pass rate",
  requests: "model requests",
  inputTokens: "input tokens",
  outputTokens: "output tokens",
  cacheReadTokens: "cache reads",
  wallMs: "wall time (ms)",
};

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A baseline as lines: each measure with (mean ± sd), without, and the difference; then its pin. Pure. */
export function baselineLines(
  b: Omit<BaselineResult, "pin" | "pinHeld"> & Partial<BaselineResult>,
): string[] {
  const cells = MEASURES.map((m) => [
    MEASURE_LABELS[m],
    `${b.with[m].mean} ± ${b.with[m].sd}`,
    `${b.without[m].mean} ± ${b.without[m].sd}`,
    signed(b.delta[m]),
  ]);
  const rows = [["", "with skill", "without", "difference"], ...cells];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join("  "));
  lines.push(
    `passed runs: with ${b.with.passed}/${b.with.runs}, without ${b.without.passed}/${b.without.runs}`,
  );
  if (b.pin !== undefined) {
    const margin = b.pin.passRate === undefined ? "" : ` by at least ${b.pin.passRate}`;
    lines.push(`pinned: the ${b.pin.wins}-skill side must win${margin}: ${b.pinHeld ? "held" : "not held"}`);
  }
  return lines;
}

/** `file` relative to `cwd` when it lies inside it, else as given. Pure. */
function shown(file: string, cwd: string | undefined): string {
  if (cwd === undefined) return file;
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

/**
 * The readable report: one line per case, the reasons (and a diff for `exact`) under each failure, tests files
 * shown relative to `cwd` when inside it. Pure.
 */
export function textReport(run: TestRun, cwd?: string): string {
  const out: string[] = [];
  const fileError = (e: CaseFileError) => `✗ ${shown(e.file, cwd)}:${e.line}:${e.column}: ${e.message}`;
  for (const o of run.outcomes) {
    const mark = o.skipped !== undefined ? "-" : o.passed ? "✓" : "✗";
    const note = o.skipped === undefined ? "" : ` skipped: ${o.skipped}`;
    const measured = o.baseline === undefined ? "" : ` baseline, ${o.baseline.runs} run(s) per side`;
    out.push(`${mark} ${o.skill} › ${o.name} (${o.kind}, ${shown(o.file, cwd)}:${o.line})${measured}${note}`);
    if (o.baseline !== undefined) out.push(...baselineLines(o.baseline).map((l) => `    ${l}`));
    if (o.kind === "trigger" && o.actual !== undefined)
      out.push(...o.actual.split("\n").map((l) => `    ${l}`));
    if (o.passed) continue;
    for (const f of o.failures) out.push(`    ${f.replaceAll("\n", "\n      ")}`);
    if (o.advice !== undefined) out.push(...adviceLines(o.advice).map((l) => `    ${l}`));
    if (o.kind === "session" && o.actual !== undefined) {
      out.push("    the session made:", ...o.actual.split("\n").map((l) => `      ${l}`));
    }
    if (o.expected !== undefined && o.actual !== undefined && o.expected !== o.actual) {
      out.push(
        "    diff (- expected, + actual):",
        ...lineDiff(o.expected, o.actual).map((l) => `      ${l}`),
      );
    } else if (o.actual !== undefined && o.kind === "listing") out.push(`    entry: ${o.actual}`);
  }
  out.push(...run.fileErrors.map(fileError));
  const measured = run.outcomes.flatMap((o) => (o.baseline === undefined ? [] : [o.baseline]));
  if (measured.length > 0) {
    out.push(
      `baseline, ${measured.length} case(s), ${run.baselineRuns ?? 0} run(s) per side (per run: every case's pass share, costs summed):`,
      ...baselineLines(totalBaseline(measured)).map((l) => `    ${l}`),
    );
  }
  if (run.declined === true) out.push("baseline not run: its sessions were not approved");
  const failed = run.outcomes.filter((o) => !o.passed).length;
  const skipped = run.outcomes.filter((o) => o.skipped !== undefined).length;
  const passed = run.outcomes.length - failed - skipped;
  const bad = run.fileErrors.length === 0 ? "" : `, ${run.fileErrors.length} tests-file error(s)`;
  out.push(
    run.outcomes.length === 0 && run.fileErrors.length === 0
      ? `no test cases found (${run.skillsTested} skill(s) with tests/)`
      : `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}${bad} (${run.skillsTested} skill(s))`,
  );
  return `${out.join("\n")}\n`;
}

/** The whole run's baseline: the runs per side and the totals over the measured cases. Pure. */
function baselineTotal(run: TestRun) {
  const measured = run.outcomes.flatMap((o) => (o.baseline === undefined ? [] : [o.baseline]));
  const { with: withSide, without, delta } = totalBaseline(measured);
  const { results: _w, ...withStats } = withSide;
  const { results: _o, ...withoutStats } = without;
  return {
    runs: run.baselineRuns,
    cases: measured.length,
    declined: run.declined === true,
    with: withStats,
    without: withoutStats,
    delta,
  };
}

/** The `--json` report. Pure. */
export function jsonReport(run: TestRun): string {
  const record = {
    ok: runPassed(run),
    passed: run.outcomes.filter((o) => o.passed && o.skipped === undefined).length,
    skipped: run.outcomes.filter((o) => o.skipped !== undefined).length,
    failed: run.outcomes.filter((o) => !o.passed).length,
    skills: run.skillsTested,
    cases: run.outcomes,
    fileErrors: run.fileErrors,
    ...(run.baselineRuns === undefined ? {} : { baseline: baselineTotal(run) }),
  };
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** XML text with `& < > " '` escaped and characters XML 1.0 forbids removed. Pure. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** A baseline case's measures as JUnit properties (`baseline.with.passRate.mean`, …) and its table as output. */
function baselineXml(b: BaselineResult): string {
  const props: [string, number][] = [["baseline.runs", b.runs]];
  for (const m of MEASURES) {
    props.push(
      [`baseline.with.${m}.mean`, b.with[m].mean],
      [`baseline.with.${m}.sd`, b.with[m].sd],
      [`baseline.without.${m}.mean`, b.without[m].mean],
      [`baseline.without.${m}.sd`, b.without[m].sd],
      [`baseline.delta.${m}`, b.delta[m]],
    );
  }
  const properties = props.map(([name, value]) => `        <property name="${name}" value="${value}"/>`);
  return `\n      <properties>\n${properties.join("\n")}\n      </properties>\n      <system-out>${xmlEscape(baselineLines(b).join("\n"))}</system-out>`;
}

function testcase(o: CaseOutcome): string {
  const extra = o.baseline === undefined ? "" : baselineXml(o.baseline);
  const open = `    <testcase classname="${xmlEscape(o.skill)}" name="${xmlEscape(o.name)}" file="${xmlEscape(o.file)}" line="${o.line}">${extra}`;
  if (o.skipped !== undefined) return `${open}<skipped message="${xmlEscape(o.skipped)}"/></testcase>`;
  if (o.passed) return `${open}${extra === "" ? "" : "\n    "}</testcase>`;
  const message = xmlEscape(o.failures.join("; "));
  const detail = xmlEscape(
    [
      ...o.failures,
      ...(o.actual === undefined ? [] : ["actual:", o.actual]),
      ...(o.advice === undefined ? [] : adviceLines(o.advice)),
    ].join("\n"),
  );
  return `${open}\n      <failure message="${message}" type="${xmlEscape(o.kind)}">${detail}</failure>\n    </testcase>`;
}

/**
 * JUnit XML for CI: one `<testsuite>` per skill (cases as `<testcase>`, failures as `<failure>`), and one
 * `tests-files` suite with an errored case per tests-file mistake. Pure.
 */
export function junitReport(run: TestRun): string {
  const bySkill = new Map<string, CaseOutcome[]>();
  for (const o of run.outcomes) bySkill.set(o.skill, [...(bySkill.get(o.skill) ?? []), o]);
  const suites: string[] = [];
  for (const [skill, cases] of bySkill) {
    const failures = cases.filter((c) => !c.passed).length;
    suites.push(
      `  <testsuite name="${xmlEscape(skill)}" tests="${cases.length}" failures="${failures}" errors="0">\n${cases.map(testcase).join("\n")}\n  </testsuite>`,
    );
  }
  if (run.fileErrors.length > 0) {
    const cases = run.fileErrors.map(
      (e) =>
        `    <testcase classname="tests-files" name="${xmlEscape(`${e.file}:${e.line}`)}">\n      <error message="${xmlEscape(e.message)}" type="tests-file"/>\n    </testcase>`,
    );
    suites.push(
      `  <testsuite name="tests-files" tests="${cases.length}" failures="0" errors="${cases.length}">\n${cases.join("\n")}\n  </testsuite>`,
    );
  }
  const failures = run.outcomes.filter((o) => !o.passed).length;
  const total = run.outcomes.length + run.fileErrors.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="skillwright test" tests="${total}" failures="${failures}" errors="${run.fileErrors.length}">\n${suites.join("\n")}\n</testsuites>\n`;
}
