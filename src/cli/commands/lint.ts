import { basename, relative, resolve } from "node:path";
import type { FsOps } from "../../io/fs.js";
import { collectSkill, findSkillFiles } from "../../lint/collect.js";
import { type LintFinding, type ListingCost, type ListingModels, listingCost } from "../../lint/rules.js";
import { type ScorePart, scoreParts } from "../../lint/score.js";
import { lintModels, skillFindings } from "../../lint/skill-findings.js";
import type { CliIo } from "../io.js";

/** Where `lint` looks when given no path: the project's skill dirs that exist, else the cwd. */
const PROJECT_SKILL_DIRS = [".claude/skills", ".agents/skills"] as const;

interface SkillReport {
  path: string;
  name: string | undefined;
  score: number;
  /** What the score is made of: `base`, then each finding's points, then `floor` or `invalid`; they sum to it. */
  scoreParts: ScorePart[];
  /** True when the skill could not be loaded (its findings say why). */
  unloaded: boolean;
  /** The listing entry's cost per model; absent when the skill did not load. */
  listing?: Record<keyof ListingModels, ListingCost>;
  /** Validation's diagnostics (both profiles), then the lint rules' findings. */
  findings: LintFinding[];
}

async function targets(fs: FsOps, io: CliIo, paths: readonly string[]): Promise<string[]> {
  if (paths.length > 0) return paths.map((p) => resolve(io.cwd, p));
  const found: string[] = [];
  for (const dir of PROJECT_SKILL_DIRS) {
    const abs = resolve(io.cwd, dir);
    const kind = await fs.stat(abs).then(
      (s) => s.kind,
      () => undefined,
    );
    if (kind === "dir") found.push(abs);
  }
  return found.length > 0 ? found : [io.cwd];
}

/**
 * `skillwright lint [path...] [--json] [--min-score N]`: runs the lint rules on every skill at the paths (a
 * skill dir, a dir of skills, a plugin; the project's skill dirs by default) and scores each 0–100. Every
 * `validate --spec` diagnostic is a finding (see `validationFindings`), and a validation error caps the score at
 * 0. Exit 1 when any skill has an error finding, does not load, scores below `minScore`, or no skill is found.
 */
export async function lintCommand(
  fs: FsOps,
  io: CliIo,
  paths: readonly string[],
  options: { json: boolean; minScore: number | undefined },
): Promise<number> {
  const models = lintModels(io.env);
  const reports: SkillReport[] = [];
  const missing: string[] = [];
  for (const target of await targets(fs, io, paths)) {
    const files = await findSkillFiles(fs, target);
    if (files.length === 0) missing.push(target);
    for (const file of files) {
      const collected = await collectSkill(fs, file);
      const findings = skillFindings(collected, models, basename(file));
      const parts = scoreParts(findings);
      const skill = collected.skill;
      reports.push({
        path: file,
        ...(skill === undefined
          ? {}
          : {
              listing: { "200k": listingCost(skill, models["200k"]), "1M": listingCost(skill, models["1M"]) },
            }),
        name: collected.skill?.name,
        score: parts.reduce((sum, part) => sum + part.points, 0),
        scoreParts: parts,
        unloaded: collected.subject === undefined,
        findings,
      });
    }
  }
  const minScore = options.minScore;
  const failing = (r: SkillReport) =>
    r.unloaded ||
    r.findings.some((f) => f.severity === "error") ||
    (minScore !== undefined && r.score < minScore);
  const failed = missing.length > 0 || reports.some(failing);
  const scores = reports.map((r) => r.score);
  const summary = {
    skills: reports.length,
    mean: scores.length === 0 ? 0 : Math.round(scores.reduce((a, b) => a + b, 0) / scores.length),
    min: scores.length === 0 ? 0 : Math.min(...scores),
    max: scores.length === 0 ? 0 : Math.max(...scores),
    errors: reports.reduce((n, r) => n + r.findings.filter((f) => f.severity === "error").length, 0),
    warnings: reports.reduce((n, r) => n + r.findings.filter((f) => f.severity === "warning").length, 0),
  };
  if (options.json) {
    io.stdout(
      `${JSON.stringify({ ok: !failed, minScore: minScore ?? null, summary, missing, skills: reports }, null, 2)}\n`,
    );
    return failed ? 1 : 0;
  }
  const out: string[] = [];
  for (const path of missing) out.push(`✗ ${path}: no SKILL.md here or below`);
  for (const r of reports) {
    const shown = relative(io.cwd, r.path) || r.path;
    const below = minScore !== undefined && r.score < minScore ? ` (below --min-score ${minScore})` : "";
    out.push(
      `${failing(r) ? "✗" : "✓"} ${shown}${r.name === undefined ? "" : ` (${r.name})`}: score ${r.score}${below}`,
    );
    for (const f of r.findings) {
      const where =
        f.profile === undefined
          ? `${f.file}:${f.line}`
          : `${f.file} (validate${f.profile === "spec" ? " --spec" : ""})`;
      out.push(`    ${f.severity.padEnd(7)} ${f.code} ${where}: ${f.message}`);
    }
    if (r.scoreParts.some((p) => p.code === "invalid")) {
      out.push("    score 0: the skill fails validation (`skillwright validate --spec` says the same)");
    }
  }
  out.push(
    `${summary.skills} skill(s), score mean ${summary.mean}, min ${summary.min}, max ${summary.max}; ${summary.errors} error(s), ${summary.warnings} warning(s)`,
  );
  io.stdout(`${out.join("\n")}\n`);
  return failed ? 1 : 0;
}
