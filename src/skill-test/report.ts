import { isAbsolute, relative } from "node:path";
import { adviceLines } from "./advice.js";
import type { CaseFileError } from "./cases.js";
import { lineDiff } from "./line-diff.js";
import type { CaseOutcome } from "./outcome.js";
import type { TestRun } from "./run-tests.js";

/** True when every case passed and every tests file parsed. */
export function runPassed(run: TestRun): boolean {
  return run.fileErrors.length === 0 && run.outcomes.every((o) => o.passed);
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
    out.push(`${mark} ${o.skill} › ${o.name} (${o.kind}, ${shown(o.file, cwd)}:${o.line})${note}`);
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

function testcase(o: CaseOutcome): string {
  const open = `    <testcase classname="${xmlEscape(o.skill)}" name="${xmlEscape(o.name)}" file="${xmlEscape(o.file)}" line="${o.line}">`;
  if (o.skipped !== undefined) return `${open}<skipped message="${xmlEscape(o.skipped)}"/></testcase>`;
  if (o.passed) return `${open}</testcase>`;
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
