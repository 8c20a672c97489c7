import { join } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { lazyYaml, type YamlParser } from "../skill/frontmatter-core.js";
import { type CodexMetadata, OPENAI_YAML_PATH, parseOpenaiYaml } from "../skill/openai-yaml.js";
import type { Skill } from "../skill/skill.js";

/**
 * A skill with what its `agents/openai.yaml` says applied, Codex's way where the file speaks: `interface`
 * kept for people (`display_name` also as the skill's `title` unless it has one), `policy.allow_implicit_invocation`
 * deciding model invocation over the frontmatter's `disable-model-invocation`, `dependencies` as needs. Pure.
 */
export function applyCodexMetadata(skill: Skill, metadata: CodexMetadata): Skill {
  const face = metadata.interface;
  const allow = metadata.allowImplicitInvocation;
  const title = skill.title ?? face.displayName;
  return {
    ...skill,
    ...(Object.keys(face).length === 0 ? {} : { codex: face }),
    ...(title === undefined ? {} : { title }),
    ...(allow === undefined ? {} : { disableModelInvocation: !allow }),
    ...(metadata.needs.length === 0 ? {} : { needs: [...(skill.needs ?? []), ...metadata.needs] }),
  };
}

/**
 * True when `path` is a regular file. Most skill folders have no such file: with the fs's `statSyncIfAny` a miss
 * costs neither a thrown error (1,000 of them were ~10 ms of a warm 1,000-skill run) nor a promise.
 */
function isFile(fs: FsOps, path: string): boolean | Promise<boolean> {
  try {
    if (fs.statSyncIfAny !== undefined) return fs.statSyncIfAny(path)?.kind === "file";
    if (fs.statSync !== undefined) return fs.statSync(path).kind === "file";
  } catch {
    return false;
  }
  return fs.stat(path).then(
    (stat) => stat.kind === "file",
    () => false,
  );
}

/**
 * Reads the `agents/openai.yaml` beside each directory skill's SKILL.md (Codex's metadata, issue #42 item 3) and
 * applies it ({@link applyCodexMetadata}); skills without one come back as they were, in order. A file that
 * cannot be read or parsed is a diagnostic at its path, and the skill is kept as SKILL.md alone says. Never throws.
 */
export async function withCodexMetadata(
  fs: FsOps,
  skills: readonly Skill[],
  loadYaml: () => Promise<YamlParser> = lazyYaml(),
): Promise<{ skills: Skill[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const out: Skill[] = [];
  for (const skill of skills) {
    const path = join(skill.baseDir, OPENAI_YAML_PATH);
    if (skill.kind !== "skill" || skill.filePath === "") {
      out.push(skill);
      continue;
    }
    // Awaited only when the answer is a promise: no microtask per skill on the synchronous path.
    const found = isFile(fs, path);
    if (found === false || (found !== true && !(await found))) {
      out.push(skill);
      continue;
    }
    let source: string;
    try {
      source = await fs.readFile(path);
    } catch {
      out.push(skill);
      continue;
    }
    const parsed = parseOpenaiYaml(source, path, await loadYaml());
    diagnostics.push(...parsed.diagnostics);
    out.push(parsed.metadata === undefined ? skill : applyCodexMetadata(skill, parsed.metadata));
  }
  return { skills: out, diagnostics };
}
