import { gainText } from "../../approvals/capabilities.js";
import type { Engine } from "../../engine/engine.js";
import { loadPromptTemplates } from "../../prompt-templates/load-templates.js";
import type { PromptTemplate } from "../../prompt-templates/template.js";
import { displayName } from "../../skill/skill.js";
import { disabledSource } from "../../skill-filter.js";
import type { CliIo } from "../io.js";
import { writeJsonArray } from "../json-array-stream.js";
import { mcpServerLines, mcpServerReports } from "../mcp-report.js";
import { gainsLine, heldSkills } from "../skill-approval.js";
import { skillFlags, skillToJson } from "../skill-json.js";

/** Longest description shown per line in human output. */
export const LIST_DESCRIPTION_WIDTH = 80;

/**
 * `skillwright list [--json]`: every skill with its source, path, description and flags (a skill held by its
 * approval: the flag `held` and what it gained; `--json`: `held: { code: "skill-changed", gained }`), then every configured
 * MCP server (`--json`: after the skills and the disabled skills, one `{ kind: "mcp-server", … }` entry each,
 * see `McpServerReport`), so
 * a server that failed, waits for approval or was not started is visible, then every prompt template (`--json`:
 * one `{ kind: "prompt-template", … }` entry each, last). Exit code 0.
 */
export async function listCommand(engine: Engine, io: CliIo, json: boolean): Promise<number> {
  const { skills, disabled = [] } = await engine.discover();
  const held = new Map((await heldSkills(engine, skills)).map((h) => [h.skill, h.gains]));
  const extensions = await engine.extensions();
  const live = extensions.startMcp ? extensions.mcp?.status() : undefined;
  const servers = mcpServerReports(extensions.mcpServers, live);
  const { projectDir } = await engine.roots();
  const skillNames = new Set(skills.flatMap((s) => (s.alias === undefined ? [s.name] : [s.name, s.alias])));
  const { templates } = await loadPromptTemplates(engine.fs, { home: engine.home, projectDir }, skillNames);
  if (json) {
    // Streamed, one entry at a time: at 50k skills the whole text (and the mapped copies) was most of the
    // process's peak memory. The same entries, in the same order, as JSON.stringify of the array would give.
    function* entries(): Generator<unknown> {
      for (const skill of skills) {
        const gains = held.get(skill);
        yield gains === undefined
          ? skillToJson(skill)
          : { ...skillToJson(skill), held: { code: "skill-changed", gained: gains.map(gainText) } };
      }
      for (const { skill, by } of disabled)
        yield { ...skillToJson(skill), disabled: { ...by, reason: disabledSource(by) } };
      yield* servers;
      yield* templates.map(templateToJson);
    }
    const write = io.writeStdout ?? io.stdout;
    await writeJsonArray(entries(), (entry) => entry, write);
    await write("\n");
    return 0;
  }
  const serverLines = servers.length === 0 ? [] : ["", "MCP servers:", ...mcpServerLines(servers)];
  const templateLines =
    templates.length === 0 ? [] : ["", "Prompt templates:", ...templates.flatMap(templateListLines)];
  if (skills.length === 0 && disabled.length === 0) {
    const none = "No skills found. Run `skillwright doctor` to see where skillwright looked.";
    io.stdout(`${[none, ...serverLines, ...templateLines].join("\n")}\n`);
    return 0;
  }
  const lines: string[] = [];
  for (const skill of skills) {
    const gains = held.get(skill);
    const flags = [...skillFlags(skill), ...(gains === undefined ? [] : ["held"])];
    // Codex's `short_description` (agents/openai.yaml) is what it shows people; the model still gets `description`.
    const shown = skill.codex?.shortDescription ?? skill.description;
    const description =
      shown.length > LIST_DESCRIPTION_WIDTH ? `${shown.slice(0, LIST_DESCRIPTION_WIDTH - 1)}…` : shown;
    lines.push(
      `${displayName(skill)}${skill.title === undefined ? "" : ` "${skill.title}"`}  [${skill.source}]${flags.length > 0 ? `  {${flags.join(", ")}}` : ""}`,
    );
    lines.push(`    ${description}`);
    lines.push(`    ${skill.filePath === "" ? skill.baseDir : skill.filePath}`);
    if (gains !== undefined) lines.push(`    held (skill-changed): ${gainsLine(gains)}`);
  }
  lines.push(...serverLines, ...templateLines);
  lines.push("", `${skills.length} skill${skills.length === 1 ? "" : "s"}`);
  if (disabled.length > 0) {
    lines.push(
      `${disabled.length} disabled (run \`skillwright doctor\` for why): ${disabled.map((d) => d.skill.name).join(", ")}`,
    );
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

/** A prompt template's entry in `list --json`. Pure. */
export function templateToJson(template: PromptTemplate): Record<string, unknown> {
  return {
    kind: "prompt-template",
    name: template.name,
    description: template.description,
    source: template.source,
    path: template.filePath,
  };
}

/** A prompt template's lines in `list`: `/name  [source]`, its description, its path. Pure. */
export function templateListLines(template: PromptTemplate): string[] {
  const lines = [`/${template.name}  [${template.source}]`];
  if (template.description !== "") lines.push(`    ${template.description}`);
  lines.push(`    ${template.filePath}`);
  return lines;
}
