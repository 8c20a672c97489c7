import type { CliIo } from "./io.js";

/** How long work runs before its progress shows: shorter work stays silent. */
export const PROGRESS_DELAY_MS = 1000;
/** How often a terminal's spinner turns. */
export const SPINNER_FRAME_MS = 120;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;

/** Runs `fn` after `ms`, and returns what cancels it (injected: tests turn time themselves). */
export type Schedule = (fn: () => void, ms: number) => () => void;

/** Node's timers, unref'd: a pending progress line never keeps the process alive. */
export const nodeSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Where progress goes and how it may look. */
export interface ProgressOutput {
  stderr: (text: string) => void;
  /** A terminal: a spinner redrawn in place, erased when done. Else one plain line. */
  isTTY: boolean;
  /** `NO_COLOR` set (to anything): no colour codes. */
  noColor: boolean;
  /** `--json`: nothing at all (a script reads the output). */
  quiet: boolean;
  schedule: Schedule;
}

/** Ends a piece of work's progress (erasing a terminal's spinner); calling it twice is harmless. */
export type ProgressDone = () => void;

/**
 * Shows `label` on stderr while work runs, once it has run for {@link PROGRESS_DELAY_MS}: on a terminal a
 * spinner line redrawn every {@link SPINNER_FRAME_MS} (dimmed unless `noColor`) and erased by `done`; elsewhere
 * one line `label…`. Nothing when `quiet`.
 */
export function startProgress(out: ProgressOutput, label: string): ProgressDone {
  if (out.quiet) return () => {};
  let cancel: () => void;
  let frame = 0;
  let shown = false;
  const text = out.noColor ? label : `\u001b[2m${label}\u001b[22m`;
  const draw = () => {
    shown = true;
    out.stderr(`\r${SPINNER[frame % SPINNER.length]} ${text}…`);
    frame += 1;
    cancel = out.schedule(draw, SPINNER_FRAME_MS);
  };
  cancel = out.schedule(() => {
    if (out.isTTY) draw();
    else out.stderr(`${label}…\n`);
  }, PROGRESS_DELAY_MS);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    cancel();
    if (shown) out.stderr("\r\u001b[K");
  };
}

/**
 * Progress for a CLI run: stderr, a spinner when stderr is a terminal, no colour under `NO_COLOR` (set and not
 * empty, as no-color.org says), nothing when `quiet` (`--json`).
 */
export function cliProgress(io: CliIo, quiet: boolean): (label: string) => ProgressDone {
  const out: ProgressOutput = {
    stderr: io.stderr,
    isTTY: io.stderrIsTTY === true,
    noColor: (io.env.NO_COLOR ?? "") !== "",
    quiet,
    schedule: nodeSchedule,
  };
  return (label) => startProgress(out, label);
}
