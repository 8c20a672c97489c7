import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import { DEFAULT_APP_RANK, type SkillSource } from "./skill-source.js";

/**
 * Lists every app source at once and gives each skill its source's rank, in source order (a stable sort by
 * rank). A source that fails is a `source-failed` diagnostic; the others still count. Never rejects.
 */
export async function rankSourceSkills(
  sources: readonly SkillSource[],
  signal?: AbortSignal,
): Promise<{ skills: { skill: Skill; rank: number }[]; diagnostics: Diagnostic[] }> {
  const listed = await Promise.all(
    sources.map(async (source) => {
      try {
        return { source, ...(await source.list(signal)) };
      } catch (error) {
        const problem = diagnostic(
          "error",
          "source-failed",
          `skill source ${source.id} failed: ${errorMessage(error)}`,
          source.id,
        );
        return { source, skills: [], diagnostics: [problem] };
      }
    }),
  );
  const ordered = listed
    .map((entry, index) => ({ ...entry, index, rank: entry.source.rank ?? DEFAULT_APP_RANK }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  return {
    skills: ordered.flatMap(({ skills, rank }) => skills.map((skill) => ({ skill, rank }))),
    diagnostics: listed.flatMap((entry) => entry.diagnostics),
  };
}
