import type { Engine } from "../../engine.js";
import { parseFrontmatter, splitFrontmatter } from "../../skill/frontmatter.js";
import { answersTo } from "../../skill/skill.js";
import type { CliIo } from "../io.js";
import { skillToJson } from "../skill-json.js";

/** `skillwright show <name> [args...]`: the frontmatter as parsed and the body. Exit 1 for an unknown name. */
export async function showCommand(engine: Engine, io: CliIo, name: string, args: string[], json: boolean) {
  const { skills } = await engine.discover();
  const skill = skills.find((s) => answersTo(s, name.replace(/^\//, "")));
  if (skill === undefined) {
    io.stderr(`Unknown skill: ${name}. Run \`skillwright list\` to see the skills found.\n`);
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
  if (json) {
    io.stdout(
      `${JSON.stringify({ skill: skillToJson(skill), frontmatter, args: args.join(" "), body }, null, 2)}\n`,
    );
    return 0;
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
  ];
  io.stdout(`${out.join("\n")}\n`);
  return 0;
}
