// What a session's listing leans towards besides usage (issue #25 item 4, a deviation from SPEC §3): the skills
// most relevant to the session's first prompt, and a rotation of the skills nobody has used yet, both decided
// once at the session's first request so the listing stays the same bytes all session (prompt caching).

/** Share of the chars left for descriptions (after the name-only lines) kept for the focus's skills first. */
export const DISCOVERY_SHARE = 0.25;

/** How many of the first prompt's best matches count as relevant (the skill search's own limit). */
export const RELEVANT_LIMIT = 10;

/**
 * What the listing favours in a session, besides usage: `relevant`, the names of the skills that best match the
 * session's first prompt (best first), and `seed`, which orders the skills without a usage score (a different
 * slice of the never-used skills gets its description in sessions that open differently).
 */
export interface ListingFocus {
  readonly relevant: readonly string[];
  readonly seed: number;
}

/** FNV-1a over the UTF-16 code units of `text`, from `basis`: a 32-bit unsigned hash. Pure. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const FNV_BASIS = 0x811c9dc5;

/** The rotation seed of a session whose first prompt is `prompt`: the same prompt, the same seed. Pure. */
export function focusSeed(prompt: string): number {
  return fnv1a(prompt.trim(), FNV_BASIS);
}

/**
 * Where the skill `name` comes in the rotation of a session with `seed` (smaller first): a 32-bit hash of the
 * name from the seed, so each seed shuffles the skills differently and the same seed always the same way. Pure.
 */
export function rotationKey(name: string, seed: number): number {
  // One more mixing step: FNV's last bytes otherwise leave names that differ only at their end close together.
  let h = fnv1a(name, seed ^ FNV_BASIS);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}
