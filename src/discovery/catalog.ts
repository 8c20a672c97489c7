import type { Discovery } from "./discover.js";

/** Memoised discovery for one engine: `get()` scans once, `reload()` rescans and tells the listeners. */
export interface SkillCatalog {
  get(): Promise<Discovery>;
  reload(): Promise<Discovery>;
  /**
   * A source changed: rescans (and tells the listeners) when something was discovered already; before the
   * first `get()` there is nothing to do, the first scan will see the change.
   */
  refresh(): void;
  /** Returns a function that removes the listener. */
  onChange(listener: (discovery: Discovery) => void): () => void;
}

/** Wraps a discovery function with memoisation and change events. */
export function createSkillCatalog(discover: () => Promise<Discovery>): SkillCatalog {
  let current: Promise<Discovery> | undefined;
  const listeners = new Set<(discovery: Discovery) => void>();
  return {
    get() {
      current ??= discover();
      return current;
    },
    async reload() {
      const mine = discover();
      current = mine;
      const discovery = await mine;
      // Two reloads in flight (a burst of source changes): only the newest tells the listeners, so an older
      // scan that finishes last never replaces a newer one.
      if (current === mine) for (const listener of listeners) listener(discovery);
      return discovery;
    },
    refresh() {
      if (current === undefined) return;
      void this.reload().catch(() => undefined);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
