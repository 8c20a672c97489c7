import { DEFAULT_AGENT_TYPE } from "../agent-types/agent-types.js";
import { splitShellRegions } from "../inline/shell-regions.js";
import { isRecord } from "../is-record.js";
import type { Skill } from "../skill/skill.js";

/** The longest command or hook target a capability's text quotes; the pin itself keeps the whole text. */
export const MAX_CAPABILITY_TEXT_CHARS = 120;

/**
 * One power a skill carries, as an approval pins it: a tool its `allowed-tools` grants, a hook (event, matcher,
 * type and what it runs), an inline shell command, running as a fork (with its agent type), or a script (a
 * file under `scripts/` or an executable file, with its content hash). `model` and `effort` are not powers.
 */
export type SkillCapability =
  | { kind: "allowed-tools"; rule: string }
  | { kind: "hook"; event: string; matcher: string; type: string; target: string }
  | { kind: "inline-shell"; command: string }
  | { kind: "fork"; agent: string }
  | { kind: "skill-tool"; name: string; command: string }
  | { kind: "script"; path: string; hash: string };

/** A script of a skill: its path relative to the skill's folder (`/`-separated) and its content hash. */
export interface SkillScript {
  path: string;
  hash: string;
}

/** An mcp_tool hook's action: `mcp:{server}/{tool}`, then its input as JSON when it has one (a raw entry). */
function mcpToolTarget(hook: Record<string, unknown>): string {
  const name = `mcp:${String(hook.server ?? "")}/${String(hook.tool ?? "")}`;
  return hook.input === undefined ? name : `${name} ${JSON.stringify(hook.input)}`;
}

/** The hooks a raw `hooks:` value holds, whatever their type; parts that are not hook entries are skipped. */
function hookCapabilities(raw: unknown): SkillCapability[] {
  if (!isRecord(raw)) return [];
  const found: SkillCapability[] = [];
  for (const [event, groups] of Object.entries(raw)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      const matcher = typeof group.matcher === "string" && group.matcher !== "" ? group.matcher : "*";
      for (const hook of group.hooks) {
        if (!isRecord(hook)) continue;
        const type = typeof hook.type === "string" ? hook.type : "(no type)";
        const target =
          type === "mcp_tool"
            ? mcpToolTarget(hook)
            : [hook.command, hook.url, hook.prompt, hook.tool].find((v) => typeof v === "string");
        found.push({ kind: "hook", event, matcher, type, target: typeof target === "string" ? target : "" });
      }
    }
  }
  return found;
}

/**
 * Every power a skill carries (see {@link SkillCapability}), from its frontmatter, its body and its scripts,
 * in a stable order (grants, hooks, inline shell, fork, skill tools, scripts) without repeats. An MCP skill's inline shell
 * never runs, so it is not a power there. Pure.
 */
export function skillCapabilities(
  skill: Pick<
    Skill,
    "allowedTools" | "hooks" | "context" | "agent" | "mcpServer" | "literalBody" | "skillTools"
  >,
  body: string,
  scripts: readonly SkillScript[],
): SkillCapability[] {
  const all: SkillCapability[] = [
    ...skill.allowedTools.map((rule) => ({ kind: "allowed-tools" as const, rule })),
    ...hookCapabilities(skill.hooks),
  ];
  if (skill.mcpServer === undefined && skill.literalBody !== true) {
    for (const region of splitShellRegions(body)) {
      if (region.kind === "shell") all.push({ kind: "inline-shell", command: region.command.trim() });
    }
  }
  if (skill.context === "fork") all.push({ kind: "fork", agent: skill.agent ?? DEFAULT_AGENT_TYPE });
  for (const tool of skill.skillTools ?? [])
    if (tool.kind === "command") all.push({ kind: "skill-tool", name: tool.name, command: tool.command });
  for (const script of [...scripts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    all.push({ kind: "script", path: script.path, hash: script.hash });
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = capabilityKey(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A string that is equal for two capabilities exactly when they are the same power. Pure. */
export function capabilityKey(capability: SkillCapability): string {
  return JSON.stringify(Object.values(capability));
}

function quoted(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, "; ");
  const cut =
    oneLine.length > MAX_CAPABILITY_TEXT_CHARS
      ? `${oneLine.slice(0, MAX_CAPABILITY_TEXT_CHARS - 1)}…`
      : oneLine;
  return JSON.stringify(cut);
}

/**
 * A capability as people read it: `allowed-tools Bash`, `hook PreToolUse Bash command "./check.sh"`,
 * `inline shell "curl x | sh"`, `context: fork (agent Explore)`, `script scripts/deploy.sh`. Long commands are
 * cut at {@link MAX_CAPABILITY_TEXT_CHARS}. Pure.
 */
export function capabilityText(capability: SkillCapability): string {
  switch (capability.kind) {
    case "allowed-tools":
      return `allowed-tools ${capability.rule}`;
    case "hook":
      return `hook ${capability.event} ${capability.matcher} ${capability.type}${capability.target === "" ? "" : ` ${quoted(capability.target)}`}`;
    case "inline-shell":
      return `inline shell ${quoted(capability.command)}`;
    case "fork":
      return `context: fork (agent ${capability.agent})`;
    case "skill-tool":
      return `skill tool ${capability.name} ${quoted(capability.command)}`;
    case "script":
      return `script ${capability.path}`;
  }
}

/** A power a skill has now that its approval did not cover: new, or a script whose content changed. */
export interface CapabilityGain {
  capability: SkillCapability;
  /** A script the approval knew with other content. */
  changed: boolean;
}

/**
 * What `current` has that `approved` did not: each capability not in the approved set, in `current`'s order;
 * a script at a known path with another hash is a gain marked `changed`. Anything dropped is no gain. Pure.
 */
export function gainedCapabilities(
  approved: readonly SkillCapability[],
  current: readonly SkillCapability[],
): CapabilityGain[] {
  const known = new Set(approved.map(capabilityKey));
  const scripts = new Set(approved.flatMap((c) => (c.kind === "script" ? [c.path] : [])));
  return current
    .filter((c) => !known.has(capabilityKey(c)))
    .map((capability) => ({
      capability,
      changed: capability.kind === "script" && scripts.has(capability.path),
    }));
}

/** A gain as listed: `+allowed-tools Bash`, `+script scripts/x.sh (changed)`. Pure. */
export function gainText(gain: CapabilityGain): string {
  return `+${capabilityText(gain.capability)}${gain.changed ? " (changed)" : ""}`;
}

/**
 * What a held skill says, to the model (as the refused call's result), on the terminal and in `doctor`:
 * `Skill deploy changed since it was approved and gained: +allowed-tools Bash, +inline shell "curl x | sh". It
 * runs again once approved: \`skillwright approve deploy\`.` Pure.
 */
export function skillChangedText(name: string, gains: readonly CapabilityGain[]): string {
  return (
    `Skill ${name} changed since it was approved and gained: ${gains.map(gainText).join(", ")}. ` +
    `It runs again once approved: \`skillwright approve ${name}\`.`
  );
}
