import type { Discovery } from "./discover.js";

/** Memoised discovery for one engine: `get()` scans once, `reload()` rescans and tells the listeners. */
export interface SkillCatalog {
  get(): Promise<Discovery>;
  reload(): Promise<Discovery>;
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
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
