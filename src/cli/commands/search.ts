import { MAIN_SCOPE, skillsInScope } from "../../agent-types/skill-scope.js";
import type { Engine } from "../../engine/engine.js";
import { listingDescription } from "../../listing/description.js";
import { describeVisibility, type Visibility } from "../../listing/visibility.js";
import { displayName } from "../../skill/skill.js";
import { createSkillSearcher, SKILL_SEARCH_LIMIT } from "../../skill-search/search.js";
import { createFileUsageStore, defaultUsagePath } from "../../usage.js";
import type { CliIo } from "../io.js";
import { listingReport, openingSkills } from "../listing-report.js";
import { cliProgress, type ProgressDone } from "../progress.js";
import { searchIndexLabel } from "../search-progress.js";
import { LIST_DESCRIPTION_WIDTH } from "./list.js";

/**
 * `skillwright search <query> [--json] [--limit N]`: the skills the model's `SkillSearch` would return for the
 * query at the start of a session (the main agent's skills, conditional ones once active, the same ranking),
 * best first, with their scores and what the model sees of each in the listing of a session the query opens
 * (the first prompt decides the listing's focus; `doctor --first-prompt` shows the same). Exit 0 (also when nothing matches); 2 without a query.
 * The index's first build (no valid cache) shows progress on stderr once it takes over a second.
 */
export async function searchCommand(
  engine: Engine,
  io: CliIo,
  options: {
    query: string;
    json: boolean;
    limit: number | undefined;
    /** Shows work in progress; default: on stderr after a second, as `add` and `serve` (nothing with `--json`). */
    progress?: (label: string) => ProgressDone;
  },
): Promise<number> {
  if (options.query.trim() === "") {
    io.stderr("search needs a query: skillwright search <words describing the skill>\n");
    return 2;
  }
  const skills = skillsInScope(await openingSkills(engine), MAIN_SCOPE);
  const cache = await engine.searchIndexCache();
  const usage = createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) });
  const progress = options.progress ?? cliProgress(io, options.json);
  const searcher = createSkillSearcher({
    ...(cache === undefined ? {} : { cache }),
    usage: () => usage.load(),
    onIndexBuild: (count) => progress(searchIndexLabel(count)),
  });
  const matches = await searcher.search(skills, options.query, {
    limit: options.limit ?? SKILL_SEARCH_LIMIT,
  });
  // What the model sees of each match in a session this query opens: doctor --first-prompt's own report.
  const report =
    matches.length === 0 ? undefined : await listingReport(engine, undefined, Date.now(), options.query);
  const seen = new Map(report?.visibility.map((v) => [v.name, v.visibility]));
  const visibilityOf = (name: string): Visibility =>
    seen.get(name) ?? { state: "absent", reason: "unlisted" };
  if (options.json) {
    const entries = matches.map(({ skill, score }) => ({
      name: skill.name,
      ...(skill.alias === undefined ? {} : { alias: skill.alias }),
      score: Math.round(score * 1000) / 1000,
      visibility: visibilityOf(skill.name),
      description: listingDescription(skill),
      source: skill.source,
      path: skill.filePath,
    }));
    io.stdout(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  if (matches.length === 0) {
    io.stdout(`No skill matches "${options.query.trim()}".\n`);
    return 0;
  }
  const lines = matches.map(({ skill, score }, i) => {
    const description = listingDescription(skill);
    const shown =
      description.length > LIST_DESCRIPTION_WIDTH
        ? `${description.slice(0, LIST_DESCRIPTION_WIDTH - 1)}…`
        : description;
    const sees = describeVisibility(visibilityOf(skill.name));
    return `${String(i + 1).padStart(2)}. ${displayName(skill)}  [${skill.source}]  score ${score.toFixed(2)}  listed: ${sees}\n    ${shown}`;
  });
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
