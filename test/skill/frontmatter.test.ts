import { describe, expect, it, vi } from "vitest";
import YAML from "yaml";
import { parseFrontmatter } from "../../src/skill/frontmatter.js";
import {
  lazyYaml,
  parseFrontmatterLazily,
  parseLenient,
  splitFrontmatter,
} from "../../src/skill/frontmatter-core.js";

describe("splitFrontmatter", () => {
  it.each([
    {
      case: "plain",
      text: "---\nname: x\n---\nbody\n",
      frontmatter: "name: x\n",
      body: "body\n",
      unclosed: false,
    },
    { case: "no fence", text: "just body\n", frontmatter: undefined, body: "just body\n", unclosed: false },
    {
      case: "BOM stripped",
      text: "\uFEFF---\nname: x\n---\nbody",
      frontmatter: "name: x\n",
      body: "body",
      unclosed: false,
    },
    {
      case: "BOM without frontmatter",
      text: "\uFEFFbody",
      frontmatter: undefined,
      body: "body",
      unclosed: false,
    },
    {
      case: "CRLF",
      text: "---\r\nname: x\r\n---\r\nbody\r\n",
      frontmatter: "name: x\r\n",
      body: "body\r\n",
      unclosed: false,
    },
    {
      case: "unclosed fence: whole file is body",
      text: "---\nname: x\nbody\n",
      frontmatter: undefined,
      body: "---\nname: x\nbody\n",
      unclosed: true,
    },
    { case: "empty frontmatter", text: "---\n---\nbody", frontmatter: "", body: "body", unclosed: false },
    { case: "only frontmatter", text: "---\na: 1\n---", frontmatter: "a: 1\n", body: "", unclosed: false },
    { case: "empty file", text: "", frontmatter: undefined, body: "", unclosed: false },
    {
      case: "fence with trailing spaces",
      text: "---  \na: 1\n---\t\nb",
      frontmatter: "a: 1\n",
      body: "b",
      unclosed: false,
    },
    {
      case: "---- is not a fence",
      text: "---\na: 1\n----\nb\n",
      frontmatter: undefined,
      body: "---\na: 1\n----\nb\n",
      unclosed: true,
    },
    {
      case: "fence not on the first line",
      text: "\n---\na: 1\n---\nb",
      frontmatter: undefined,
      body: "\n---\na: 1\n---\nb",
      unclosed: false,
    },
    {
      case: "second --- pair stays in the body",
      text: "---\na: 1\n---\nx\n---\ny\n",
      frontmatter: "a: 1\n",
      body: "x\n---\ny\n",
      unclosed: false,
    },
  ])("$case", ({ text, frontmatter, body, unclosed }) => {
    expect(splitFrontmatter(text)).toEqual({ frontmatter, body, unclosed });
  });
});

describe("parseFrontmatter fast path agrees with yaml", () => {
  const values = [
    "plain text",
    "true",
    "True",
    "TRUE",
    "tRUE",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "null",
    "Null",
    "~",
    "0",
    "1",
    "+1",
    "007",
    "09",
    "1.5",
    ".5",
    "1.",
    "+.5",
    "1.0",
    "1e3",
    "1E3",
    "1.5e-3",
    "0x1F",
    "0o17",
    ".inf",
    ".NaN",
    "12345678901234567890",
    "1_000",
    "1.2.3",
    "0.1.0",
    "10.20.30.40",
    "1.2.3-beta.1",
    "1.2.3+build",
    "1.2.3e5",
    "01.2.3",
    "2024-01-01",
    "3 ways to win",
    "it's fine",
    "a,b,c",
    "Bash(git add:*), Read",
    "src/**/*.ts",
    "a\t#b",
    "a # comment",
    "a:\tb",
    "ends with colon:",
    "x=1",
    "'single quoted'",
    '"double: quoted"',
    "[a, b]",
    "{a: 1}",
    "*.ts",
    "&anchor value",
    "- item",
    "| block",
    "> folded",
    "!tag x",
    "%percent",
    "@at",
    "`tick`",
    "#hash",
    "?question",
    ",comma",
    "ünïcödé ✓",
  ];
  it.each(values)("k: %s", (value) => {
    const text = `k: ${value}\n`;
    const parsed = parseFrontmatter(text);
    let expected: unknown;
    try {
      expected = YAML.parse(text, { logLevel: "error" });
    } catch {
      // yaml rejects it: the result must come from the lenient parser, never the fast path.
      expect(parsed.mode).toBe("lenient");
      return;
    }
    if (parsed.mode === "lenient") {
      expect(expected === null || typeof expected !== "object" || Array.isArray(expected)).toBe(true);
      return;
    }
    expect(parsed.data).toEqual(expected);
    const got = (parsed.data as { k: unknown }).k;
    const want = (expected as { k: unknown }).k;
    if (typeof want !== "object") expect(Object.is(got, want)).toBe(true);
  });

  it("takes the fast path for the common shape", () => {
    const text = "name: my-skill\ndescription: Does things. Use when asked\n# comment\n\nversion: 1.2\n";
    expect(parseFrontmatter(text)).toEqual({
      mode: "fast",
      data: { name: "my-skill", description: "Does things. Use when asked", version: 1.2 },
    });
  });

  it.each([
    ["a list", "tools:\n  - Read\n  - Grep\n", { tools: ["Read", "Grep"] }],
    ["a block scalar", "description: |\n  line one\n  line two\n", { description: "line one\nline two\n" }],
    ["duplicate keys: last wins", "a: 1\na: 2\n", { a: 2 }],
    ["an indented line", "metadata:\n  author: me\n", { metadata: { author: "me" } }],
    ["CRLF lines", "a: 1\r\nb: two\r\n", { a: 1, b: "two" }],
    ["tab after the colon", "a:\tvalue\n", { a: "value" }],
  ])("agrees with yaml on %s", (_case, text, expected) => {
    expect(parseFrontmatter(text).data).toEqual(expected);
    expect(YAML.parse(text, { uniqueKeys: false })).toEqual(expected);
  });
});

describe("parseFrontmatter lenient fallback", () => {
  it.each([
    ["colon in a value", "description: foo: bar\nname: x\n", { description: "foo: bar", name: "x" }],
    ["unquoted glob", "paths: *.ts\n", { paths: "*.ts" }],
    ["glob list", "paths: *.ts, *.tsx\n", { paths: "*.ts, *.tsx" }],
    [
      "a list after an empty key",
      "description: a: b\nallowed-tools:\n  - Read\n  - 'Bash(git:*)'\n",
      { description: "a: b", "allowed-tools": ["Read", "Bash(git:*)"] },
    ],
    [
      "an unindented list after an empty key",
      "description: a: b\npaths:\n- src/**\n- lib/**\n",
      { description: "a: b", paths: ["src/**", "lib/**"] },
    ],
    ["quoted value unquoted", 'description: a: b\nmodel: "opus"\n', { description: "a: b", model: "opus" }],
    ["tab-indented yaml", "name: x\nmetadata:\n\tauthor: me\n", { name: "x", metadata: "" }],
  ])("%s", (_case, text, expected) => {
    const parsed = parseFrontmatter(text);
    expect(parsed.mode).toBe("lenient");
    expect(parsed.yamlError).toEqual(expect.any(String));
    expect(parsed.data).toEqual(expected);
  });

  it("duplicate keys: the last value wins and each duplicate is reported", () => {
    const parsed = parseFrontmatter("description: one\nmodel: a\ndescription: two\n");
    expect(parsed.mode).toBe("yaml");
    expect(parsed.data).toEqual({ description: "two", model: "a" });
    expect(parsed.duplicateKeys).toEqual([expect.stringMatching(/unique/)]);
    expect(parseFrontmatter("a: 1\nb: [x]\n").duplicateKeys).toBeUndefined();
  });

  it("a frontmatter that is a scalar, not a mapping, goes lenient", () => {
    const parsed = parseFrontmatter("just some words\n");
    expect(parsed.mode).toBe("lenient");
    expect(parsed.yamlError).toMatch(/mapping/);
    expect(parsed.data).toEqual({});
  });

  it("a top-level list goes lenient", () => {
    expect(parseFrontmatter("- a\n- b\n").mode).toBe("lenient");
  });

  it("empty frontmatter is an empty mapping", () => {
    expect(parseFrontmatter("").data).toEqual({});
    expect(parseFrontmatter("# only a comment\n").data).toEqual({});
  });

  it("yaml warnings about user content (an unknown tag) are not printed", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      expect(parseFrontmatter("k: !custom x\n").data).toEqual({ k: "x" });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("an alias bomb does not hang or throw", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(",")}]`,
      );
    const parsed = parseFrontmatter(`${lines.join("\n")}\n`);
    expect(parsed.data).toBeTypeOf("object");
  });
});

describe("parseLenient", () => {
  it.each([
    ["value is everything after the first ': '", "k: a: b: c", { k: "a: b: c" }],
    ["comments and blanks skipped", "# c\n\nk: v\n  # indented comment", { k: "v" }],
    ["lines without a key skipped", "garbage line\nk: v", { k: "v" }],
    ["empty value", "k:", { k: "" }],
    ["CRLF", "a: 1\r\nb: 2\r\n", { a: "1", b: "2" }],
    ["list items without a key are dropped", "- x\nk: v", { k: "v" }],
    ["a list ends at the next key", "k:\n - a\nj: b\n - c", { k: ["a"], j: "b" }],
  ])("%s", (_case, text, expected) => {
    expect(parseLenient(text)).toEqual(expected);
  });
});

describe("parseLenient block scalars", () => {
  it.each([
    [
      "literal",
      "description: |\n  line one\n  line two\nname: x",
      { description: "line one\nline two", name: "x" },
    ],
    ["folded", "description: >\n  line one\n  line two\n", { description: "line one line two" }],
    [
      "chomping and comment",
      "description: |- # note\n  kept\nmodel: opus",
      { description: "kept", model: "opus" },
    ],
    ["blank line inside", "description: |\n  a\n\n  b\nx: y", { description: "a\n\nb", x: "y" }],
    ["empty block", "description: >\nname: n", { description: "", name: "n" }],
    [
      "a list after it",
      "description: |\n  d\npaths:\n  - src/**\n  - '*.md'",
      { description: "d", paths: ["src/**", "*.md"] },
    ],
  ])("%s", (_case, text, expected) => {
    expect(parseLenient(text)).toEqual(expected);
  });
});

describe("lazyYaml", () => {
  it("imports yaml once and hands the same parser to every head that needs it", async () => {
    const loadYaml = lazyYaml();
    const first = loadYaml();
    expect(loadYaml()).toBe(first);
    const parsed = await parseFrontmatterLazily("a: &x 1\nb: *x\n", loadYaml);
    expect(parsed).toEqual({ data: { a: 1, b: 1 }, mode: "yaml" });
    expect(loadYaml()).toBe(first);
  });
});

describe("splitFrontmatter matches the regex split it replaced", () => {
  const closeFence = /^---[ \t]*\r?$/m;
  const openFence = /^---[ \t]*\r?\n/;
  /** The former implementation: a multiline regex for the closing fence. */
  const byRegex = (text: string) => {
    const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
    const open = openFence.exec(source);
    if (open === null) return { frontmatter: undefined, body: source, unclosed: false };
    const rest = source.slice(open[0].length);
    const close = closeFence.exec(rest);
    if (close === null || (close.index > 0 && rest[close.index - 1] !== "\n")) {
      return { frontmatter: undefined, body: source, unclosed: true };
    }
    let bodyStart = close.index + close[0].length;
    if (rest[bodyStart] === "\n") bodyStart += 1;
    return { frontmatter: rest.slice(0, close.index), body: rest.slice(bodyStart), unclosed: false };
  };
  const pieces = [
    "---",
    "---",
    "-",
    " ",
    "\t",
    "\r",
    "\n",
    "\n",
    "\r\n",
    "\u2028",
    "\u2029",
    "a: b",
    "x",
    "\uFEFF",
  ];

  it("on 20,000 generated texts built from fences, dashes, blanks and every line terminator", () => {
    let seed = 12_345;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let n = 0; n < 20_000; n += 1) {
      let text = next() % 4 === 0 ? "" : "---\n";
      const length = next() % 14;
      for (let k = 0; k < length; k += 1) text += pieces[next() % pieces.length];
      expect(splitFrontmatter(text), JSON.stringify(text)).toEqual(byRegex(text));
    }
  });
});
