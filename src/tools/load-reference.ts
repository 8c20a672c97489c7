import * as z from "zod";
import { errorMessage } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { safeJoin } from "../skill/safe-join.js";
import { answersTo, type Skill } from "../skill/skill.js";
import { LOAD_REFERENCE_TOOL_NAME } from "../sources/reference-section.js";
import { defineTool, type Tool, toolError } from "./define-tool.js";
import { LOAD_REFERENCE_INPUT_SCHEMA } from "./input-schemas.js";

/** The model-facing description of `load_reference`. */
export const LOAD_REFERENCE_DESCRIPTION = `Load one reference of a skill: a template, an example, a document the skill's instructions point to.

- skill: the skill's name, as in the listing.
- name: the reference's name, as the skill's Skill tool result lists it.
- Returns the reference's text. Load a reference only when the task needs it.`;

/** The `load_reference` tool's input schema, built on first use (its JSON schema is generated at build time). */
export const loadReferenceInput = lazy(() =>
  z.strictObject({
    skill: z.string().min(1).describe("The skill's name"),
    name: z.string().min(1).describe("The reference's name, as the skill lists it"),
  }),
);

/** What `load_reference` reads from. */
export interface LoadReferenceToolOptions {
  /** The skills the model may use now (the session's visible skills). */
  skills: () => readonly Skill[];
}

/**
 * The files a `load_reference` call reads, for the permission check (`PermissionPolicy.filesRead`): for a file
 * skill (one with a file path) the reference's file in the skill's folder, as the same absolute path a `Read` of
 * it would be checked at; nothing for other tools, invalid input, unknown skills, names that climb out of the
 * folder (the read refuses those) and in-memory or store skills (their references are not files). Pure over
 * `skills()`.
 */
export function loadReferenceFilesRead(
  skills: () => readonly Skill[],
): (tool: string, input: unknown) => readonly string[] {
  return (tool, input) => {
    if (tool !== LOAD_REFERENCE_TOOL_NAME) return [];
    const parsed = loadReferenceInput().safeParse(input);
    if (!parsed.success) return [];
    const skillName = parsed.data.skill.replace(/^\//, "");
    const skill = skills().find((s) => answersTo(s, skillName));
    if (skill === undefined || skill.filePath === "" || skill.references === undefined) return [];
    const path = safeJoin(skill.baseDir, parsed.data.name);
    return path === undefined ? [] : [path];
  };
}

/**
 * The `load_reference` tool (SPEC §16): input `{ skill, name }`, returns that reference's text. A loader runs
 * only when its reference is asked for, and once per tool (one tool per session): the text is kept for the
 * session, keyed by the skill's reference set, so an updated skill is read afresh. A loader that fails is an
 * error result (and is tried again next time), never a crash.
 */
export function createLoadReferenceTool(options: LoadReferenceToolOptions): Tool {
  const loaded = new WeakMap<object, Map<string, Promise<string | undefined>>>();
  return defineTool({
    name: LOAD_REFERENCE_TOOL_NAME,
    description: LOAD_REFERENCE_DESCRIPTION,
    input: loadReferenceInput,
    inputSchema: LOAD_REFERENCE_INPUT_SCHEMA,
    readOnly: true,
    subject: (input) => `${input.skill}:${input.name}`,
    async execute(input, ctx) {
      const skillName = input.skill.replace(/^\//, "");
      const skill = options.skills().find((s) => answersTo(s, skillName));
      if (skill === undefined) return toolError(`Unknown skill: ${skillName}`);
      const references = skill.references;
      if (references === undefined) return toolError(`Skill ${skill.name} has no references`);
      let cache = loaded.get(references);
      if (cache === undefined) {
        cache = new Map();
        loaded.set(references, cache);
      }
      let text = cache.get(input.name);
      if (text === undefined) {
        text = references.read(input.name, ctx.signal);
        cache.set(input.name, text);
      }
      try {
        const content = await text;
        if (content !== undefined) return { content };
        cache.delete(input.name);
        const names = (await references.list(ctx.signal).catch(() => [])).map((r) => r.name);
        const known = names.length === 0 ? "" : ` Its references: ${names.join(", ")}`;
        return toolError(`Skill ${skill.name} has no reference "${input.name}".${known}`);
      } catch (error) {
        cache.delete(input.name);
        return toolError(
          `Could not load reference "${input.name}" of skill ${skill.name}: ${errorMessage(error)}`,
        );
      }
    },
  });
}
