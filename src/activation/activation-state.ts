import type { Diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import { matchPath } from "./globs.js";
import {
  type ConditionalSkill,
  createPathMatcher,
  type MatchSession,
  type PathMatcher,
} from "./path-matcher.js";

/**
 * Which conditional skills (SPEC §9) one session has activated. Owned by one session; holds no I/O. A
 * conditional skill activates the first time a touched path matches one of its `paths:` globs and stays active
 * for the rest of the session.
 */
export interface ActivationState {
  /**
   * Records paths a tool read, wrote, edited or found (absolute, or relative to `cwd`), or that the user
   * mentioned. Returns the names of the skills this call activated, in the order the skills were given; each
   * name is returned at most once per session. Paths outside `cwd` never activate anything.
   */
  touch(paths: readonly string[], cwd: string): string[];
  /** False only for a known conditional skill that has not been activated; true for every other name. */
  isActive(name: string): boolean;
  /**
   * The skills that may be listed and invoked now: those without `paths:` plus activated ones, input order
   * kept. Judges each skill by its own `paths` field, so a conditional skill never given to `add` stays out.
   */
  visible<T extends Pick<Skill, "name" | "paths">>(skills: readonly T[]): T[];
  /**
   * Adds skills found later (nested discovery, reload); a skill of a known name replaces the old one, and an
   * activated name stays activated. Rebuilds the matcher once.
   */
  add(skills: readonly ConditionalSkill[]): void;
  /**
   * Activates known conditional skills by name, as a resumed session does for those its stored conversation
   * announced. Unknown and unconditional names are ignored. Returns the names this call activated.
   */
  activate(names: readonly string[]): string[];
  /** Activated names, in activation order. */
  activated(): string[];
  /** `field-invalid` warnings from the per-skill pattern bound, for the conditional skills held. */
  diagnostics(): readonly Diagnostic[];
}

/** Creates the activation state of one session over its initial skills (conditional or not). */
export function createActivationState(skills: readonly ConditionalSkill[]): ActivationState {
  const order = new Map<string, number>();
  const conditional = new Map<string, ConditionalSkill>();
  const active = new Set<string>();
  let matcher: PathMatcher = createPathMatcher([]);
  let session: MatchSession = matcher.session();

  const register = (list: readonly ConditionalSkill[]): void => {
    for (const skill of list) {
      if (!order.has(skill.name)) order.set(skill.name, order.size);
      if (skill.paths === undefined) conditional.delete(skill.name);
      else conditional.set(skill.name, skill);
    }
    matcher = createPathMatcher([...conditional.values()]);
    session = matcher.session(active);
  };
  register(skills);

  return {
    touch(paths, cwd) {
      if (matcher.skillCount === 0 || paths.length === 0) return [];
      const rels: string[] = [];
      for (const p of paths) {
        const rel = matchPath(cwd, p);
        if (rel !== undefined) rels.push(rel);
      }
      const found = session.match(rels);
      if (found.length === 0) return [];
      const names = found.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      for (const name of names) active.add(name);
      return names;
    },
    isActive: (name) => !conditional.has(name) || active.has(name),
    visible: (list) => list.filter((s) => s.paths === undefined || active.has(s.name)),
    add: register,
    activate(names) {
      const added = names.filter((name) => conditional.has(name) && !active.has(name));
      for (const name of added) active.add(name);
      session.exclude(added);
      return added;
    },
    activated: () => [...active],
    diagnostics: () => matcher.diagnostics,
  };
}
