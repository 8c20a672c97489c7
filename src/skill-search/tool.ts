import * as z from "zod";
import { lazy } from "../lazy.js";
import { LISTING_DESCRIPTION_CAP, listingDescription } from "../listing/description.js";
import { SKILL_SEARCH_TOOL_NAME } from "../listing/overflow.js";
import { neutralizeMarkup } from "../skill/neutralize-markup.js";
import { displayName, type Skill } from "../skill/skill.js";
import { defineTool, type Tool, toolError } from "../tools/define-tool.js";
import { SKILL_SEARCH_INPUT_SCHEMA } from "../tools/input-schemas.js";
import { createSkillSearcher, SKILL_SEARCH_LIMIT, type SkillSearcher } from "./search.js";

/** The model-facing description of the `SkillSearch` tool (SPEC §14.15). */
export const SKILL_SEARCH_DESCRIPTION = `Find skills that the skill listing leaves out. When there are more skills than fit, the listing in the <system-reminder> blocks shows only some of them and ends by saying how many are not listed: search those here.

- query: words describing the task or the skill you need (e.g. "deploy kubernetes", "fill pdf forms").
- Returns up to ${SKILL_SEARCH_LIMIT} matching skills as listing entries ("- name: description"), best first, ranked by the query's words (and their other forms) found in each skill's name, description, when_to_use and instructions.
- Call a skill found here with the Skill tool, exactly as a listed one.`;

/**
 * The `SkillSearch` input schema, built on first use (zod is costly at start-up), the single source of its
 * `input_schema`. `.nonoptional()` changes nothing in parsing; it keeps `description` first in the generated
 * JSON, the key order sent since the tool was added (a change would break prompt caches across versions).
 */
export const skillSearchInput = lazy(() =>
  z.object({
    query: z.string().min(1).nonoptional().describe("Words describing the task or the skill you need"),
  }),
);
export type SkillSearchInput = z.infer<ReturnType<typeof skillSearchInput>>;

/** What the `SkillSearch` tool searches. */
export interface SkillSearchToolOptions {
  /**
   * The skills the model may call now, in listing order (un-activated conditional skills left out);
   * `disable-model-invocation` skills are dropped here too.
   */
  skills: () => readonly Skill[];
  /** The per-description cap of the listing, so a result line reads as the listing's entry would. */
  maxDescChars?: number;
  /** The session's searcher (its index is built on the first search). Default: a new in-memory one. */
  searcher?: SkillSearcher;
}

/**
 * The text of a search result: a header line quoting the query (wrapper tags in it defused) and one listing
 * entry per match. Pure.
 */
export function formatSearchResult(
  rawQuery: string,
  skills: readonly Skill[],
  maxDescChars: number = LISTING_DESCRIPTION_CAP,
): string {
  const query = neutralizeMarkup(rawQuery);
  if (skills.length === 0) {
    return `No skill matches "${query}". Try other words: what the task is about, a file type, a tool or service name.`;
  }
  const lines = skills.map((skill) => {
    const desc = listingDescription(skill, maxDescChars);
    return desc === "" ? `- ${displayName(skill)}` : `- ${displayName(skill)}: ${desc}`;
  });
  const n = skills.length === 1 ? "1 skill matches" : `${skills.length} skills match`;
  return `${n} "${query}" (best first; call one with the Skill tool):\n${lines.join("\n")}`;
}

/**
 * The `SkillSearch` tool (SPEC §14.15): the best {@link SKILL_SEARCH_LIMIT} matches of `query` among the skills
 * the model may call (see `createSkillSearcher` for the ranking), as listing entries. Read-only; a query with no words
 * is a tool error. Offered only in sessions whose listing can cut anything (see `catalogCanCut`).
 */
export function createSkillSearchTool(options: SkillSearchToolOptions): Tool {
  const searcher = options.searcher ?? createSkillSearcher();
  return defineTool({
    name: SKILL_SEARCH_TOOL_NAME,
    description: SKILL_SEARCH_DESCRIPTION,
    input: skillSearchInput,
    inputSchema: SKILL_SEARCH_INPUT_SCHEMA,
    readOnly: true,
    subject: (input) => input.query,
    async execute(input, ctx) {
      const query = input.query.trim();
      if (query === "") return toolError("The query is empty: give words describing the skill you need.");
      const matches = await searcher.search(options.skills(), query, { signal: ctx.signal });
      const found = matches.map((m) => m.skill);
      return { content: formatSearchResult(query, found, options.maxDescChars) };
    },
  });
}
