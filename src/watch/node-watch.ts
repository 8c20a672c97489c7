import { watch } from "node:fs";

/** One open watch; `close` stops it. */
export interface WatchHandle {
  close(): void;
}

/**
 * Starts watching `dir` (and, when `recursive`, everything under it); `listener` gets the changed path relative to
 * `dir` when the platform says. Throws when the dir cannot be watched.
 */
export type WatchFn = (
  dir: string,
  recursive: boolean,
  listener: (filename: string | undefined) => void,
) => WatchHandle;

/**
 * `node:fs.watch` as a {@link WatchFn}. Recursive watching is native on macOS and Windows and done by Node
 * itself on Linux (Node ≥ 20), so no file-watching package is needed. A watcher that fails later (its dir
 * removed) closes itself; the next reload watches again.
 */
export function createNodeWatch(): WatchFn {
  return (dir, recursive, listener) => {
    const watcher = watch(dir, { recursive }, (_event, filename) =>
      listener(filename === null ? undefined : String(filename)),
    );
    watcher.on("error", () => watcher.close());
    return { close: () => watcher.close() };
  };
}
