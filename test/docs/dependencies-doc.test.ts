// docs/dependencies.md says which runtime dependencies are bundled into dist/bin and which are loaded from
// node_modules (how their security fixes reach users depends on it): this keeps its two tables true to the
// built bin, where a package left outside the bundle is still imported by its name and a bundled one is not.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../cli/run-cli.js";

const ROOT = join(import.meta.dirname, "..", "..");

beforeAll(() => {
  assertBuilt();
});

/** The packages named in backticks in the rows of the table under `heading` (its first column). */
function tablePackages(doc: string, heading: string): string[] {
  const start = doc.indexOf(heading);
  if (start < 0) throw new Error(`docs/dependencies.md has no "${heading}"`);
  const rows = doc.slice(start).split("\n\n")[1] ?? "";
  return rows
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""));
}

/**
 * Whether `code` imports `name` (or a subpath of it) by its bare name, or resolves it to load it elsewhere
 * (`import.meta.resolve`: the simulated sandbox's worker imports just-bash from the URL).
 */
function importsByName(code: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(
    `(?:from|import\\(|require\\(|import\\.meta\\.resolve\\()\\s*["']${escaped}(?:/[^"']*)?["']`,
  ).test(code);
}

describe("docs/dependencies.md", () => {
  it("lists every runtime dependency as bundled into dist/bin or loaded from node_modules, as the build does", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
    };
    const doc = readFileSync(join(ROOT, "docs/dependencies.md"), "utf8");
    const bundledRows = tablePackages(doc, "Bundled into `dist/bin/`");
    const outsideRows = tablePackages(doc, "Loaded from `node_modules` at run time");
    const bin = join(ROOT, "dist/bin");
    const code = readdirSync(bin)
      .filter((file) => /\.(c?js|mjs)$/.test(file))
      .map((file) => readFileSync(join(bin, file), "utf8"))
      .join("\n");
    const listed = (name: string, rows: readonly string[]) =>
      rows.some((row) => row === name || (row.endsWith("/*") && name.startsWith(row.slice(0, -1))));
    const wrong: string[] = [];
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies)]) {
      const outside = importsByName(code, name);
      if (outside && !listed(name, outsideRows)) wrong.push(`${name} is loaded from node_modules`);
      if (!outside && !listed(name, bundledRows)) wrong.push(`${name} is bundled`);
    }
    expect(wrong).toEqual([]);
    expect(bundledRows.length).toBeGreaterThan(5);
    expect(outsideRows.length).toBeGreaterThan(3);
  });
});
