/** Cells of the bar drawn on a terminal. */
export const PROGRESS_BAR_WIDTH = 24;

/** Progress of the model runs of trigger cases. */
export interface Progress {
  /** Sets the number of runs to come (nothing is drawn for 0). */
  start(total: number): void;
  /** One run finished; `label` names its case. */
  tick(label: string): void;
  /** Ends the bar's line (terminal); idempotent. */
  finish(): void;
}

/** Where progress goes and how it is drawn. */
export interface ProgressOptions {
  write: (text: string) => void;
  /** A terminal: one bar redrawn in place with `\r`; otherwise one plain line per run. */
  tty: boolean;
  now: () => number;
}

/** Elapsed time as `12.3s` (under a minute) or `2m05s`. Pure. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s`;
}

/** The terminal bar: `[████░░░░] 3/10 model runs · 1.2s · label`. Pure. */
export function progressBar(done: number, total: number, elapsedMs: number, label: string): string {
  const filled = total === 0 ? PROGRESS_BAR_WIDTH : Math.round((done / total) * PROGRESS_BAR_WIDTH);
  const bar = "█".repeat(filled) + "░".repeat(PROGRESS_BAR_WIDTH - filled);
  return `[${bar}] ${done}/${total} model runs · ${elapsedText(elapsedMs)}${label === "" ? "" : ` · ${label}`}`;
}

/** The line written per run when stderr is not a terminal. Pure. */
export function progressLine(done: number, total: number, elapsedMs: number, label: string): string {
  return `model run ${done}/${total} (${elapsedText(elapsedMs)}): ${label}\n`;
}

/**
 * A progress display for model runs: on a terminal a bar redrawn in place (`\r`, then `\x1b[K` to clear what a
 * longer line left), ended with a newline by `finish`; elsewhere a plain line per run.
 */
export function createProgress(options: ProgressOptions): Progress {
  let total = 0;
  let done = 0;
  let started = 0;
  let open = false;
  return {
    start(count) {
      total = count;
      done = 0;
      started = options.now();
      if (count === 0) return;
      if (options.tty) {
        options.write(`\r${progressBar(0, total, 0, "")}\x1b[K`);
        open = true;
      }
    },
    tick(label) {
      done += 1;
      const elapsed = options.now() - started;
      if (!options.tty) {
        options.write(progressLine(done, total, elapsed, label));
        return;
      }
      options.write(`\r${progressBar(done, total, elapsed, label)}\x1b[K`);
      open = true;
    },
    finish() {
      if (open) options.write("\n");
      open = false;
    },
  };
}
