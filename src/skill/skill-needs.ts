import { isRecord } from "../is-record.js";

/**
 * Something a skill needs to work (issue #42 item 2): a command on `PATH`, an environment variable, a configured
 * MCP server, or another skill. A need that cannot be met makes the skill absent, with the need as the reason.
 */
export type SkillNeed =
  | { kind: "command"; name: string }
  | { kind: "env"; name: string }
  | { kind: "mcp"; server: string }
  | { kind: "skill"; name: string };

/** A skill's declared needs. */
export type SkillNeeds = readonly SkillNeed[];

/** Every need of a skill: its `metadata`'s, then those declared beside it (`needs`), without repeats. Pure. */
export function skillNeeds(skill: { metadata?: unknown; needs?: SkillNeeds }): SkillNeed[] {
  return uniqueNeeds([...needsFromMetadata(skill.metadata), ...(skill.needs ?? [])]);
}

/** `command gh`, `env GITHUB_TOKEN`, `MCP server docs`, `skill lint`. Pure. */
export function needText(need: SkillNeed): string {
  switch (need.kind) {
    case "command":
      return `command ${need.name}`;
    case "env":
      return `env ${need.name}`;
    case "mcp":
      return `MCP server ${need.server}`;
    case "skill":
      return `skill ${need.name}`;
  }
}

function names(value: unknown): string[] {
  if (typeof value === "string") return value.split(/[\s,]+/).filter((s) => s !== "");
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => (typeof v === "string" && v.trim() !== "" ? [v.trim()] : []));
}

/** The needs of one `requires`-style block: `bins`/`commands`, `env`, `mcp`/`mcp-servers`/`mcpServers`, `skills`. */
function requiresBlock(block: unknown): SkillNeed[] {
  if (!isRecord(block)) return [];
  return [
    ...[...names(block.bins), ...names(block.commands)].map((name) => ({ kind: "command" as const, name })),
    ...names(block.env).map((name) => ({ kind: "env" as const, name })),
    ...[...names(block.mcp), ...names(block["mcp-servers"]), ...names(block.mcpServers)].map((server) => ({
      kind: "mcp" as const,
      server,
    })),
    ...names(block.skills).map((name) => ({ kind: "skill" as const, name })),
  ];
}

/**
 * The needs a SKILL.md's `metadata` declares, in the forms skills ship with: `metadata.requires` (`bins` or
 * `commands`, `env`, `mcp`, `skills`) and OpenClaw's `metadata.openclaw.requires` (also `clawdbot`, its old name;
 * `bins` and `env`). Anything else is not a need. Duplicates are dropped, first kept. Pure.
 */
export function needsFromMetadata(metadata: unknown): SkillNeed[] {
  if (!isRecord(metadata)) return [];
  const blocks = [
    metadata.requires,
    ...["openclaw", "clawdbot"].map((k) => (isRecord(metadata[k]) ? metadata[k].requires : undefined)),
  ];
  return uniqueNeeds(blocks.flatMap(requiresBlock));
}

/** `needs` without repeats, first kept. Pure. */
export function uniqueNeeds(needs: readonly SkillNeed[]): SkillNeed[] {
  const seen = new Set<string>();
  return needs.filter((need) => {
    const key = needText(need);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
