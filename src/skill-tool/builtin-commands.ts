import type { Skill } from "../skill/skill.js";

/**
 * Commands that act on the terminal or the session rather than on the model's work (`/help`, `/clear`,
 * `/compact`, …). The Skill tool refuses them with `uiCommandMessage` instead of `Unknown skill` (SPEC §14.6),
 * unless a skill of the same name exists.
 */
export const UI_COMMANDS = [
  "help",
  "clear",
  "compact",
  "model",
  "effort",
  "reload",
  "exit",
  "quit",
  "resume",
  "config",
  "status",
  "cost",
  "context",
  "permissions",
  "hooks",
  "agents",
  "mcp",
  "skills",
  "memory",
] as const;

const UI_COMMAND_SET: ReadonlySet<string> = new Set(UI_COMMANDS);

/** True when `name` is one of {@link UI_COMMANDS}. Case-sensitive, as command names are. Pure. */
export function isUiCommand(name: string): boolean {
  return UI_COMMAND_SET.has(name);
}

/** The name of the built-in prompt command that writes a project instructions file (SPEC §14.6). */
export const INIT_COMMAND_NAME = "init";

/** What the listing says about `init`. */
export const INIT_COMMAND_DESCRIPTION =
  "Analyse this repository and write or improve its project instructions file (CLAUDE.md or AGENTS.md)";

/** The instructions `init` expands to. Our own text; it holds no `$` placeholder and no inline shell. */
export const INIT_COMMAND_PROMPT = `Analyse this repository and write, or improve, its project instructions file: the file a coding agent reads at the start of every session in this project.

1. Look for existing instructions: CLAUDE.md, AGENTS.md and .claude/CLAUDE.md, and other tools' instruction files (.cursorrules, .cursor/rules/, .github/copilot-instructions.md). If CLAUDE.md or AGENTS.md exists, improve that file; otherwise create CLAUDE.md at the repository root. Fold in what the other tools' files say that still holds.
2. Study the repository: the README, the package and build manifests, the CI configuration, the layout of the source and test directories, and a few representative source and test files.
3. Write down what an agent new to this codebase needs and cannot guess quickly:
   - the commands that build, lint, type-check and test it, including how to run a single test;
   - the architecture in broad strokes: the main parts, how they fit together and where each lives;
   - the conventions the code follows where they differ from common practice.
4. Keep it short and specific to this project. Leave out generic advice, long file listings and whatever one glance at a single file shows. State only what you checked; never invent a command.
5. When improving an existing file, keep what is still accurate, correct what is outdated, and end your reply with a short summary of the changes.`;

/**
 * The built-in `init` prompt command (SPEC §14.6) as a skill: model- and user-invocable, listed like a skill
 * but with no base directory, so its expansion is the prompt alone (plus `ARGUMENTS: {args}` when given).
 */
export function initCommand(): Skill {
  return {
    name: INIT_COMMAND_NAME,
    description: INIT_COMMAND_DESCRIPTION,
    descriptionFromBody: false,
    argumentNames: [],
    allowedTools: [],
    disallowedTools: [],
    context: "inline",
    userInvocable: true,
    disableModelInvocation: false,
    shell: "bash",
    extra: {},
    source: "bundled",
    kind: "command",
    filePath: "",
    baseDir: "",
    root: "",
    loadBody: async () => INIT_COMMAND_PROMPT,
  };
}

/**
 * The session's skills with the built-in prompt commands appended (after every discovered skill, in listing
 * order). A discovered skill or alias of the same name wins: the built-in is left out. Pure.
 */
export function withBuiltinCommands(skills: readonly Skill[]): Skill[] {
  const taken = skills.some((s) => s.name === INIT_COMMAND_NAME || s.alias === INIT_COMMAND_NAME);
  return taken ? [...skills] : [...skills, initCommand()];
}
