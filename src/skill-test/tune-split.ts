/** One trigger prompt of a tune run: whose case it came from, what that case expects, and how many runs. */
export interface TunePrompt {
  prompt: string;
  /** The skill whose trigger case holds the prompt (the tuned skill or a neighbour). */
  owner: string;
  /** What the owner's case expects of the owner: `trigger` (a `should` prompt) or `no-trigger`. */
  expected: "trigger" | "no-trigger";
  /** The owner case's `runs`. */
  runs: number;
}

/** The prompts split in two: the working part (scored for every description) and the held-out part. */
export interface TuneSplit {
  seed: number;
  working: TunePrompt[];
  heldOut: TunePrompt[];
}

/** 32-bit FNV-1a of a text: the seed a skill's name gives when `--seed` is not. Pure. */
export function seedOfName(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** mulberry32: a small seeded generator of numbers in [0, 1), the same sequence for the same seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many of a group of `n` prompts are held out: a third, rounded, at least one once there are two. Pure. */
export function heldOutCount(n: number): number {
  return n < 2 ? 0 : Math.max(1, Math.round(n / 3));
}

/**
 * Splits `prompts` into a working and a held-out part, deterministically for a seed: each group (one owner and
 * one expectation, e.g. the tuned skill's `should` prompts) is shuffled on its own and {@link heldOutCount} of
 * it held out, so both parts get some of each group that has two or more. A prompt given twice keeps its first
 * entry (list the tuned skill's prompts first). Both parts keep the order the prompts were given in. Pure.
 */
export function splitPrompts(prompts: readonly TunePrompt[], seed: number): TuneSplit {
  const seen = new Set<string>();
  const unique = prompts.filter((p) => {
    if (seen.has(p.prompt)) return false;
    seen.add(p.prompt);
    return true;
  });
  const groups = new Map<string, number[]>();
  unique.forEach((p, i) => {
    const key = `${p.owner}\0${p.expected}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const random = generator(seed);
  const held = new Set<number>();
  for (const members of groups.values()) {
    const order = [...members];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (const index of order.slice(0, heldOutCount(order.length))) held.add(index);
  }
  return {
    seed,
    working: unique.filter((_, i) => !held.has(i)),
    heldOut: unique.filter((_, i) => held.has(i)),
  };
}
