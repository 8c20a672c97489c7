import { relative, resolve } from "node:path";
import type { Diagnostic } from "../../diagnostics.js";
import type { FsOps } from "../../io/fs.js";
import { pluginDataRoot } from "../../plugins/plugin-data.js";
import { type PluginReport, validatePlugins } from "../../plugins/validate-plugin.js";
import type { CliIo } from "../io.js";

function count(diagnostics: readonly Diagnostic[], severity: Diagnostic["severity"]): number {
  return diagnostics.filter((d) => d.severity === severity).length;
}

function where(d: Diagnostic, root: string): string {
  if (d.path === undefined) return "";
  const rel = relative(root, d.path);
  return ` (${rel === "" ? "." : rel.startsWith("..") ? d.path : rel})`;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? "-" : items.join(", ");
}

function describePlugin(report: PluginReport): string[] {
  const errors = count(report.diagnostics, "error");
  const warnings = count(report.diagnostics, "warning");
  const title =
    report.name === undefined
      ? "(not loaded)"
      : `${report.name}${report.version ? ` ${report.version}` : ""}`;
  const out = [
    `${report.ok ? "✓" : "✗"} ${title} at ${report.root}: ${errors} error(s), ${warnings} warning(s)`,
  ];
  if (report.name !== undefined) {
    const hooks = Object.entries(report.hooks).map(([event, n]) => `${event} ×${n}`);
    const servers = Object.entries(report.mcpServers).map(([name, kind]) => `${name} (${kind})`);
    out.push(
      `    skills:   ${list(report.skills)}`,
      `    commands: ${list(report.commands)}`,
      `    agents:   ${list(report.agents)}`,
      `    hooks:    ${list(hooks)}`,
      `    mcp:      ${list(servers)}`,
    );
  }
  for (const d of report.diagnostics) {
    out.push(`    ${d.severity.padEnd(7)} ${d.code}: ${d.message}${where(d, report.root)}`);
  }
  return out;
}

/**
 * `skillwright plugin validate <dir> [--json]` (SPEC §11): loads the plugin as the engine would and checks its
 * manifest, every skill, command and agent (engine profile), hooks JSON, MCP server shapes and fork agent
 * references. A dir holding only `.claude-plugin/marketplace.json` validates every local plugin it lists.
 * Prints a report (or JSON with `--json`); returns exit code 1 when anything has an error diagnostic, else 0.
 */
export async function pluginValidateCommand(
  fs: FsOps,
  io: CliIo,
  dir: string,
  json: boolean,
): Promise<number> {
  const target = resolve(io.cwd, dir);
  const report = await validatePlugins({ fs, dir: target, dataRoot: pluginDataRoot(io.home) });
  if (json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return report.ok ? 0 : 1;
  }
  const out: string[] = [];
  if (report.marketplace !== undefined) {
    const m = report.marketplace;
    out.push(`marketplace ${m.name ?? "(invalid)"} at ${m.file}: ${report.plugins.length} local plugin(s)`);
    for (const d of m.diagnostics) out.push(`    ${d.severity.padEnd(7)} ${d.code}: ${d.message}`);
  }
  for (const plugin of report.plugins) out.push(...describePlugin(plugin));
  const failed = report.plugins.filter((p) => !p.ok).length;
  out.push(
    report.ok
      ? `valid (${report.plugins.length} plugin${report.plugins.length === 1 ? "" : "s"})`
      : `validation failed${failed > 0 ? ` (${failed} plugin${failed === 1 ? "" : "s"} with errors)` : ""}`,
  );
  io.stdout(`${out.join("\n")}\n`);
  return report.ok ? 0 : 1;
}
