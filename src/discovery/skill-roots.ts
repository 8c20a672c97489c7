import { join } from "node:path";
import type { SkillKind, SkillTier } from "../skill/skill.js";

/** One place skills or commands are looked for. */
export interface SkillRoot {
  dir: string;
  source: SkillTier;
  /** `skills`: direct child dirs with SKILL.md; `commands`: `*.md` files, subdirs become `ns:` prefixes. */
  layout: "skills" | "commands";
  /** Human label for doctor output, e.g. `project (.claude/skills)`. */
  label: string;
  /**
   * Set on a named environment's `skills/` dir (the environment's name): there a skill file may also be named
   * `skill.md`, and a frontmatter `name` that is not a valid skill name is a display title (the dir stays the id).
   */
  environment?: string;
  /**
   * Skill folders in category folders (`<root>/<category>/<name>/SKILL.md`): `always` (`.agents/skills`, as
   * Codex reads them), `setting` (`.claude/skills`: only with the settings' `skills.categories: true`, since
   * Claude Code does not read them). Absent: never.
   */
  categories?: "always" | "setting";
}

export interface RootInputs {
  home: string;
  /** `$SKILLWRIGHT_MANAGED_DIR` when set. */
  managedDir?: string;
  /** Project dirs from the cwd up to the project root, nearest first. */
  projectDirs: string[];
  /** `--add-dir` dirs. */
  addDirs: string[];
  /** `--skills-dir` dirs: each is itself a skills dir (`{dir}/{name}/SKILL.md`). */
  skillsDirs?: string[];
  /** The package's own `bundled-skills/` dir. */
  bundledDir?: string;
  /** The selected named environment (`--env`, `switchEnvironment`): its name and its dir. */
  environment?: { name: string; dir: string };
}

/** The default managed dir when `$SKILLWRIGHT_MANAGED_DIR` is not set. */
export const DEFAULT_MANAGED_DIR = "/etc/skillwright";
/** Claude Code's managed dir, read too so managed policies carry over. */
export const CLAUDE_MANAGED_DIR = "/etc/claude-code/.claude";

/** The kind of skill a root layout yields. */
export function kindOf(root: SkillRoot): SkillKind {
  return root.layout === "skills" ? "skill" : "command";
}

/**
 * THE ordered list of file roots (SPEC §2): precedence lives here and nowhere else. Earlier roots win name
 * clashes. Plugin and MCP skills are namespaced and come from their own loaders. A selected named environment's
 * `skills/` comes right after the managed roots: chosen for this run, it beats the user's and the project's
 * skills of the same name. Its skills have source `user` (the user put them in their home dir: trusted and
 * listed as user skills are).
 */
export function skillRoots(inputs: RootInputs): SkillRoot[] {
  const roots: SkillRoot[] = [];
  for (const base of [inputs.managedDir ?? DEFAULT_MANAGED_DIR, CLAUDE_MANAGED_DIR]) {
    roots.push({
      dir: join(base, "skills"),
      source: "managed",
      layout: "skills",
      label: "managed",
      categories: "setting",
    });
    roots.push({
      dir: join(base, "commands"),
      source: "managed",
      layout: "commands",
      label: "managed commands",
    });
  }
  if (inputs.environment !== undefined) {
    roots.push({
      dir: join(inputs.environment.dir, "skills"),
      source: "user",
      layout: "skills",
      label: `environment ${inputs.environment.name}`,
      environment: inputs.environment.name,
    });
  }
  roots.push(
    {
      dir: join(inputs.home, ".claude", "skills"),
      source: "user",
      layout: "skills",
      label: "user",
      categories: "setting",
    },
    {
      dir: join(inputs.home, ".agents", "skills"),
      source: "user",
      layout: "skills",
      label: "user (.agents)",
      categories: "always",
    },
    {
      dir: join(inputs.home, ".claude", "commands"),
      source: "user",
      layout: "commands",
      label: "user commands",
    },
  );
  for (const dir of inputs.projectDirs) {
    roots.push(
      {
        dir: join(dir, ".claude", "skills"),
        source: "project",
        layout: "skills",
        label: "project",
        categories: "setting",
      },
      {
        dir: join(dir, ".agents", "skills"),
        source: "project",
        layout: "skills",
        label: "project (.agents)",
        categories: "always",
      },
      {
        dir: join(dir, ".claude", "commands"),
        source: "project",
        layout: "commands",
        label: "project commands",
      },
    );
  }
  for (const dir of inputs.addDirs) {
    roots.push(
      {
        dir: join(dir, ".claude", "skills"),
        source: "project",
        layout: "skills",
        label: "--add-dir",
        categories: "setting",
      },
      {
        dir: join(dir, ".agents", "skills"),
        source: "project",
        layout: "skills",
        label: "--add-dir (.agents)",
        categories: "always",
      },
      {
        dir: join(dir, ".claude", "commands"),
        source: "project",
        layout: "commands",
        label: "--add-dir commands",
      },
    );
  }
  for (const dir of inputs.skillsDirs ?? []) {
    roots.push({ dir, source: "project", layout: "skills", label: "--skills-dir" });
  }
  if (inputs.bundledDir !== undefined) {
    roots.push({ dir: inputs.bundledDir, source: "bundled", layout: "skills", label: "bundled" });
  }
  return roots;
}
