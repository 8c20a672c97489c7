import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import { type ExtractTarget, type MemorySkillDefinition, memorySkill } from "./memory-skill.js";
import type { SkillSource } from "./skill-source.js";

/** What `createMemorySource` takes; everything is optional. */
export interface MemorySourceOptions {
  /** Names the source in diagnostics. Default `memory`. */
  id?: string;
  /** Precedence (see `SOURCE_RANKS`); default after MCP, before bundled. */
  rank?: number;
  /** Skills to start with, as `add` takes them. */
  skills?: MemorySkillDefinition[];
}

/** A skill source held in memory, changed at run time; every change reaches open sessions as a listing delta. */
export interface MemorySource extends SkillSource {
  /** Adds a skill. A name already held is refused (`shadowed`): use `update`. Returns the diagnostics. */
  add(definition: MemorySkillDefinition): Diagnostic[];
  /** Replaces the skill of that name, or adds it when there is none. Returns the diagnostics. */
  update(definition: MemorySkillDefinition): Diagnostic[];
  /** Removes a skill; false when there was none of that name. */
  remove(name: string): boolean;
  /** The skills held, in the order they were first added. */
  skills(): Skill[];
}

/** Internal options: the engine's bundled registry is a memory source whose skills are `bundled`. */
export interface MemorySourceKind {
  source: "app" | "bundled";
  extract?: ExtractTarget;
}

/**
 * A memory source (SPEC §16): skills an application keeps in memory or loads from a database, with their
 * references. `add`, `update` and `remove` tell the engine at once; nothing touches the disk.
 */
export function createMemorySource(
  options: MemorySourceOptions = {},
  kind: MemorySourceKind = { source: "app" },
): MemorySource {
  const id = options.id ?? "memory";
  const held = new Map<string, Skill>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const put = (definition: MemorySkillDefinition): Diagnostic[] => {
    const built = memorySkill(definition, kind.source, id, kind.extract);
    if (built.skill === undefined) return built.diagnostics;
    held.set(definition.name, built.skill);
    changed();
    return built.diagnostics;
  };
  const add = (definition: MemorySkillDefinition): Diagnostic[] =>
    held.has(definition.name)
      ? [
          diagnostic(
            "warning",
            "shadowed",
            `skill "${definition.name}" is already in ${id}; use update() to replace it`,
            `${id}:${definition.name}`,
          ),
        ]
      : put(definition);
  const initial = (options.skills ?? []).flatMap(add);
  return {
    id,
    ...(options.rank === undefined ? {} : { rank: options.rank }),
    async list() {
      return { skills: [...held.values()], diagnostics: initial };
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    add,
    update: put,
    remove(name) {
      const had = held.delete(name);
      if (had) changed();
      return had;
    },
    skills: () => [...held.values()],
  };
}
