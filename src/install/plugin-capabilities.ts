import { capabilityText } from "../approvals/capabilities.js";
import { capabilityBody, inspectSkill } from "../approvals/skill-approvals.js";
import type { FileModeOps } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import type { LoadedPlugin } from "../plugins/load-plugin.js";

/** One line per power, as they are approved and compared: keep it stable (the lock stores these lines). */
function hookLines(plugin: LoadedPlugin): string[] {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(plugin.hooks)) {
    for (const group of groups ?? []) {
      for (const hook of group.hooks) {
        // The hook as configured, but for the plugin's own folder (which differs between copies of it).
        const { once: _once, timeout: _timeout, ...what } = hook as Record<string, unknown>;
        const text = JSON.stringify(what).split(plugin.root).join("<plugin root>");
        lines.push(`hook ${event} [${group.matcher ?? "*"}] ${text}`);
      }
    }
  }
  return lines;
}

/**
 * What an installed plugin can do, one line each, sorted: each hook (event, matcher, the hook itself), each MCP
 * server (its whole config), each command and agent, and each skill's capabilities (allowed-tools, hooks, inline
 * shell, fork, scripts, as an approval pins a skill's). An update that adds a line gains that power.
 */
export async function pluginCapabilities(
  fs: FsOps,
  modes: FileModeOps,
  plugin: LoadedPlugin,
  signal?: AbortSignal,
): Promise<string[]> {
  const relative = (text: string) => text.split(plugin.root).join("<plugin root>");
  const lines = hookLines(plugin);
  for (const [name, config] of Object.entries(plugin.mcpServers)) {
    lines.push(`mcp server ${name} ${relative(JSON.stringify(config))}`);
  }
  for (const agent of plugin.agents) lines.push(`agent ${agent.name}`);
  for (const skill of plugin.skills) {
    if (skill.kind === "command") lines.push(`command ${skill.name}`);
    const body = await capabilityBody(skill, signal);
    const { capabilities } = await inspectSkill(fs, skill, body, modes);
    for (const capability of capabilities) {
      lines.push(
        `${skill.kind === "command" ? "command" : "skill"} ${skill.name}: ${relative(capabilityText(capability))}`,
      );
    }
  }
  return [...new Set(lines)].sort();
}

/** The lines of `next` that `approved` lacks: what an update gains. Pure. */
export function gainedPowers(approved: readonly string[], next: readonly string[]): string[] {
  const had = new Set(approved);
  return next.filter((line) => !had.has(line));
}
