import { resolve } from "node:path";
import { hasErrors } from "../../diagnostics.js";
import type { FsOps } from "../../io/fs.js";
import { validatePath } from "../../skill/validate-path.js";
import type { CliIo } from "../io.js";

/** `skillwright validate <path> [--spec]`: exit 1 when any file has an error diagnostic. */
export async function validateCommand(fs: FsOps, io: CliIo, target: string, spec: boolean, json: boolean) {
  const results = await validatePath(fs, resolve(io.cwd, target), spec);
  const failed = results.some((r) => hasErrors(r.diagnostics));
  if (json) {
    const report = results.map((r) => ({
      path: r.path,
      name: r.skill?.name,
      ok: !hasErrors(r.diagnostics),
      diagnostics: r.diagnostics,
    }));
    io.stdout(
      `${JSON.stringify({ ok: !failed, profile: spec ? "spec" : "engine", files: report }, null, 2)}\n`,
    );
    return failed ? 1 : 0;
  }
  const out: string[] = [];
  for (const r of results) {
    const errors = r.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = r.diagnostics.filter((d) => d.severity === "warning").length;
    out.push(
      `${errors > 0 ? "✗" : "✓"} ${r.path}${r.skill ? ` (${r.skill.name})` : ""}: ${errors} error(s), ${warnings} warning(s)`,
    );
    for (const d of r.diagnostics) out.push(`    ${d.severity.padEnd(7)} ${d.code}: ${d.message}`);
  }
  out.push(
    failed ? "validation failed" : `valid (${spec ? "engine + Agent Skills spec" : "engine"} profile)`,
  );
  io.stdout(`${out.join("\n")}\n`);
  return failed ? 1 : 0;
}
