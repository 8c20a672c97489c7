import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { skillPatterns } from "../../src/activation/globs.js";
import { type ConditionalSkill, createPathMatcher } from "../../src/activation/path-matcher.js";
import { seededRandom } from "../support/seeded-random.js";

const skill = (name: string, paths?: string[]): ConditionalSkill =>
  paths === undefined
    ? { name, filePath: `/s/${name}/SKILL.md` }
    : { name, paths, filePath: `/s/${name}/SKILL.md` };

describe("createPathMatcher", () => {
  const skills = [
    skill("ts", ["src/**/*.ts"]),
    skill("md", ["*.md"]),
    skill("pkg", ["packages/x/**"]),
    skill("ui", ["src/{components,pages}/*.{tsx,css}"]),
    skill("docs", ["docs/"]),
    skill("root", ["/Makefile"]),
    skill("plain"),
    skill("any", ["*"]),
  ];
  const matcher = createPathMatcher(skills);

  const table: [paths: string[], expected: string[]][] = [
    [["src/a.ts"], ["any", "ts"]],
    [["README.md"], ["any", "md"]],
    [["packages/x/src/index.js"], ["any", "pkg"]],
    [["packages/y/src/index.js"], ["any"]],
    [
      ["src/pages/home.tsx", "src/pages/home.css"],
      ["any", "ui"],
    ],
    [["src/lib/home.tsx"], ["any"]],
    [["docs/guide/intro.txt"], ["any", "docs"]],
    [["docs"], ["any"]],
    [
      ["Makefile", "sub/Makefile"],
      ["any", "root"],
    ],
    [["./src/a.ts"], ["any", "ts"]],
    [["../src/a.ts", "/src/a.ts", ""], []],
  ];
  it.each(table)("%j → %j", (paths, expected) => {
    expect([...matcher.match(paths)].sort()).toEqual(expected);
  });

  it("leaves skills without paths out and shares identical patterns", () => {
    const shared = createPathMatcher([skill("a", ["*.md", "*.md"]), skill("b", ["*.md"]), skill("c")]);
    expect(shared.skillCount).toBe(2);
    expect(shared.patternCount).toBe(1);
    expect([...shared.match(["x.md"])].sort()).toEqual(["a", "b"]);
  });

  it("skips excluded skills", () => {
    expect([...matcher.match(["src/a.ts"], new Set(["any"]))]).toEqual(["ts"]);
    expect([...matcher.match(["src/a.ts"], new Set(["any", "ts"]))]).toEqual([]);
  });

  it("a session reports each skill once, in match order, and honours exclude()", () => {
    const session = createPathMatcher([
      skill("a", ["*.md"]),
      skill("b", ["*.md", "*.ts"]),
      skill("c", ["*.ts"]),
      skill("d", ["docs/"]),
    ]).session(["a"]);
    expect(session.match(["x.ts"])).toEqual(["b", "c"]);
    expect(session.match(["y.md", "z.ts"])).toEqual([]);
    session.exclude(["d", "unknown"]);
    expect(session.match(["docs/a"])).toEqual([]);
  });

  it("a pattern shared by a done skill and a pending one still matches for the pending one", () => {
    const shared = createPathMatcher([skill("a", ["*.md"]), skill("b", ["*.md"])]);
    const session = shared.session(["a"]);
    expect(session.match(["x.md"])).toEqual(["b"]);
    expect(session.match(["x.md"])).toEqual([]);
    expect([...shared.match(["x.md"])]).toEqual(["a", "b"]);
  });

  it("indexes fallback patterns too", () => {
    const fallback = createPathMatcher([skill("mig", ["**/[Mm]igrations/*.sql"]), skill("cls", ["*.[ch]"])]);
    expect([...fallback.match(["db/Migrations/1.sql", "a/b.c"])].sort()).toEqual(["cls", "mig"]);
    expect([...fallback.match(["db/other/1.sql", "a/b.x"])]).toEqual([]);
  });

  it("honours ! patterns in the skill's order, as .gitignore does", () => {
    const negating = createPathMatcher([
      skill("not-tests", ["src/**/*.ts", "!src/**/*.test.ts"]),
      skill("reincluded", ["*.md", "!*.md", "*.md"]),
      skill("only-negation", ["!*.ts"]),
    ]);
    expect([...negating.match(["src/a.test.ts"])]).toEqual([]);
    expect([...negating.match(["src/a.test.ts", "src/a.ts"])]).toEqual(["not-tests"]);
    expect([...negating.match(["a.md"])]).toEqual(["reincluded"]);
    expect([...negating.match(["a.ts", "b.js"])]).toEqual([]);
  });

  it("the first skill of a name wins", () => {
    const dup = createPathMatcher([skill("x", ["*.md"]), skill("x", ["*.ts"])]);
    expect([...dup.match(["a.ts"])]).toEqual([]);
    expect([...dup.match(["a.md"])]).toEqual(["x"]);
  });

  it("reports the pattern bound", () => {
    const big = createPathMatcher([skill("big", ["f{1..2000}"])]);
    expect(big.diagnostics).toMatchObject([{ code: "field-invalid" }]);
    expect([...big.match(["f1000"])]).toEqual(["big"]);
    expect([...big.match(["f1001"])]).toEqual([]);
  });
});

describe("createPathMatcher agrees with one ignore instance per skill", () => {
  const next = seededRandom(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const GLOBS = [
    "*.ts",
    "*.md",
    "src/**/*.ts",
    "src/*.tsx",
    "docs/",
    "/docs/*.md",
    "packages/{a,b}/**",
    "**/test/*.js",
    "lib/**",
    "*.{json,yaml}",
    "Makefile",
    "!*.test.ts",
    "a[bc]/*.ts",
    "src/**/index.*",
    "?.py",
    "**/*.d.ts",
    "scripts/*",
    "SRC/*.TS",
  ];
  const SEGS = ["src", "docs", "packages", "a", "b", "ab", "test", "lib", "scripts", "x"];
  const FILES = [
    "a.ts",
    "b.test.ts",
    "c.md",
    "d.tsx",
    "index.js",
    "e.json",
    "Makefile",
    "q.py",
    "x.d.ts",
    "f.yaml",
  ];

  it("on 200 random skills and 2,000 random paths", () => {
    const skills = Array.from({ length: 200 }, (_, i) =>
      skill(
        `s${i}`,
        Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(GLOBS)),
      ),
    );
    const paths = Array.from({ length: 2_000 }, () => {
      const depth = Math.floor(next() * 4);
      return [...Array.from({ length: depth }, () => pick(SEGS)), pick(FILES)].join("/");
    });
    const matcher = createPathMatcher(skills);
    const rules = skills.map((s) => ignore().add(skillPatterns(s).patterns));
    const session = matcher.session();
    const sessionSoFar = new Set<string>();
    const expectedSoFar = new Set<string>();
    let hits = 0;
    for (let start = 0; start < paths.length; start += 3) {
      const batch = paths.slice(start, start + 3);
      const expected = skills.filter((_, i) => batch.some((p) => rules[i]?.ignores(p))).map((s) => s.name);
      hits += expected.length;
      expect([...matcher.match(batch)].sort()).toEqual(expected.sort());
      for (const name of expected) expectedSoFar.add(name);
      for (const name of session.match(batch)) {
        expect(sessionSoFar.has(name)).toBe(false);
        sessionSoFar.add(name);
      }
      expect(sessionSoFar).toEqual(expectedSoFar);
    }
    // Neither nothing nor everything matches: the comparison means something.
    expect(hits).toBeGreaterThan(667 * 5);
    expect(hits).toBeLessThan(667 * 150);
  });
});
