import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { scanSkillRoots } from "../../src/discovery/scan-roots.js";
import { createNodeFs } from "../../src/io/fs.js";
import type { Skill } from "../../src/skill/skill.js";

/** The evaluation set in the repo (test/fixtures/skill-search-eval, see its README). */
export const EVAL_DIR = fileURLToPath(new URL("../fixtures/skill-search-eval/", import.meta.url));

/** One request of the set: what a person would type and the skill it expects. */
export interface EvalRequest {
  request: string;
  expected: string;
  split: "dev" | "test";
}

/** The set's skills, discovered as the CLI discovers a skills dir, and its requests. */
export async function loadEvalSet(): Promise<{ skills: Skill[]; requests: EvalRequest[] }> {
  const listing = await scanSkillRoots({
    fs: createNodeFs(),
    roots: [{ dir: `${EVAL_DIR}skills`, source: "project", layout: "skills", label: "eval" }],
  });
  const skills = [...listing.skills].sort((a, b) => (a.name < b.name ? -1 : 1));
  const parsed: unknown = JSON.parse(await readFile(`${EVAL_DIR}requests.json`, "utf8"));
  if (!Array.isArray(parsed)) throw new Error("requests.json is not an array");
  const requests = parsed.map((r: EvalRequest) => r);
  return { skills, requests };
}

/** Recall@k and MRR@10 of a ranking function over some requests. */
export async function measure(
  requests: readonly EvalRequest[],
  rank: (query: string) => Promise<readonly string[]>,
  k = 5,
): Promise<{ recall: number; mrr: number; misses: Array<{ request: EvalRequest; got: readonly string[] }> }> {
  let hits = 0;
  let reciprocal = 0;
  const misses: Array<{ request: EvalRequest; got: readonly string[] }> = [];
  for (const request of requests) {
    const names = await rank(request.request);
    const at = names.indexOf(request.expected);
    if (at !== -1 && at < k) hits += 1;
    else misses.push({ request, got: names.slice(0, k) });
    if (at !== -1 && at < 10) reciprocal += 1 / (at + 1);
  }
  return { recall: hits / requests.length, mrr: reciprocal / requests.length, misses };
}

/** Name parts that say what kind of skill it is, not which: sharing one of these is not sharing a distinctive word. */
const GENERIC_NAME_WORDS = new Set(
  "patterns pattern integration templates template design implementation configuration management analysis"
    .split(" ")
    .concat("setup writing development strategies frameworks framework workflow workflows using".split(" ")),
);

/** True when the request has a word (3+ letters) that begins, or is begun by, a distinctive part of the name. */
export function sharesNameWord(request: string, name: string): boolean {
  const words = request.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const parts = name.split("-").filter((p) => p.length >= 3 && !GENERIC_NAME_WORDS.has(p));
  return words.some(
    (w) =>
      w.length >= 3 &&
      parts.some(
        (p) => w === p || (Math.min(w.length, p.length) >= 4 && (w.startsWith(p) || p.startsWith(w))),
      ),
  );
}
