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
 * (`skillwright keys create`, on any instance) works at once; a key deleted from the store stops working on
 * every instance within the TTL. Keys are held by their hash, never in clear.
 */
export interface ApiKeyCache {
  /** The workspace `key` belongs to, or undefined when the store does not know it. */
  workspaceFor(key: string): Promise<string | undefined>;
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
  return {
    async workspaceFor(key) {
      const hash = hashApiKey(key);
      const cached = entries.get(hash);
      if (cached !== undefined && cached.expiresAt > options.now()) return cached.workspaceId;
      entries.delete(hash);
      const workspaceId = await options.lookup(hash);
      if (workspaceId !== undefined) {
        entries.set(hash, { workspaceId, expiresAt: options.now() + ttlMs });
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next();
          if (oldest.done !== true) entries.delete(oldest.value);
        }
      }
      return workspaceId;
    },
  };
}
