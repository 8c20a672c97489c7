import type { FsOps } from "../io/fs.js";
import { createDebouncer, createNodeTimers, type Timers } from "./debounce.js";
import { createNodeWatch, type WatchFn, type WatchHandle } from "./node-watch.js";
import { isRelevantEvent, watchTargets } from "./watch-targets.js";

/** How long after the last change of a burst the reload runs. */
export const DEFAULT_WATCH_DELAY_MS = 150;

/** Live-reload settings for `createEngine({ watch })`; every field has a default. */
export interface WatchOptions {
  /** Quiet time after the last change before one reload (default {@link DEFAULT_WATCH_DELAY_MS}). */
  delayMs?: number;
  /** The debounce timer (default Node's). */
  timers?: Timers;
  /** How a directory is watched (default `node:fs.watch`). */
  watch?: WatchFn;
}

/** What {@link startSkillWatcher} needs: where the roots are now, and what to run after a burst of changes. */
export interface SkillWatcherInputs extends WatchOptions {
  fs: FsOps;
  /** The skill root dirs to watch, asked again before each reload (roots change with an environment switch). */
  roots: () => Promise<readonly string[]>;
  /** Runs once per burst of changes; its failure is ignored (the next change tries again). */
  onChange: () => Promise<unknown>;
}

/** A running watcher. */
export interface SkillWatcher {
  /** Resolves once the current set of directories is being watched. */
  ready(): Promise<void>;
  /** Watches the roots as they are now (after they changed, e.g. an environment switch). */
  rearm(): Promise<void>;
  /** Stops every watch and any pending reload. Idempotent. */
  close(): Promise<void>;
}

/**
 * Watches every skill root that exists (recursively) and the nearest existing parent of each that does not (for
 * the dir that would create it); a burst of changes becomes one `onChange` after `delayMs` of quiet. Before each
 * `onChange` the roots are watched anew, so a root created meanwhile is followed from then on.
 */
export function startSkillWatcher(inputs: SkillWatcherInputs): SkillWatcher {
  const watchFn = inputs.watch ?? createNodeWatch();
  let handles: WatchHandle[] = [];
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => {
    queue = queue.then(step).catch(() => undefined);
    return queue;
  };
  const arm = async () => {
    const targets = await watchTargets(inputs.fs, await inputs.roots());
    for (const handle of handles) handle.close();
    handles = [];
    if (closed) return;
    for (const target of targets) {
      try {
        handles.push(
          watchFn(target.dir, target.recursive, (filename) => {
            if (!closed && isRelevantEvent(target, filename)) debouncer.trigger();
          }),
        );
      } catch {
        // Gone or not watchable (permissions, watch limit): the others still work.
      }
    }
  };
  const debouncer = createDebouncer({
    delayMs: inputs.delayMs ?? DEFAULT_WATCH_DELAY_MS,
    timers: inputs.timers ?? createNodeTimers(),
    run: () =>
      void enqueue(async () => {
        if (closed) return;
        await arm();
        await inputs.onChange();
      }),
  });
  void enqueue(arm);
  return {
    ready: () => queue,
    rearm: () => enqueue(arm),
    async close() {
      closed = true;
      debouncer.cancel();
      await queue;
      for (const handle of handles) handle.close();
      handles = [];
    },
  };
}
