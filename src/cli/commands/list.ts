import type { Engine } from "../../engine.js";
import { displayName } from "../../skill/skill.js";
import type { CliIo } from "../io.js";
import { writeJsonArray } from "../json-array-stream.js";
import { skillFlags, skillToJson } from "../skill-json.js";

/** Longest description shown per line in human output. */
export const LIST_DESCRIPTION_WIDTH = 80;

/** `skillwright list [--json]`: every skill with its source, path, description and flags. Exit code 0. */
export async function listCommand(engine: Engine, io: CliIo, json: boolean): Promise<number> {
  const { skills } = await engine.discover();
  if (json) {
    // Streamed: at 50k skills the whole text (and the mapped copies) was most of the process's peak memory.
    const write = io.writeStdout ?? io.stdout;
    await writeJsonArray(skills, skillToJson, write);
    await write("\n");
    return 0;
  }
  if (skills.length === 0) {
    io.stdout("No skills found. Run `skillwright doctor` to see where skillwright looked.\n");
    return 0;
  }
  const lines: string[] = [];
  for (const skill of skills) {
    const flags = skillFlags(skill);
    const description =
      skill.description.length > LIST_DESCRIPTION_WIDTH
        ? `${skill.description.slice(0, LIST_DESCRIPTION_WIDTH - 1)}…`
        : skill.description;
    lines.push(
      `${displayName(skill)}  [${skill.source}]${flags.length > 0 ? `  {${flags.join(", ")}}` : ""}`,
    );
    lines.push(`    ${description}`);
    lines.push(`    ${skill.filePath === "" ? skill.baseDir : skill.filePath}`);
  }
  lines.push("", `${skills.length} skill${skills.length === 1 ? "" : "s"}`);
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
