import ignore from "ignore";
import { describe, expect, it } from "vitest";
import {
  compileGlob,
  MAX_PATTERNS_PER_SKILL,
  matchPath,
  pathKeys,
  skillPatterns,
} from "../../src/activation/globs.js";

/** True when the pattern matches the path, through the compiled glob. */
function matches(pattern: string, path: string): boolean {
  return compileGlob(pattern)?.test(path) ?? false;
}

describe("compileGlob: gitignore semantics", () => {
  const table: [pattern: string, path: string, expected: boolean][] = [
    ["*.ts", "a.ts", true],
    ["*.ts", "src/deep/a.ts", true],
    ["*.ts", "a.tsx", false],
    ["*.ts", "a.ts.bak", false],
    ["*.ts", "types.ts/readme.md", true],
    ["*.TS", "src/A.ts", true],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**/*.ts", "lib/src/a.ts", false],
    ["src/**/*.ts", "src/a.js", false],
    ["src/*.ts", "src/x/a.ts", false],
    ["/root-only", "root-only", true],
    ["/root-only", "root-only/file", true],
    ["/root-only", "sub/root-only", false],
    ["dir/", "dir/file", true],
    ["dir/", "a/dir/b/file", true],
    ["dir/", "dir", false],
    ["dir/", "dir/", true],
    ["docs", "docs/guide.md", true],
    ["docs", "x/docs", true],
    ["packages/x/**", "packages/x/src/a.ts", true],
    ["packages/x/**", "packages/x", false],
    ["packages/x/**", "packages/xy/a", false],
    ["packages/x/**", "other/packages/x/a", false],
    ["**/fixtures/*.json", "a/b/fixtures/c.json", true],
    ["**/fixtures/*.json", "fixtures/c.json", true],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a/**/b", "a/xb", false],
    ["a/**/", "a/x/file", true],
    ["a/**/", "a/file", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["*", "anything/at/all", true],
    ["**", "anything/at/all", true],
    ["a[bc].ts", "ac.ts", true],
    ["a[bc].ts", "ad.ts", false],
    ["\\#hash", "#hash", true],
    ["# comment", "# comment", false],
    ["", "a", false],
    ["./src/*.ts", "src/a.ts", false],
    ["**.ts", "x/a.ts", true],
    ["a.(x)+", "a.(x)+", true],
    ["a.(x)+", "a.xx", false],
  ];
  it.each(table)("%j on %j → %j", (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it("normalises ./ through skillPatterns so ./src/*.ts is anchored at the cwd", () => {
    const { patterns } = skillPatterns({ name: "s", paths: ["./src/*.ts", "!./src/x.ts"], filePath: "" });
    expect(patterns).toEqual(["/src/*.ts", "!/src/x.ts"]);
    expect(matches("/src/*.ts", "src/a.ts")).toBe(true);
    expect(matches("/src/*.ts", "lib/src/a.ts")).toBe(false);
  });

  it("keeps negation as a flag and compiles the body", () => {
    const glob = compileGlob("!*.md");
    expect(glob?.negated).toBe(true);
    expect(glob?.test("a.md")).toBe(true);
  });

  it("indexes by extension, then literal segment, else none", () => {
    expect(compileGlob("src/**/*.ts")?.key).toBe("ext:ts");
    expect(compileGlob("*.D.TS")?.key).toBe("ext2:d.ts");
    expect(compileGlob(".ts")?.key).toBe("ext:ts");
    expect(compileGlob("*.t*.ts")?.key).toBe("ext:ts");
    expect(compileGlob("**/[Mm]igrations/*.sql")?.key).toBe("ext:sql");
    expect(compileGlob("[Mm]igrations/")?.key).toBeUndefined();
    expect(compileGlob("lib/[Mm]igrations/")?.key).toBe("seg:lib");
    expect(compileGlob("*.ts ")?.key).toBeUndefined();
    expect(compileGlob("packages/x/**")?.key).toBe("seg:x");
    expect(compileGlob("docs/")?.key).toBe("seg:docs");
    expect(compileGlob("src/*")?.key).toBe("seg:src");
    expect(compileGlob("*.t?")?.key).toBeUndefined();
    expect(compileGlob("*")?.key).toBeUndefined();
    expect(compileGlob("a[bc]/*.t[sx]")?.key).toBeUndefined();
  });
});

/** Every combination of these, against every path below, must agree with `ignore` itself. */
const SEGMENTS = ["a", "b.ts", "*", "**", "*.ts", "a*", "?", "*b*", "B.TS", "***", "x.d.ts", "a.", "(x)"];
const PATHS = [
  "a",
  "b.ts",
  "a/b.ts",
  "a/a/b.ts",
  "x/a/b.ts",
  "a/x/y/b.ts",
  "a.ts",
  "ab",
  "a/b",
  "b.ts/a",
  "x/b.ts/y/z",
  "A/B.TS",
  "a.",
  "a/",
  "a/b/",
  "z/a.d.ts",
  "(x)/a",
  "q/x.d.ts",
  ".hidden/a",
  "a/.b.ts",
];

function* patternsFor(depth: number): Generator<string> {
  if (depth === 0) return;
  for (const s of SEGMENTS) {
    yield s;
    for (const rest of patternsFor(depth - 1)) yield `${s}/${rest}`;
  }
}

describe("compileGlob agrees with ignore", () => {
  it("on every pattern of up to three segments, plain, anchored and dir-only", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const body of patternsFor(3)) {
      for (const pattern of [body, `/${body}`, `${body}/`, `/${body}/`]) {
        const rules = ignore().add(pattern);
        const glob = compileGlob(pattern);
        for (const path of PATHS) {
          const expected = rules.ignores(path);
          const actual = glob?.test(path) ?? false;
          checked += 1;
          if (expected !== actual) mismatches.push(`${pattern} on ${path}: ignore=${expected}`);
        }
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

describe("skillPatterns", () => {
  it("expands braces per glob in order", () => {
    expect(skillPatterns({ name: "s", paths: ["src/{a,b}/*.{ts,tsx}", "*.md"], filePath: "/f" })).toEqual({
      patterns: ["src/a/*.ts", "src/a/*.tsx", "src/b/*.ts", "src/b/*.tsx", "*.md"],
      diagnostics: [],
    });
  });

  it(`keeps the first ${MAX_PATTERNS_PER_SKILL} patterns and warns`, () => {
    const paths = ["{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}/{x,y}", "late.md"];
    const { patterns, diagnostics } = skillPatterns({ name: "big", paths, filePath: "/s/SKILL.md" });
    expect(patterns).toHaveLength(MAX_PATTERNS_PER_SKILL);
    expect(patterns[0]).toBe("a/a/a/x");
    expect(patterns).not.toContain("late.md");
    expect(diagnostics).toMatchObject([{ severity: "warning", code: "field-invalid", path: "/s/SKILL.md" }]);
  });

  it("exactly the bound is not a problem", () => {
    const paths = ["{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}"];
    const { patterns, diagnostics } = skillPatterns({ name: "s", paths, filePath: "" });
    expect(patterns).toHaveLength(1_000);
    expect(diagnostics).toEqual([]);
  });

  it("a huge range is cut without being materialised", () => {
    const started = Date.now();
    const { patterns, diagnostics } = skillPatterns({
      name: "s",
      paths: ["f{1..100000000}.ts"],
      filePath: "",
    });
    expect(patterns).toHaveLength(MAX_PATTERNS_PER_SKILL);
    expect(diagnostics).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000); // a materialised range would take minutes
  });

  it("is empty for a skill without paths", () => {
    expect(skillPatterns({ name: "s", filePath: "" })).toEqual({ patterns: [], diagnostics: [] });
  });
});

describe("pathKeys", () => {
  it("offers every segment, its extension and its double extension, lower-cased", () => {
    expect(pathKeys("Src/.Hidden/a.D.ts")).toEqual([
      "seg:src",
      "seg:.hidden",
      "ext:hidden",
      "seg:a.d.ts",
      "ext:ts",
      "ext2:d.ts",
    ]);
    expect(pathKeys("docs/")).toEqual(["seg:docs"]);
  });
});

describe("matchPath", () => {
  const table: [cwd: string, target: string, expected: string | undefined][] = [
    ["/repo", "/repo/src/a.ts", "src/a.ts"],
    ["/repo", "src/a.ts", "src/a.ts"],
    ["/repo", "./src/../lib/a.ts", "lib/a.ts"],
    ["/repo", "/repo", undefined],
    ["/repo", "/other/a.ts", undefined],
    ["/repo", "/repo-sibling/a.ts", undefined],
    ["/repo", "../repo2/a.ts", undefined],
    ["/repo", "/repo/..foo/a.ts", "..foo/a.ts"],
    ["/repo", "/repo/a/./b//c/", "a/b/c"],
    ["/repo", "/repo/a/../../x", undefined],
    ["/repo", "/repo/.", undefined],
    ["/repo", "/repo/", undefined],
    ["/", "/a/b", "a/b"],
  ];
  it.each(table)("%j + %j → %j", (cwd, target, expected) => {
    expect(matchPath(cwd, target)).toBe(expected);
  });
});

describe("compileGlob leaves what ignore rewrites to ignore", () => {
  const table: [pattern: string, path: string][] = [
    ["*.md ", "a.md"],
    ["docs\\ ", "docs "],
    ["\uFEFFdocs/", "docs/a"],
    ["a.md\r", "a.md"],
    ["a.md\nb.md", "b.md"],
  ];
  it.each(table)("%j on %j", (pattern, path) => {
    const glob = compileGlob(pattern);
    expect(glob?.key).toBeUndefined();
    expect(glob?.test(path)).toBe(ignore().add(pattern).ignores(path));
  });
});
