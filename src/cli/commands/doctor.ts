import type { Diagnostic } from "../../diagnostics.js";
import type { Engine } from "../../engine/engine.js";
import { engineAgentTypes } from "../../engine/engine-agent-types.js";
import { skillHookDiagnostics } from "../../hooks/skill-hooks.js";
import { describeVisibility, visibilityCounts } from "../../listing/visibility.js";
import { SKILL_TIERS } from "../../skill/skill.js";
import { type DisabledSkill, disabledSource } from "../../skill-filter.js";
import type { CliArgs } from "../args.js";
import { sandboxLines, sandboxReport } from "../cli-sandbox.js";
import type { CliIo } from "../io.js";
import { type ListingReport, listingReport } from "../listing-report.js";
import { mcpServerLines, mcpServerReports } from "../mcp-report.js";
import { heldSkills, skillChangedDiagnostic } from "../skill-approval.js";
import { doctorPromptCommand } from "./doctor-prompt.js";

/** Diagnostics grouped by the file they are about, files in first-seen order. Pure. */
export function groupByPath(diagnostics: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = d.path ?? "(general)";
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [d]);
    else group.push(d);
  }
  return groups;
}

/**
 * The listing part of `doctor`'s text: the headline (model, window, chars against the budget, name-only and
 * omitted counts, whether the skill search is offered), one `cut:` line per shortened entry and one
 * `omitted:` line per skill left out of the listing (SPEC §3). Pure.
 */
export function listingSummary(report: ListingReport): string[] {
  const { listing } = report;
  const nameOnly = listing.entries.filter((e) => e.nameOnly).length;
  const counts = [
    ...(nameOnly > 0 ? [`${nameOnly} name-only`] : []),
    ...(listing.omitted.length > 0 ? [`${listing.omitted.length} not listed`] : []),
  ];
  const lines = [
    `Listing for ${report.model} (context window ${report.contextWindow ?? "unknown"} tokens): ${listing.chars} of ${report.budget} chars budget${counts.length > 0 ? `, ${counts.join(", ")}` : ""}`,
  ];
  if (report.skillSearch)
    lines.push("  SkillSearch tool offered: the listing can cut descriptions or leave skills out");
  for (const cut of listing.cut) {
    lines.push(`  cut: ${cut.name}: ${cut.reason} (${cut.droppedChars} chars dropped)`);
  }
  const how = report.skillSearch ? "found by SkillSearch" : "callable by exact name";
  for (const name of listing.omitted) lines.push(`  omitted: ${name} (not listed; ${how})`);
  return lines;
}

/**
 * The `Visibility` part of `doctor`'s text: how many skills the model sees in full, cut, by name only or not at
 * all (for the first prompt the listing was packed for), then one line per skill: its name and
 * `describeVisibility` of what it sees. Pure.
 */
export function visibilityLines(report: ListingReport): string[] {
  const counts = visibilityCounts(report.visibility);
  const prompt =
    report.firstPrompt === "" ? "no first prompt" : `first prompt ${JSON.stringify(report.firstPrompt)}`;
  const lines = [
    `Visibility (${prompt}): ${counts.full} full, ${counts.cut} cut, ${counts["name-only"]} name-only, ${counts.absent} absent`,
  ];
  const width = Math.min(40, Math.max(0, ...report.visibility.map((v) => v.name.length)));
  for (const { name, visibility } of report.visibility) {
    lines.push(`  ${name.padEnd(width)}  ${describeVisibility(visibility)}`);
  }
  return lines;
}

/** What `doctor` prints and when it fails. */
export interface DoctorOptions {
  json: boolean;
  /** The model whose listing is shown (default: the default model). */
  model?: string | undefined;
  /** `--first-prompt`: show the listing of a session opened with this prompt (its focus, issue #25 item 4). */
  firstPrompt?: string | undefined;
  /** Exit 1 when any diagnostic is a warning or an error (a CI gate); info never fails. */
  strict?: boolean;
  /** `--prompt`: print the assembled system prompt for a session run with these args instead. */
  prompt?: CliArgs | undefined;
}

/**
 * `skillwright doctor`: every root scanned and whether it exists, counts per source, every diagnostic grouped
 * by file (a `skill-changed` warning for each skill held by its approval), and the files that look like skills but were ignored (and why). Exit code 0, or 1 with `strict`
 * when a warning or error was found (the report is printed either way).
 */
export async function doctorCommand(engine: Engine, io: CliIo, options: DoctorOptions): Promise<number> {
  if (options.prompt !== undefined) return doctorPromptCommand(engine, io, options.prompt);
  const { json, model } = options;
  const discovery = await engine.discover();
  const report = await listingReport(engine, model, Date.now(), options.firstPrompt ?? "");
  const listingJson = {
    model: report.model,
    contextWindow: report.contextWindow,
    budget: report.budget,
    maxDescChars: report.maxDescChars,
    skillSearch: report.skillSearch,
    chars: report.listing.chars,
    text: report.listing.text,
    nameOnly: report.listing.entries
      .filter((e) => e.nameOnly)
      .map((e) => ({ name: e.name, reason: e.reason })),
    cut: report.listing.cut,
    omitted: report.listing.omitted,
    firstPrompt: report.firstPrompt,
    visibilityCounts: visibilityCounts(report.visibility),
    visibility: report.visibility.map(({ name, visibility }) => ({ name, ...visibility })),
  };
  const { gitRoot, projectDir } = await engine.roots();
  const counts = Object.fromEntries(
    SKILL_TIERS.map((source) => [source, discovery.skills.filter((s) => s.source === source).length]),
  );
  const ignored = discovery.diagnostics.filter((d) => d.code === "ignored-file");
  const held = await heldSkills(engine, discovery.skills);
  // Offline unless `--start-mcp`: then every approved server is started and listed.
  const extensions = await engine.extensions();
  const agentTypes = await engineAgentTypes(engine, await engine.roots(), extensions);
  const problems = [
    ...discovery.diagnostics.filter((d) => d.code !== "ignored-file"),
    ...held.map(({ skill, gains }) => skillChangedDiagnostic(skill, gains)),
    // A skill's hooks are checked now, not first when the skill is invoked.
    ...discovery.skills.flatMap(skillHookDiagnostics),
    // The agent files a fork would run as: a bad one is found now, not at the first fork.
    ...agentTypes.diagnostics,
  ];
  const exitCode = options.strict === true && problems.some((d) => d.severity !== "info") ? 1 : 0;
  const live = extensions.startMcp ? await extensions.mcp?.summary() : undefined;
  const mcpServers = mcpServerReports(extensions.mcpServers, live);
  const sandbox = await sandboxReport(engine, process.platform);
  if (json) {
    const out = {
      cwd: engine.cwd,
      projectDir,
      gitRoot,
      roots: discovery.roots,
      counts,
      diagnostics: problems,
      ignored,
      disabled: disabledJson(discovery.disabled ?? []),
      listing: listingJson,
      mcpServers,
      sandbox: {
        tier: sandbox.tier,
        ...(sandbox.unavailable === undefined ? {} : { unavailable: sandbox.unavailable }),
        ...sandbox.sandbox,
      },
    };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return exitCode;
  }
  const out: string[] = [
    `cwd: ${engine.cwd}`,
    `project dir: ${projectDir}${gitRoot ? " (git root)" : ""}`,
    "",
  ];
  out.push("Roots (precedence order):");
  for (const root of discovery.roots) {
    const state = root.exists ? `${root.count} loaded` : "missing";
    out.push(`  ${root.exists ? "✓" : "·"} ${root.label.padEnd(20)} ${root.dir}  (${state})`);
  }
  out.push("", ...sandboxLines(sandbox));
  out.push("", "Skills per source:");
  for (const source of SKILL_TIERS) out.push(`  ${source.padEnd(8)} ${counts[source]}`);
  out.push(`  total    ${discovery.skills.length}`);
  out.push("", problems.length === 0 ? "Diagnostics: none" : `Diagnostics (${problems.length}):`);
  for (const [path, group] of groupByPath(problems)) {
    out.push(`  ${path}`);
    for (const d of group) out.push(`    ${d.severity.padEnd(7)} ${d.code}: ${d.message}`);
  }
  if (mcpServers.length > 0) {
    out.push("", `MCP servers (${mcpServers.length}):`, ...mcpServerLines(mcpServers));
  }
  if (ignored.length > 0) {
    out.push("", `Ignored (${ignored.length}): files that look like skills but are not loaded`);
    for (const d of ignored) out.push(`  ${d.path ?? ""}`, `    ${d.message}`);
  }
  out.push(...disabledLines(discovery.disabled ?? []));
  out.push("", ...visibilityLines(report));
  out.push("", ...listingSummary(report));
  out.push(report.listing.text === "" ? "  (no listable skills)" : report.listing.text);
  io.stdout(`${out.join("\n")}\n`);
  if (exitCode !== 0) io.stderr("doctor --strict: warnings or errors found (listed above)\n");
  return exitCode;
}

/** The `disabled` section of `doctor --json`: each switched-off skill and what switched it off. Pure. */
export function disabledJson(disabled: readonly DisabledSkill[]): Record<string, unknown>[] {
  return disabled.map(({ skill, by }) => ({
    name: skill.name,
    source: skill.source,
    path: skill.filePath,
    by:
      by.kind === "setting"
        ? { setting: "skills.disabled", ...by }
        : by.kind === "override"
          ? { setting: "skillOverrides", ...by }
          : by,
    reason: disabledSource(by),
  }));
}

/** The `Disabled (n):` section of doctor's text output; nothing when no skill is disabled. Pure. */
export function disabledLines(disabled: readonly DisabledSkill[]): string[] {
  if (disabled.length === 0) return [];
  const lines = [
    "",
    `Disabled (${disabled.length}): skills found but switched off, neither listed nor invocable`,
  ];
  for (const { skill, by } of disabled) {
    // An unmet need is said on the skill's own line.
    if (by.kind === "unmet") lines.push(`  ${skill.name}  [${skill.source}]  ${by.why}`);
    else lines.push(`  ${skill.name}  [${skill.source}]`, `    by ${disabledSource(by)}`);
  }
  return lines;
}
