// Project trees for the agent bench: a git-rooted project with N generated `.claude/skills/*/SKILL.md`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRng } from "./lib.js";

/** Body size range of a generated skill, in chars. */
export const AGENT_BODY_CHARS = { min: 600, max: 4_000 };
/** Description length range, in chars. */
export const AGENT_DESCRIPTION_CHARS = { min: 40, max: 400 };
/** Share of generated skills with `when_to_use`. */
const WHEN_TO_USE_SHARE = 0.3;
/** Share with `allowed-tools` (not auto-allowed, but never invoked here). */
const ALLOWED_TOOLS_SHARE = 0.2;
const SEED = 0xa9e_47;

const WORDS = (
  "review deploy lint test release migrate schema query cache token agent tool project config log error " +
  "retry timeout request response stream event hook plugin command version docs guide step check run fix"
).split(" ");

/**
 * Text of about `chars` characters made of words.
 * @param {import("./lib.js").Rng} rng
 * @param {number} chars
 */
function words(rng, chars) {
  let text = rng.pick(WORDS);
  while (text.length < chars) text += ` ${rng.pick(WORDS)}`;
  return text.slice(0, chars).trimEnd();
}

/**
 * Makes `dir` a project: a `.git` dir (so the upward walk stops there) and `count` skills in
 * `.claude/skills/bench-{i}/SKILL.md` with realistic frontmatter and bodies. `extra` maps more skill names to
 * their whole SKILL.md text. Synchronous: generation is not what is measured. Returns `dir`.
 * @param {string} dir
 * @param {number} count
 * @param {Record<string, string>} [extra]
 */
export function writeProject(dir, count, extra = {}) {
  const rng = createRng(SEED ^ count);
  mkdirSync(join(dir, ".git"), { recursive: true });
  const skillsDir = join(dir, ".claude", "skills");
  mkdirSync(skillsDir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `bench-${String(i).padStart(4, "0")}`;
    const lines = [
      "---",
      `description: ${words(rng, rng.int(AGENT_DESCRIPTION_CHARS.min, AGENT_DESCRIPTION_CHARS.max))}`,
    ];
    if (rng.chance(WHEN_TO_USE_SHARE))
      lines.push(`when_to_use: when the user asks to ${words(rng, rng.int(20, 120))}`);
    if (rng.chance(ALLOWED_TOOLS_SHARE)) lines.push("allowed-tools: Read, Grep, Bash(git status:*)");
    lines.push(
      "---",
      "",
      `# ${name}`,
      "",
      words(rng, rng.int(AGENT_BODY_CHARS.min, AGENT_BODY_CHARS.max)),
      "",
    );
    mkdirSync(join(skillsDir, name));
    writeFileSync(join(skillsDir, name, "SKILL.md"), lines.join("\n"));
  }
  for (const [name, text] of Object.entries(extra)) {
    mkdirSync(join(skillsDir, name));
    writeFileSync(join(skillsDir, name, "SKILL.md"), text);
  }
  return dir;
}
