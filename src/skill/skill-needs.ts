import { isRecord } from "../is-record.js";

/**
 * Something a skill needs to work (issue #42 item 2): a command on `PATH`, an environment variable, a configured
 * MCP server, or another skill. A need that cannot be met makes the skill absent, with the need as the reason.
 */
export type SkillNeed =
  | { kind: "command"; name: string }
  /** OpenClaw's `requires.anyBins`: at least one of these commands on `PATH`. */
  | { kind: "any-command"; names: readonly string[] }
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
    case "any-command":
      return `one of commands ${need.names.join(", ")}`;
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

/**
 * The needs of one `requires`-style block: `bins`/`commands`, `anyBins` (one of them), `env`,
 * `mcp`/`mcp-servers`/`mcpServers`, `skills`.
 */
function requiresBlock(block: unknown): SkillNeed[] {
  if (!isRecord(block)) return [];
  const any = names(block.anyBins);
  return [
    ...[...names(block.bins), ...names(block.commands)].map((name) => ({ kind: "command" as const, name })),
    ...(any.length === 0 ? [] : [{ kind: "any-command" as const, names: any }]),
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
  const openclaw = OPENCLAW_KEYS.map((k) => metadata[k]).filter(isRecord);
  return uniqueNeeds([
    ...[metadata.requires, ...openclaw.map((block) => block.requires)].flatMap(requiresBlock),
    ...openclaw.flatMap((block) => requiredEnvVars(block.envVars)),
  ]);
}

/** OpenClaw's key under `metadata`, and its older names. */
const OPENCLAW_KEYS = ["openclaw", "clawdbot", "clawdis"] as const;

/** OpenClaw's `envVars` entries (`{name, required?}`) that are required (`required` not false) as env needs. */
function requiredEnvVars(value: unknown): SkillNeed[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) =>
    isRecord(entry) && typeof entry.name === "string" && entry.name.trim() !== "" && entry.required !== false
      ? [{ kind: "env" as const, name: entry.name.trim() }]
      : [],
  );
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

/** What an MCP server need meets: `ready` (configured, may start), else why it cannot be used. */
export type McpServerState = "ready" | "not configured" | "disabled" | "waiting for approval";

/** The facts the needs are checked against, gathered by the host (each a lookup, no I/O here). */
export interface NeedFacts {
  /** True when `name` is an executable file in a `PATH` directory. */
  onPath(name: string): boolean;
  /** The environment variable's value, or undefined when unset. */
  env(name: string): string | undefined;
  mcpServer(name: string): McpServerState;
}

/**
 * Why `need` is not met, in the words `doctor`, `list` and the Skill tool use (`missing command gh on PATH`,
 * `missing env GITHUB_TOKEN`, `missing MCP server docs (disabled)`), or undefined when it is met. A `skill` need is
 * checked by {@link unmetNeeds} against the other skills. Pure.
 */
export function unmetText(need: SkillNeed, facts: NeedFacts): string | undefined {
  switch (need.kind) {
    case "command":
      return facts.onPath(need.name) ? undefined : `missing command ${need.name} on PATH`;
    case "any-command":
      return need.names.some((name) => facts.onPath(name))
        ? undefined
        : `missing commands on PATH: none of ${need.names.join(", ")}`;
    case "env":
      return (facts.env(need.name) ?? "") !== "" ? undefined : `missing env ${need.name}`;
    case "mcp": {
      const state = facts.mcpServer(need.server);
      return state === "ready" ? undefined : `missing MCP server ${need.server} (${state})`;
    }
    case "skill":
      return undefined;
  }
}

/**
 * The skills of `skills` whose needs are not met, each with its first unmet need and why: commands, env and MCP
 * servers by `facts`, a needed skill by whether it is among the others still present (repeated until nothing
 * changes, so a skill needing an absent one is absent too). Skills without needs cost one look each. Pure.
 */
export function unmetNeeds<
  S extends { name: string; alias?: string | undefined; metadata?: unknown; needs?: SkillNeeds },
>(skills: readonly S[], facts: NeedFacts): Map<S, { need: SkillNeed; why: string }> {
  const unmet = new Map<S, { need: SkillNeed; why: string }>();
  const needing = skills.flatMap((skill) => {
    const needs = skillNeeds(skill);
    return needs.length === 0 ? [] : [{ skill, needs }];
  });
  if (needing.length === 0) return unmet;
  for (const { skill, needs } of needing) {
    for (const need of needs) {
      const why = unmetText(need, facts);
      if (why !== undefined) {
        unmet.set(skill, { need, why });
        break;
      }
    }
  }
  let changed = true;
  while (changed) {
    changed = false;
    const present = new Set(
      skills
        .filter((s) => !unmet.has(s))
        .flatMap((s) => (s.alias === undefined ? [s.name] : [s.name, s.alias])),
    );
    for (const { skill, needs } of needing) {
      if (unmet.has(skill)) continue;
      const gone = needs.find((n) => n.kind === "skill" && !present.has(n.name));
      if (gone !== undefined) {
        unmet.set(skill, { need: gone, why: `missing ${needText(gone)}` });
        changed = true;
      }
    }
  }
  return unmet;
}

/** The commands the needs name (each looked up on `PATH`), in first-named order, without repeats. Pure. */
export function commandsNeeded(needs: readonly SkillNeed[]): string[] {
  return [
    ...new Set(
      needs.flatMap((n) => (n.kind === "command" ? [n.name] : n.kind === "any-command" ? [...n.names] : [])),
    ),
  ];
}

/** The MCP servers the given skills name among their needs, in first-named order, without repeats. Pure. */
export function mcpServersNeeded(skills: Iterable<{ metadata?: unknown; needs?: SkillNeeds }>): string[] {
  const servers = new Set<string>();
  for (const skill of skills) {
    for (const need of skillNeeds(skill)) if (need.kind === "mcp") servers.add(need.server);
  }
  return [...servers];
}
