import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { isValidSkillName } from "../skill/fields.js";
import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import type { SkillReference } from "../skill/reference.js";
import { safeJoin } from "../skill/safe-join.js";
import { firstBodyLine, normalizeMeta } from "../skill/schema.js";
import type { Skill } from "../skill/skill.js";
import { type CodeToolSpec, SKILL_TOOL_NAME } from "../skill/skill-tools.js";
import { memoryReferences } from "./memory-references.js";

/** A skill defined in code or held by an application (a database row): its text and its references. */
export interface MemorySkillDefinition {
  name: string;
  description: string;
  /** The instructions (what the body of a SKILL.md would hold). */
  body: string;
  /** Other frontmatter fields, as they would be written in SKILL.md (`allowed-tools`, `context`, …). */
  frontmatter?: Record<string, unknown>;
  /** References the model reads with `load_reference`; a loader runs only when asked. */
  references?: SkillReference[];
  /**
   * Files by relative path, e.g. `{ "reference/api.md": "…" }`: each is also a reference (named by its path).
   * With an `extract` dir they are written there on first use, which becomes the skill's base directory.
   */
  files?: Record<string, string>;
  /**
   * Tools the skill owns (`defineSkillTool`): offered from the first request, callable once the skill is loaded;
   * `execute` gets the input its zod schema parsed.
   */
  tools?: CodeToolSpec[];
}

/** Where a memory skill's `files` are written on first use (bundled skills); absent: they stay in memory. */
export interface ExtractTarget {
  fs: FsOps;
  root: string;
}

/**
 * The skill a definition describes, or the diagnostics refusing it (an invalid name, a reference named twice,
 * a file path escaping its dir). Without `files` and `extract` the skill has no base directory: nothing is
 * written anywhere and the model is told no host path.
 */
export function memorySkill(
  definition: MemorySkillDefinition,
  source: "app" | "bundled",
  origin: string,
  extract?: ExtractTarget,
): { skill?: Skill; diagnostics: Diagnostic[] } {
  const where = `${origin}:${definition.name}`;
  const problem = shapeProblem(definition);
  if (problem !== undefined) {
    return { diagnostics: [diagnostic("error", "field-invalid", `${problem}; skill refused`, where)] };
  }
  if (!isValidSkillName(definition.name)) {
    return {
      diagnostics: [diagnostic("error", "name-invalid", `invalid skill name "${definition.name}"`, where)],
    };
  }
  const files = Object.entries(definition.files ?? {});
  const baseDir = extract === undefined || files.length === 0 ? "" : join(extract.root, definition.name);
  const targets: [string, string][] = [];
  for (const [relative, content] of files) {
    const target = safeJoin(baseDir === "" ? "/" : baseDir, relative);
    if (target === undefined) {
      return {
        diagnostics: [
          diagnostic(
            "error",
            "bundled-path-escape",
            `file path "${relative}" escapes the skill's dir; skill refused`,
            where,
          ),
        ],
      };
    }
    targets.push([target, content]);
  }
  const references: SkillReference[] = [
    ...(definition.references ?? []),
    ...files.map(([relative, content]) => ({ name: relative, description: `file ${relative}`, content })),
  ];
  const names = new Set<string>();
  for (const ref of references) {
    if (names.has(ref.name) || neutralizeMarkup(ref.name) !== ref.name || ref.name === "") {
      return {
        diagnostics: [
          diagnostic(
            "error",
            "name-invalid",
            `reference "${ref.name}" is empty, repeated or holds markup`,
            where,
          ),
        ],
      };
    }
    names.add(ref.name);
  }
  const { meta, diagnostics } = normalizeMeta({
    data: { ...definition.frontmatter, description: definition.description },
    kind: "skill",
    dirName: definition.name,
    firstBodyLine: firstBodyLine(definition.body),
    path: where,
  });
  let extracted: Promise<void> | undefined;
  const write = async (fs: FsOps) => {
    for (const [target, content] of targets) {
      await fs.mkdir(join(target, ".."));
      await fs.writeFile(target, content);
    }
  };
  const refs = memoryReferences(references);
  const owned = [...(meta.skillTools ?? []), ...(definition.tools ?? [])];
  const skill: Skill = {
    ...meta,
    ...(owned.length === 0 ? {} : { skillTools: owned }),
    name: definition.name,
    source,
    kind: "skill",
    filePath: "",
    baseDir,
    root: extract === undefined ? "" : extract.root,
    loadBody: async () => {
      if (extract !== undefined && baseDir !== "") {
        // A failed extraction is retried on the next use rather than cached.
        extracted ??= write(extract.fs).catch((error: unknown) => {
          extracted = undefined;
          throw error;
        });
        await extracted;
      }
      return definition.body;
    },
    ...(refs === undefined ? {} : { references: refs }),
  };
  return { skill, diagnostics };
}

/** What is wrong with a definition built at run time (from JavaScript or a database row), or undefined. Pure. */
function shapeProblem(definition: MemorySkillDefinition): string | undefined {
  const loose: Record<string, unknown> = { ...definition };
  for (const key of ["name", "description", "body"]) {
    if (typeof loose[key] !== "string") return `"${key}" must be a string`;
  }
  const references: unknown = loose.references;
  if (references !== undefined && !Array.isArray(references)) return `"references" must be a list`;
  for (const ref of Array.isArray(references) ? references : []) {
    const r: Record<string, unknown> = typeof ref === "object" && ref !== null ? { ...ref } : {};
    const content = r.content;
    if (typeof r.name !== "string" || typeof r.description !== "string") {
      return "each reference needs a string name and description";
    }
    if (typeof content !== "string" && typeof content !== "function") {
      return `reference "${r.name}" needs content: a string or a function returning a promise of one`;
    }
  }
  const files: unknown = loose.files;
  if (files !== undefined && (typeof files !== "object" || files === null))
    return `"files" must be an object`;
  for (const value of Object.values(files ?? {})) {
    if (typeof value !== "string") return "every file's content must be a string";
  }
  const tools: unknown = loose.tools;
  if (tools !== undefined && !Array.isArray(tools)) return `"tools" must be a list`;
  for (const tool of Array.isArray(tools) ? tools : []) {
    const t: Record<string, unknown> = typeof tool === "object" && tool !== null ? { ...tool } : {};
    if (t.kind !== "code" || typeof t.execute !== "function")
      return "each tool must be made with defineSkillTool";
    if (typeof t.name !== "string" || !SKILL_TOOL_NAME.test(t.name)) {
      return `tool name ${JSON.stringify(t.name)} must be 1-64 letters, digits, _ or -`;
    }
  }
  return undefined;
}
