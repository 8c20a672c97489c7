import type { OutputFormat } from "./args.js";
import type { CliIo } from "./io.js";
import { cliProgress, type ProgressDone } from "./progress.js";

/** What the skill search's index build shows while it runs: how many skills it reads. Pure. */
export function searchIndexLabel(skills: number): string {
  return `building the search index of ${skills} skill${skills === 1 ? "" : "s"}`;
}

/**
 * Whether a run (`-p`, or the interactive mode, whose format is `text`) shows the progress of the index its
 * `SkillSearch` builds: only on a terminal's stderr, and only with text output. A script reading `-p`'s stdout
 * or stderr, or a JSON format, gets nothing. Pure.
 */
export function runShowsSearchProgress(run: { stderrIsTTY: boolean; outputFormat: OutputFormat }): boolean {
  return run.stderrIsTTY && run.outputFormat === "text";
}

/**
 * The `onIndexBuild` of a CLI skill search (`SkillSearcherOptions`): the search index's build shown as progress
 * on stderr once it takes over a second (a spinner on a terminal, `NO_COLOR` respected), nothing when `quiet`.
 */
export function searchIndexProgress(io: CliIo, quiet: boolean): (skills: number) => ProgressDone {
  const progress = cliProgress(io, quiet);
  return (skills) => progress(searchIndexLabel(skills));
}
