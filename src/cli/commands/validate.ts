import { resolve } from "node:path";
import { type Diagnostic, hasErrors } from "../../diagnostics.js";
import { skillHookDiagnostics } from "../../hooks/skill-hooks.js";
import type { FsOps } from "../../io/fs.js";
import { type ValidatedFile, validatePath } from "../../skill/validate-path.js";
import type { CliIo } from "../io.js";

/** Which profile found a problem: the engine's own rules and limits, or the Agent Skills specification. */
type Profile = "engine" | "spec";

function tagged(file: ValidatedFile): Array<Diagnostic & { profile: Profile }> {
  return [
    ...file.diagnostics.map((d) => ({ ...d, profile: "engine" as const })),
    ...(file.spec ?? []).map((d) => ({ ...d, profile: "spec" as const })),
  ];
}

/** The verdict on one file: the spec profile's alone with `--spec` (engine limits stay out), else the engine's. */
function passes(file: ValidatedFile, spec: boolean): boolean {
  return !hasErrors(spec && file.spec !== undefined ? file.spec : file.diagnostics);
}

/**
 * `skillwright validate <path> [--spec]`: exit 1 when any file fails the profile asked for: the engine's by
 * default; with `--spec`, the Agent Skills specification's alone, so an engine limit (a 2 MB file, a lowercase
 * `skill.md` discovery skips) is reported under the engine but never fails the spec verdict. Each diagnostic says
 * which profile found it (`profile` in JSON, a heading per profile in text).
 */
export async function validateCommand(fs: FsOps, io: CliIo, target: string, spec: boolean, json: boolean) {
  // A skill's hooks are checked here too, so a hook that would fail when invoked shows now.
  const results = (await validatePath(fs, resolve(io.cwd, target), spec)).map((r) =>
    r.skill === undefined ? r : { ...r, diagnostics: [...r.diagnostics, ...skillHookDiagnostics(r.skill)] },
  );
  const failed = results.some((r) => !passes(r, spec));
  if (json) {
    const report = results.map((r) => ({
      path: r.path,
      name: r.skill?.name,
      ok: passes(r, spec),
      engineOk: !hasErrors(r.diagnostics),
      diagnostics: tagged(r),
    }));
    io.stdout(
      `${JSON.stringify({ ok: !failed, profile: spec ? "spec" : "engine", files: report }, null, 2)}\n`,
    );
    return failed ? 1 : 0;
  }
  const out: string[] = [];
  let engineErrors = 0;
  for (const r of results) {
    const counted = spec && r.spec !== undefined ? r.spec : r.diagnostics;
    const errors = counted.filter((d) => d.severity === "error").length;
    const warnings = counted.filter((d) => d.severity === "warning").length;
    out.push(
      `${errors > 0 ? "✗" : "✓"} ${r.path}${r.skill ? ` (${r.skill.name})` : ""}: ${errors} error(s), ${warnings} warning(s)`,
    );
    const line = (d: Diagnostic) => `    ${d.severity.padEnd(7)} ${d.code}: ${d.message}`;
    if (!spec) {
      out.push(...r.diagnostics.map(line));
      continue;
    }
    engineErrors += r.diagnostics.filter((d) => d.severity === "error").length;
    if (r.diagnostics.length > 0) {
      out.push("  engine (not part of the spec verdict):", ...r.diagnostics.map(line));
    }
    if ((r.spec ?? []).length > 0) out.push("  Agent Skills spec:", ...(r.spec ?? []).map(line));
  }
  const engineNote =
    engineErrors > 0 ? `; the engine reports ${engineErrors} error(s) of its own, listed above` : "";
  out.push(
    failed
      ? "validation failed"
      : `valid (${spec ? `Agent Skills spec profile${engineNote}` : "engine profile"})`,
  );
  io.stdout(`${out.join("\n")}\n`);
  return failed ? 1 : 0;
}
