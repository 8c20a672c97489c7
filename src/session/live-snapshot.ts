import type { Discovery } from "../catalog/catalog.js";
import type { SessionHost } from "./session-host.js";
import type { SessionSnapshot } from "./session-snapshot.js";

/** A session's current snapshot, following its host's catalog changes. */
export interface LiveSnapshot {
  /** The snapshot in force now. */
  current(): SessionSnapshot;
  /** Resolves once every change reported so far has reached the skills and its snapshot is in force. */
  settled(): Promise<void>;
  /** Stops following the host. */
  close(): void;
}

/**
 * Starts from `initial`; on each catalog change, hands the new skills to `onSkills` at once, then asks the host
 * for a new snapshot and swaps it in whole (changes in order; a snapshot that fails to build keeps the one in
 * force). Nothing is changed in place: a turn holding the previous snapshot keeps it.
 */
export function followSnapshots(
  host: SessionHost,
  initial: SessionSnapshot,
  onSkills: (discovery: Discovery) => void,
): LiveSnapshot {
  let current = initial;
  let reloading: Promise<void> = Promise.resolve();
  const stop = host.catalog.onChange((discovery) => {
    onSkills(discovery);
    reloading = reloading
      .then(() => host.snapshot())
      .then(
        (next) => {
          current = next;
        },
        () => undefined,
      );
  });
  return {
    current: () => current,
    settled: async () => {
      await host.catalog.get();
      await reloading;
    },
    close: stop,
  };
}
