/** How long a live value may sit unused, and how many may be kept. */
export interface LiveCacheLimits {
  /** The most values kept; putting one more closes the least recently used. */
  max: number;
  /** A value unused this long is closed. */
  idleMs: number;
}

/**
 * A bounded cache of values that hold resources (a served session's open engine): each is taken out for
 * exclusive use and put back after, so a value in use is never closed under its user. Least recently put
 * goes first when the cache is full; a value left unused for `idleMs` is closed.
 */
export interface LiveCache<V> {
  /** Removes and returns the value under `key`: the caller owns it until it puts it back (or closes it). */
  take(key: string): V | undefined;
  /** Keeps `value` under `key` as the most recently used (closing one it replaces, and any beyond `max`). */
  put(key: string, value: V): void;
  /** Closes and forgets the value under `key`, if any. */
  drop(key: string): Promise<void>;
  /** Closes every value; later `put`s close their value at once. */
  close(): Promise<void>;
  /** How many values are kept. */
  size(): number;
}

/** A {@link LiveCache} that closes values with `close` (whose failure is ignored: the value is gone). */
export function createLiveCache<V>(
  limits: LiveCacheLimits,
  close: (value: V) => Promise<void>,
): LiveCache<V> {
  const entries = new Map<string, { value: V; timer: ReturnType<typeof setTimeout> }>();
  let closed = false;
  const shut = (value: V): Promise<void> => close(value).catch(() => {});
  const remove = (key: string): V | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    entries.delete(key);
    return entry.value;
  };
  return {
    take: remove,
    put(key, value) {
      const replaced = remove(key);
      if (replaced !== undefined && replaced !== value) void shut(replaced);
      if (closed) {
        void shut(value);
        return;
      }
      const timer = setTimeout(() => {
        if (entries.get(key)?.value !== value) return;
        entries.delete(key);
        void shut(value);
      }, limits.idleMs);
      timer.unref();
      entries.set(key, { value, timer });
      for (const oldest of entries.keys()) {
        if (entries.size <= limits.max) break;
        const evicted = remove(oldest);
        if (evicted !== undefined) void shut(evicted);
      }
    },
    async drop(key) {
      const value = remove(key);
      if (value !== undefined) await shut(value);
    },
    async close() {
      closed = true;
      const values = [...entries.keys()].flatMap((key) => {
        const value = remove(key);
        return value === undefined ? [] : [value];
      });
      await Promise.all(values.map(shut));
    },
    size: () => entries.size,
  };
}
