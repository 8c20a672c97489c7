import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The repository paths a text names: words starting `src/`, `test/`, `docs/`, `bench/` or `scripts/`, ending in
 * a file extension or `/` (a folder). Paths inside the layer tree block are folder names under `src/`.
 */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?<![\w./-])((?:src|test|docs|bench|scripts)\/[\w./-]*[\w/])/g)) {
    const path = match[1] ?? "";
    if (/\.\w+$/.test(path) || path.endsWith("/")) found.add(path);
  }
  const tree = text.match(/```\nsrc\/\n([\s\S]*?)```/)?.[1] ?? "";
  for (const line of tree.split("\n")) {
    const head = line.match(/^ {2}(\S.*?)(?: {2,}|$)/)?.[1] ?? "";
    for (const name of head.split(" ")) if (/^[\w.-]+\/?$/.test(name)) found.add(`src/${name}`);
  }
  return [...found].sort();
}

describe("ARCHITECTURE.md", () => {
  it("names only paths that exist", () => {
    const paths = namedPaths(readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8"));
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it("the check sees a path that does not exist, in the text and in the layer tree", () => {
    const text =
      "See src/nowhere/gone.ts and src/catalog/.\n\n```\nsrc/\n  ghost/  a folder\n  cli/   x\n```\n";
    const missing = namedPaths(text).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual(["src/ghost/", "src/nowhere/gone.ts"]);
  });
});
