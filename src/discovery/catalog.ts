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
      current = discover();
      const discovery = await current;
      for (const listener of listeners) listener(discovery);
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
