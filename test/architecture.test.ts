// The tree's shape, checked: folders are layers that point down only, and no file imports one that imports it
// back. Every relative import (static, type-only, dynamic, `export … from`) of every file under src/ is read.
// For the layers, each file is mapped to its unit (its top-level folder, or the file itself for a file directly
// in src/) and the unit graph must have no cycle; for the files, the file graph itself must have none. A failure
// prints each cycle and the imports that close it. The listing's folder is pure: it imports no node: module and
// nothing from io/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** One relative import: the importing file and the imported file, both relative to src/. */
interface FileEdge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative imports of `text` (a file at `file` under `root`), resolved to paths relative to `root`. */
function relativeImports(root: string, file: string, text: string): FileEdge[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .filter((imported) => imported.fileName.startsWith("."))
    .map((imported) => ({
      from: relative(root, file),
      to: relative(root, resolve(dirname(file), imported.fileName)).replace(/\.js$/, ".ts"),
    }));
}

/** The unit a src-relative path belongs to: `session` for `session/open.ts`, `engine.ts` for `engine.ts`. */
function unitOf(path: string): string {
  return path.split("/")[0] ?? path;
}

/**
 * Every cycle of the graph whose nodes are `nodeOf` each file (its strongly connected components of more than
 * one node, each sorted; Tarjan). An edge within one node is no cycle.
 */
function cyclesOf(edges: readonly FileEdge[], nodeOf: (path: string) => string): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = nodeOf(from);
    const b = nodeOf(to);
    if (a === b) continue;
    next.set(a, (next.get(a) ?? new Set()).add(b));
    if (!next.has(b)) next.set(b, new Set());
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (unit: string): void => {
    index.set(unit, counter);
    low.set(unit, counter);
    counter++;
    stack.push(unit);
    onStack.add(unit);
    for (const target of next.get(unit) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(unit, Math.min(low.get(unit)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(unit, Math.min(low.get(unit)!, index.get(target)!));
      }
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const unit of [...next.keys()].sort()) if (!index.has(unit)) visit(unit);
  return cycles;
}

/** Every cycle of the unit graph: folders (and top-level files) that import each other. */
function unitCycles(edges: readonly FileEdge[]): string[][] {
  return cyclesOf(edges, unitOf);
}

/** Every cycle of the file graph: files that import each other, directly or through others. */
function fileCycles(edges: readonly FileEdge[]): string[][] {
  return cyclesOf(edges, (path) => path);
}

/**
 * File circles tolerated for now, each exactly as `fileCycles` reports it. Only these exact circles pass; any
 * other circle, or one of these grown by a file, fails.
 */
const ALLOWED_FILE_CYCLES: readonly (readonly string[])[] = [];

/** Entries: the only files that may export what another module defines. */
const ENTRIES = ["index.ts", "testing.ts"];

/**
 * The names `text` re-exports from elsewhere: `export … from "…"`, `export * from "…"`, and `export { a }`
 * of a name it imported.
 */
function reExports(text: string): string[] {
  const file = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imported = new Set<string>();
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name !== undefined) imported.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const element of bindings.elements) imported.add(element.name.text);
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) imported.add(bindings.name.text);
    }
  }
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    const from = statement.moduleSpecifier;
    if (clause === undefined) {
      found.push(`* from ${from?.getText(file) ?? "?"}`);
      continue;
    }
    if (!ts.isNamedExports(clause)) {
      found.push(`* as ${clause.name.text}`);
      continue;
    }
    for (const element of clause.elements) {
      const local = (element.propertyName ?? element.name).text;
      if (from !== undefined || imported.has(local)) found.push(element.name.text);
    }
  }
  return found;
}

function srcEdges(): FileEdge[] {
  return sourceFiles(SRC).flatMap((file) => relativeImports(SRC, file, readFileSync(file, "utf8")));
}

function describeCycle(
  cycle: readonly string[],
  edges: readonly FileEdge[],
  nodeOf: (path: string) => string = unitOf,
): string {
  const members = new Set(cycle);
  const closing = edges.filter(
    (edge) =>
      nodeOf(edge.from) !== nodeOf(edge.to) && members.has(nodeOf(edge.from)) && members.has(nodeOf(edge.to)),
  );
  const lines = new Set(closing.map((edge) => `  ${edge.from} → ${edge.to}`));
  return [`cycle: ${cycle.join(" ⇄ ")}`, ...lines].join("\n");
}

describe("folders are layers that point down only", () => {
  it("no folder (or top-level file) of src/ imports one that imports it back", () => {
    const edges = srcEdges();
    const report = unitCycles(edges).map((cycle) => describeCycle(cycle, edges));
    expect(report.join("\n\n")).toBe("");
  });

  it("the check finds a cycle through two folders, and one through three", () => {
    expect(
      unitCycles([
        { from: "a/x.ts", to: "b/y.ts" },
        { from: "b/y.ts", to: "a/z.ts" },
        { from: "c/q.ts", to: "a/x.ts" },
      ]),
    ).toEqual([["a", "b"]]);
    expect(
      unitCycles([
        { from: "a/x.ts", to: "b/y.ts" },
        { from: "b/y.ts", to: "c.ts" },
        { from: "c.ts", to: "a/x.ts" },
      ]),
    ).toEqual([["a", "b", "c.ts"]]);
    expect(unitCycles([{ from: "a/x.ts", to: "a/y.ts" }])).toEqual([]);
  });

  it("reads static, type-only, dynamic and re-export imports", () => {
    const text = [
      'import { a } from "../a/a.js";',
      'import type { B } from "../b/b.js";',
      'export { c } from "./c.js";',
      'const d = await import("../d.js");',
      'import { e } from "node:fs";',
    ].join("\n");
    expect(relativeImports("/src", "/src/x/file.ts", text).map((edge) => edge.to)).toEqual([
      "a/a.ts",
      "b/b.ts",
      "x/c.ts",
      "d.ts",
    ]);
  });
});

describe("no file imports one that imports it back", () => {
  it("no file of src/ is on an import circle (type-only and dynamic imports included)", () => {
    const edges = srcEdges();
    const allowed = new Set(ALLOWED_FILE_CYCLES.map((cycle) => cycle.join(" ")));
    const report = fileCycles(edges)
      .filter((cycle) => !allowed.has(cycle.join(" ")))
      .map((cycle) => describeCycle(cycle, edges, (path) => path));
    expect(report.join("\n\n")).toBe("");
  });

  it("the check finds a circle of two files in one folder, and one through three, but not a chain", () => {
    expect(
      fileCycles([
        { from: "a/x.ts", to: "a/y.ts" },
        { from: "a/y.ts", to: "a/x.ts" },
        { from: "b/q.ts", to: "a/x.ts" },
      ]),
    ).toEqual([["a/x.ts", "a/y.ts"]]);
    expect(
      fileCycles([
        { from: "a/x.ts", to: "b/y.ts" },
        { from: "b/y.ts", to: "c.ts" },
        { from: "c.ts", to: "a/x.ts" },
      ]),
    ).toEqual([["a/x.ts", "b/y.ts", "c.ts"]]);
    expect(
      fileCycles([
        { from: "a/x.ts", to: "a/y.ts" },
        { from: "a/y.ts", to: "a/z.ts" },
      ]),
    ).toEqual([]);
  });
});

describe("the listing is pure", () => {
  it("no file of src/listing/ imports a node: module or io/ (its I/O comes from its callers)", () => {
    const impure = sourceFiles(join(SRC, "listing")).flatMap((file) => {
      const imported = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
      return imported
        .map((entry) => entry.fileName)
        .filter((name) => name.startsWith("node:") || /^(\.\.\/)+io\//.test(name))
        .map((name) => `${relative(SRC, file)} → ${name}`);
    });
    expect(impure).toEqual([]);
  });
});

describe("no file but the entries re-exports from elsewhere", () => {
  it("every module outside src/index.ts and src/testing.ts exports only what it defines", () => {
    const shims = sourceFiles(SRC)
      .filter((file) => !ENTRIES.includes(relative(SRC, file)))
      .flatMap((file) => {
        const names = reExports(readFileSync(file, "utf8"));
        return names.length === 0 ? [] : [`${relative(SRC, file)}: ${names.join(", ")}`];
      });
    expect(shims).toEqual([]);
  });

  it("the check sees `export … from`, `export *` and a re-exported import, not a module's own exports", () => {
    const text = [
      'import { a, type B } from "./a.js";',
      'import def from "./def.js";',
      'export { c, type D } from "./c.js";',
      'export * from "./e.js";',
      "export { a, def };",
      "export type { B as Bee };",
      "const own = 1;",
      "export { own };",
      "export function f() {}",
    ].join("\n");
    expect(reExports(text)).toEqual(["c", "D", '* from "./e.js"', "a", "def", "Bee"]);
  });
});
