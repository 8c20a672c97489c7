import { hashApiKey } from "../store/ids.js";

/** How long a key found in the store is trusted without asking it again: a revocation elsewhere takes this long. */
export const API_KEY_TTL_MS = 5_000;

/** How many keys are kept at most; past it the oldest entry goes. */
export const API_KEY_CACHE_MAX = 10_000;

/** What the cache needs: the store's lookup by key hash, and a clock in milliseconds. */
export interface ApiKeyCacheOptions {
  /** The workspace of the key with this hash, or undefined for an unknown (or revoked) key. */
  lookup(keyHash: string): Promise<string | undefined>;
  now(): number;
  /** Default {@link API_KEY_TTL_MS}. */
  ttlMs?: number;
  /** Default {@link API_KEY_CACHE_MAX}. */
  maxEntries?: number;
}

/**
 * The workspace of each API key, remembered for a few seconds so that a request does not pay a database round
 * trip (and its scheduling jitter) for authentication. Only known keys are remembered, so a key just created
 * (`skillwright keys create`, on any instance) works at once; a key revoked in the store stops working on
 * every instance within the TTL (an entry's TTL runs from the moment its lookup was sent, so a lookup that
 * read the key just before its revocation cannot stretch it), and at once on the instance that revoked it
 * ({@link ApiKeyCache.forgetAll}). Keys are held by their hash, never in clear.
 */
export interface ApiKeyCache {
  /** The workspace `key` belongs to, or undefined when the store does not know it. */
  workspaceFor(key: string): Promise<string | undefined>;
  /** Forgets every key (one was just revoked): each key's next request asks the store again. */
  forgetAll(): void;
}

interface Entry {
  workspaceId: string;
  expiresAt: number;
}

/** A bounded cache of key hash → workspace over `options.lookup`; see {@link ApiKeyCache}. */
export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const ttlMs = options.ttlMs ?? API_KEY_TTL_MS;
  const maxEntries = options.maxEntries ?? API_KEY_CACHE_MAX;
  const entries = new Map<string, Entry>();
  // Bumped by `forgetAll`: a lookup sent before it may have read the key before its revocation, and is not kept.
  let generation = 0;
  return {
    async workspaceFor(key) {
      const hash = hashApiKey(key);
      const cached = entries.get(hash);
      if (cached !== undefined && cached.expiresAt > options.now()) return cached.workspaceId;
      entries.delete(hash);
      const sentAt = options.now();
      const sentIn = generation;
      const workspaceId = await options.lookup(hash);
      if (workspaceId !== undefined && sentIn === generation) {
        entries.set(hash, { workspaceId, expiresAt: sentAt + ttlMs });
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (oldest.done !== true) entries.delete(oldest.value);
        }
      }
      return workspaceId;
    },
    forgetAll() {
      generation += 1;
      entries.clear();
    },
  };
}
