import { isAbsolute, join, normalize, sep } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { isValidSkillName } from "../skill/fields.js";
import { firstBodyLine, normalizeMeta } from "../skill/schema.js";
import type { Skill } from "../skill/skill.js";

/** A skill defined in code. `files` are written under the skill's private dir the first time it is used. */
export interface BundledSkillDefinition {
  name: string;
  description: string;
  /** The instructions (the body of a SKILL.md). */
  body: string;
  /** Other frontmatter fields, as they would be written in SKILL.md (`allowed-tools`, `context`, …). */
  frontmatter?: Record<string, unknown>;
  /** Reference files by relative path, e.g. `{ "reference/api.md": "…" }`. */
  files?: Record<string, string>;
}

/** The skills registered from code (`engine.registerBundledSkill`), whose files are written out on first use. */
export interface BundledRegistry {
  /** Adds a skill; returns diagnostics (an invalid name or an escaping file path refuses the skill). */
  register(definition: BundledSkillDefinition): Diagnostic[];
  /** The registered skills, in registration order. */
  skills(): Skill[];
}

/** Resolves `relative` under `dir`, or undefined when it is absolute or climbs out. Pure. */
export function safeJoin(dir: string, relative: string): string | undefined {
  if (relative === "" || relative.includes("\0") || isAbsolute(relative)) return undefined;
  const normal = normalize(relative);
  if (normal === ".." || normal.startsWith(`..${sep}`) || isAbsolute(normal)) return undefined;
  return join(dir, normal);
}

/**
 * Skills registered in code (SPEC §2 "bundled"). Files are extracted lazily, once, into
 * `{extractRoot}/{name}/`, which is the skill's base directory.
 */
export function createBundledRegistry(options: { fs: FsOps; extractRoot: string }): BundledRegistry {
  const { fs, extractRoot } = options;
  const skills: Skill[] = [];
  return {
    register(definition) {
      const origin = `bundled:${definition.name}`;
      if (!isValidSkillName(definition.name)) {
        return [
          diagnostic("error", "name-invalid", `invalid bundled skill name "${definition.name}"`, origin),
        ];
      }
      if (skills.some((s) => s.name === definition.name)) {
        return [
          diagnostic("warning", "shadowed", `bundled skill "${definition.name}" registered twice`, origin),
        ];
      }
      const baseDir = join(extractRoot, definition.name);
      const targets: [string, string][] = [];
      for (const [relative, content] of Object.entries(definition.files ?? {})) {
        const target = safeJoin(baseDir, relative);
        if (target === undefined) {
          return [
            diagnostic(
              "error",
              "bundled-path-escape",
              `file path "${relative}" escapes the skill's dir; skill refused`,
              origin,
            ),
          ];
        }
        targets.push([target, content]);
      }
      const { meta, diagnostics } = normalizeMeta({
        data: { ...definition.frontmatter, description: definition.description },
        kind: "skill",
        dirName: definition.name,
        firstBodyLine: firstBodyLine(definition.body),
        path: origin,
      });
      let extracted: Promise<void> | undefined;
      const extract = async () => {
        for (const [target, content] of targets) {
          await fs.mkdir(join(target, ".."));
          await fs.writeFile(target, content);
        }
        await fs.mkdir(baseDir);
      };
      skills.push({
        ...meta,
        name: definition.name,
        source: "bundled",
        kind: "skill",
        filePath: "",
        baseDir,
        root: extractRoot,
        loadBody: async () => {
          // A failed extraction is retried on the next use rather than cached.
          extracted ??= extract().catch((error: unknown) => {
            extracted = undefined;
            throw error;
          });
          await extracted;
          return definition.body;
        },
      });
      return diagnostics;
    },
    skills: () => [...skills],
  };
}
