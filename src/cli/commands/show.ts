import { loadSettings, permissionRules } from "../../config/settings.js";
import type { Engine } from "../../engine.js";
import { expandSkill } from "../../inline/expand-skill.js";
import { skillExpansionText } from "../../inline/render.js";
import { createNodeShell } from "../../io/shell.js";
import { decide } from "../../permissions/decide.js";
import { parseFrontmatter, splitFrontmatter } from "../../skill/frontmatter.js";
import { answersTo, type Skill } from "../../skill/skill.js";
import { similarNames } from "../../skill-tool/did-you-mean.js";
import type { CliIo } from "../io.js";
import { skillToJson } from "../skill-json.js";

/** The session id `show` substitutes for `${CLAUDE_SESSION_ID}`. */
export const SHOW_SESSION_ID = "show-preview";

/**
 * The exact expansion of a skill for `args`, as the model would receive it. Inline shell runs only with
 * `runShell` (through the settings' deny rules; the user's flag answers an `ask`); otherwise its markers stay.
 */
async function expansionFor(engine: Engine, skill: Skill, args: string, runShell: boolean) {
  const { projectDir } = await engine.roots();
  const settings = await loadSettings({ fs: engine.fs, home: engine.home, projectDir });
  const rules = permissionRules(settings.settings);
  const expandable: Skill = runShell
    ? skill
    : { ...skill, mcpServer: skill.mcpServer ?? "(show without --run-shell)" };
  const expanded = await expandSkill(expandable, {
    args,
    sessionId: SHOW_SESSION_ID,
    projectDir,
    shellOps: createNodeShell(),
    checkCommand: async (command) => {
      const decision = decide({
        rules,
        grants: skill.allowedTools,
        tool: "Bash",
        subject: { kind: "command", command },
        cwd: engine.cwd,
        home: engine.home,
      });
      return decision.behavior === "ask" ? { behavior: "allow", reason: "--run-shell" } : decision;
    },
  });
  return expanded.ok
    ? { ok: true as const, text: skillExpansionText(skill.kind, skill.baseDir, expanded.text) }
    : expanded;
}

export interface ShowOptions {
  json: boolean;
  runShell: boolean;
}

/**
 * `skillwright show <name> [args...]`: the frontmatter as parsed, the raw body and the exact expansion for
 * the args. Exit 1 for an unknown name or a failed expansion.
 */
export async function showCommand(
  engine: Engine,
  io: CliIo,
  name: string,
  args: string[],
  options: ShowOptions,
) {
  const { skills } = await engine.discover();
  const wanted = name.replace(/^\//, "");
  // A skill's own name wins over another skill's alias.
  const skill = skills.find((s) => s.name === wanted) ?? skills.find((s) => answersTo(s, wanted));
  if (skill === undefined) {
    const similar = similarNames(
      wanted,
      skills.map((s) => s.name),
    );
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(", ")}?` : "";
    io.stderr(`Unknown skill: ${name}.${hint} Run \`skillwright list\` to see the skills found.\n`);
    return 1;
  }
  let frontmatter: Record<string, unknown> = {};
  let body: string;
  if (skill.filePath === "") {
    body = await skill.loadBody();
  } else {
    const split = splitFrontmatter(await engine.fs.readFile(skill.filePath));
    frontmatter = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
    body = split.body;
  }
  const joined = args.join(" ");
  const expansion = await expansionFor(engine, skill, joined, options.runShell);
  const expansionText = expansion.ok ? expansion.text : expansion.message;
  if (options.json) {
    const record = {
      skill: skillToJson(skill),
      frontmatter,
      args: joined,
      body,
      expansion: expansion.ok ? expansion.text : null,
      error: expansion.ok ? null : expansion.message,
    };
    io.stdout(`${JSON.stringify(record, null, 2)}\n`);
    return expansion.ok ? 0 : 1;
  }
  const out = [
    `# ${skill.name} [${skill.source} ${skill.kind}]`,
    `path: ${skill.filePath === "" ? skill.baseDir : skill.filePath}`,
    "",
    "## Frontmatter (as parsed)",
    JSON.stringify(frontmatter, null, 2),
    "",
    "## Body",
    body,
    `## Expansion (args: ${joined === "" ? "none" : JSON.stringify(joined)}${options.runShell ? "" : "; inline shell not run, use --run-shell"})`,
    expansionText,
  ];
  io.stdout(`${out.join("\n")}\n`);
  return expansion.ok ? 0 : 1;
}
