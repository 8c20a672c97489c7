import { dirname, join } from "node:path";
import { createActivationState } from "../activation/activation-state.js";
import { announcedNestedRoot } from "../activation/announce.js";
import type { SkillView } from "../discovery/skill-view.js";
import { namesListedIn, reminderTexts } from "../listing/read-blocks.js";
import type { Skill } from "../skill/skill.js";
import { type DisabledSkill, filterSkill, NO_SKILL_FILTER, type SkillFilter } from "../skill-filter.js";
import { withBuiltinCommands } from "../skill-tool/builtin-commands.js";

/** A file name inside a nested dir, touched on resume so that nested discovery examines that dir again. */
const RESTORE_PROBE = "SKILL.md";

/** Finds skills in nested `.claude/skills` dirs below the cwd (SPEC §9). */
export interface NestedFinder {
  discover(
    touched: readonly string[],
    existingNames: ReadonlySet<string>,
  ): Promise<{ skills: Skill[]; announcements: string[] }>;
}

export interface SkillViewOptions {
  cwd: string;
  /** Discovered skills, in listing order. */
  skills: readonly Skill[];
  /** Skills discovery switched off (with the reason); they stay out of `visible()`. */
  disabled?: readonly DisabledSkill[];
  /** Names of skills discovery found but skipped by an error (`Discovery.skipped`). */
  skipped?: readonly string[];
  /** The current filter (it may change on reload): nested finds it disables are kept out too. */
  filter?: () => SkillFilter;
  nested?: NestedFinder;
  /** Adds the built-in prompt commands (`init`) after the discovered skills, unless a skill takes the name. */
  builtinCommands?: boolean;
}

/**
 * A session's live view of its skills: discovery's skills plus nested finds (and, when asked, the built-in
 * prompt commands), with conditional skills hidden until a touched path activates them.
 */
export function createSkillView(options: SkillViewOptions): SkillView {
  let disabled: DisabledSkill[] = [...(options.disabled ?? [])];
  let skipped = new Set(options.skipped ?? []);
  const filter = options.filter ?? (() => NO_SKILL_FILTER);
  /** The list plus the built-in prompt commands that no filter disables (those join `disabled`). */
  const withBuiltins = (list: readonly Skill[]) => {
    if (options.builtinCommands !== true) return [...list];
    const current = filter();
    return withBuiltinCommands(list).flatMap((s, i) => {
      // The list's own skills come first, in order: found at their own index, not by a search of the whole list
      // for each (quadratic: ~50M comparisons at 10k skills).
      if (s === list[i] || list.includes(s)) return [s];
      const result = filterSkill(s, current);
      if (!("disabled" in result)) return [result.skill];
      if (!disabled.some((d) => d.skill.name === s.name)) disabled.push(result.disabled);
      return [];
    });
  };
  let skills: Skill[] = withBuiltins(options.skills);
  let nested: Skill[] = [];
  const activation = createActivationState(skills);
  const activationOrder: string[] = [];
  const addNested = async (paths: readonly string[]) => {
    if (options.nested === undefined) return { skills: [], announcements: [] };
    const existing = new Set([...skills, ...disabled.map((d) => d.skill)].map((s) => s.name));
    const raw = await options.nested.discover(paths, existing);
    const current = filter();
    const off: DisabledSkill[] = [];
    const kept: Skill[] = [];
    for (const skill of raw.skills) {
      const result = filterSkill(skill, current);
      if ("disabled" in result) off.push(result.disabled);
      else kept.push(result.skill);
    }
    disabled = [...disabled, ...off];
    const found = { ...raw, skills: kept };
    if (found.skills.length > 0) {
      nested = [...nested, ...found.skills];
      skills = [...skills, ...found.skills];
      activation.add(found.skills);
    }
    return found;
  };
  return {
    visible: () => activation.visible(skills),
    disabled: (name) => disabled.find((d) => d.skill.name === name || d.skill.alias === name),
    skipped: (name) => skipped.has(name),
    activationOrder: () => activationOrder,
    pluginSkillNames: () => skills.filter((s) => s.source === "plugin").map((s) => s.name),
    async touch(paths) {
      const announcements: string[] = [];
      const announced: string[] = [];
      if (paths.length === 0) return { announcements, announced };
      const found = await addNested(paths);
      announcements.push(...found.announcements);
      announced.push(...found.skills.filter((s) => s.paths === undefined).map((s) => s.name));
      const activated = activation.touch(paths, options.cwd);
      const foundNow = new Set(found.skills.map((s) => s.name));
      activationOrder.push(
        ...activated.filter((name) => foundNow.has(name)),
        ...activated.filter((name) => !foundNow.has(name)),
      );
      return { announcements, announced };
    },
    async restore(messages) {
      const roots = reminderTexts(messages).flatMap((text) => announcedNestedRoot(text) ?? []);
      // `{base}/.claude/skills` → a path in `{base}`, the dir the announcement was made for.
      await addNested(roots.map((root) => join(options.cwd, dirname(dirname(root)), RESTORE_PROBE)));
      const listed = namesListedIn(messages, skills);
      activation.activate(listed);
      return listed;
    },
    rediscovered(discovered, discoveredDisabled = [], discoveredSkipped = []) {
      skipped = new Set(discoveredSkipped);
      const names = new Set([...discovered, ...discoveredDisabled.map((d) => d.skill)].map((s) => s.name));
      const current = filter();
      const keptNested = nested.filter((s) => !names.has(s.name));
      disabled = [...discoveredDisabled];
      const enabledNested = keptNested.flatMap((s) => {
        const result = filterSkill(s, current);
        if (!("disabled" in result)) return [result.skill];
        disabled.push(result.disabled);
        return [];
      });
      skills = withBuiltins([...discovered, ...enabledNested]);
      activation.add(discovered);
    },
  };
}
