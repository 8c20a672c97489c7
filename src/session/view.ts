import { dirname, join } from "node:path";
import { createActivationState } from "../activation/activation-state.js";
import { announcedNestedRoot } from "../activation/announce.js";
import type { Skill } from "../skill/skill.js";
import { withBuiltinCommands } from "../skill-tool/builtin-commands.js";
import { namesListedIn, reminderTexts } from "./listing-state.js";
import type { SkillView } from "./skill-view.js";

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
  nested?: NestedFinder;
  /** Adds the built-in prompt commands (`init`) after the discovered skills, unless a skill takes the name. */
  builtinCommands?: boolean;
}

/**
 * A session's live view of its skills: discovery's skills plus nested finds (and, when asked, the built-in
 * prompt commands), with conditional skills hidden until a touched path activates them.
 */
export function createSkillView(options: SkillViewOptions): SkillView {
  const withBuiltins = (list: readonly Skill[]) =>
    options.builtinCommands === true ? withBuiltinCommands(list) : [...list];
  let skills: Skill[] = withBuiltins(options.skills);
  let nested: Skill[] = [];
  const activation = createActivationState(skills);
  const addNested = async (paths: readonly string[]) => {
    if (options.nested === undefined) return { skills: [], announcements: [] };
    const found = await options.nested.discover(paths, new Set(skills.map((s) => s.name)));
    if (found.skills.length > 0) {
      nested = [...nested, ...found.skills];
      skills = [...skills, ...found.skills];
      activation.add(found.skills);
    }
    return found;
  };
  return {
    visible: () => activation.visible(skills),
    pluginSkillNames: () => skills.filter((s) => s.source === "plugin").map((s) => s.name),
    async touch(paths) {
      const announcements: string[] = [];
      const announced: string[] = [];
      if (paths.length === 0) return { announcements, announced };
      const found = await addNested(paths);
      announcements.push(...found.announcements);
      announced.push(...found.skills.filter((s) => s.paths === undefined).map((s) => s.name));
      activation.touch(paths, options.cwd);
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
    rediscovered(discovered) {
      const names = new Set(discovered.map((s) => s.name));
      skills = withBuiltins([...discovered, ...nested.filter((s) => !names.has(s.name))]);
      activation.add(discovered);
    },
  };
}
