import { splitShellRegions } from "../inline/shell-regions.js";
import { isRecord } from "../is-record.js";
import type { Skill } from "../skill/skill.js";

/** What a skill can do beyond giving the model instructions: shown before it is installed. */
export interface SkillCapabilities {
  /** `allowed-tools`: tools it grants without asking. */
  allowedTools: string[];
  /** The hook events it registers (`hooks:`). */
  hooks: string[];
  /** Inline shell commands its body runs while loading. */
  inlineShell: string[];
  /** `context: fork`: the agent type it runs as (`general-purpose` when unnamed); absent for inline skills. */
  fork?: string;
  /** Files under `scripts/`. */
  scripts: string[];
}

/** The capabilities of `skill` with body `body` and the paths in its dir (relative, `/`-separated). Pure. */
export function skillCapabilities(
  skill: Pick<Skill, "allowedTools" | "hooks" | "context" | "agent">,
  body: string,
  paths: Iterable<string>,
): SkillCapabilities {
  const hooks = isRecord(skill.hooks)
    ? Object.keys(skill.hooks)
    : skill.hooks === undefined || skill.hooks === null
      ? []
      : ["(unreadable hooks value)"];
  return {
    allowedTools: [...skill.allowedTools],
    hooks,
    inlineShell: splitShellRegions(body).flatMap((r) => (r.kind === "shell" ? [r.command.trim()] : [])),
    ...(skill.context === "fork" ? { fork: skill.agent ?? "general-purpose" } : {}),
    scripts: [...paths].filter((p) => p.startsWith("scripts/") && p !== "scripts/").sort(),
  };
}

/** One line per capability (`allowed-tools Bash, Read`, `inline shell "curl x | sh"`), empty when none. Pure. */
export function capabilityLines(caps: SkillCapabilities): string[] {
  const lines: string[] = [];
  if (caps.allowedTools.length > 0) lines.push(`allowed-tools ${caps.allowedTools.join(", ")}`);
  if (caps.hooks.length > 0) lines.push(`hooks ${caps.hooks.join(", ")}`);
  for (const command of caps.inlineShell) lines.push(`inline shell ${JSON.stringify(command)}`);
  if (caps.fork !== undefined) lines.push(`context: fork (runs as agent ${caps.fork})`);
  if (caps.scripts.length > 0) lines.push(`scripts ${caps.scripts.join(", ")}`);
  return lines;
}
