import { describe, expect, it } from "vitest";
import {
  collapseNewlines,
  detach,
  isValidSkillName,
  splitOutsideBrackets,
  toBoolean,
  toGlobs,
  toHint,
  toText,
  toToolRules,
  toWords,
} from "../../src/skill/fields.js";

describe("toBoolean", () => {
  it.each([
    [true, true],
    [false, false],
    ["true", true],
    ["TRUE", true],
    ["True", true],
    ["yes", true],
    ["YES", true],
    ["On", true],
    ["1", true],
    [1, true],
    ["false", false],
    ["FALSE", false],
    ["no", false],
    ["No", false],
    ["OFF", false],
    ["0", false],
    [0, false],
    [" yes ", true],
    ["y", undefined],
    ["maybe", undefined],
    [2, undefined],
    ["", undefined],
    [null, undefined],
    [["true"], undefined],
    [{ a: 1 }, undefined],
  ])("%j → %j", (input, expected) => {
    expect(toBoolean(input)).toBe(expected);
  });
});

describe("toText", () => {
  it.each([
    ["abc", "abc"],
    [42, "42"],
    [1.5, "1.5"],
    [true, "true"],
    [null, undefined],
    [["a"], undefined],
    [{ a: 1 }, undefined],
  ])("%j → %j", (input, expected) => {
    expect(toText(input)).toBe(expected);
  });
});

describe("toToolRules (allowed-tools / disallowed-tools)", () => {
  it.each([
    ["Read, Grep", ["Read", "Grep"]],
    ["Read Grep", ["Read", "Grep"]],
    ["Read,Grep,  Glob", ["Read", "Grep", "Glob"]],
    ["Bash(git add:*), Read", ["Bash(git add:*)", "Read"]],
    ["Bash(git add:*) Bash(git commit -m:*)", ["Bash(git add:*)", "Bash(git commit -m:*)"]],
    ["Bash(npm run test, npm run lint)", ["Bash(npm run test, npm run lint)"]],
    [
      ["Read", "Bash(git add:*)"],
      ["Read", "Bash(git add:*)"],
    ],
    [["Read, Grep"], ["Read", "Grep"]],
    ["", []],
    [" , ", []],
    [
      ["Read", 3],
      ["Read", "3"],
    ],
    [["Read", { a: 1 }], undefined],
    [{ Read: true }, undefined],
  ])("%j → %j", (input, expected) => {
    expect(toToolRules(input)).toEqual(expected);
  });
});

describe("toGlobs (paths)", () => {
  it.each([
    ["*.ts", ["*.ts"]],
    ["*.ts, *.tsx", ["*.ts", "*.tsx"]],
    ["src/{a,b}/*.ts, lib/**", ["src/{a,b}/*.ts", "lib/**"]],
    ["src/{a,{b,c}}.ts", ["src/{a,{b,c}}.ts"]],
    ["docs/my file.md", ["docs/my file.md"]],
    [
      ["*.ts", "src/{a,b}.js"],
      ["*.ts", "src/{a,b}.js"],
    ],
    [["a, b"], ["a", "b"]],
    [42, ["42"]],
    [{ glob: "x" }, undefined],
  ])("%j → %j", (input, expected) => {
    expect(toGlobs(input)).toEqual(expected);
  });
});

describe("toWords (arguments)", () => {
  it.each([
    ["file line", ["file", "line"]],
    ["  a\tb\nc ", ["a", "b", "c"]],
    [
      ["file", "line"],
      ["file", "line"],
    ],
    ["", []],
    [{ a: 1 }, undefined],
  ])("%j → %j", (input, expected) => {
    expect(toWords(input)).toEqual(expected);
  });
});

describe("toHint (argument-hint)", () => {
  it.each([
    ["<file> [line]", "<file> [line]"],
    [["<file>", "[line]"], "<file> [line]"],
    [42, "42"],
    [{ a: 1 }, undefined],
    [["a", { b: 1 }], undefined],
  ])("%j → %j", (input, expected) => {
    expect(toHint(input)).toBe(expected);
  });
});

describe("splitOutsideBrackets", () => {
  it.each([
    ["a,b", ["a", "b"]],
    ["f(a,b),g[c,d],h{e,f}", ["f(a,b)", "g[c,d]", "h{e,f}"]],
    ["unbalanced ) , x", ["unbalanced )", "x"]],
    ["(open, never closed", ["(open, never closed"]],
  ])("%j → %j", (input, expected) => {
    expect(splitOutsideBrackets(input, (c) => c === ",")).toEqual(expected);
  });
});

describe("collapseNewlines", () => {
  it.each([
    ["one\ntwo", "one two"],
    ["one  \n\n  two\r\nthree", "one two three"],
    ["\n lead and trail \n", "lead and trail"],
    ["no newline", "no newline"],
  ])("%j → %j", (input, expected) => {
    expect(collapseNewlines(input)).toBe(expected);
  });
});

describe("isValidSkillName", () => {
  it.each([
    ["pdf", true],
    ["my-skill-2", true],
    ["a", true],
    ["a".repeat(64), true],
    ["a".repeat(65), false],
    ["My-Skill", false],
    ["-lead", false],
    ["trail-", false],
    ["double--hyphen", false],
    ["under_score", false],
    ["with space", false],
    ["ns:sub", false],
    ["", false],
  ])("%j → %j", (input, expected) => {
    expect(isValidSkillName(input)).toBe(expected);
  });
});

describe("detach", () => {
  it("returns an equal string", () => {
    const long = "x".repeat(100);
    expect(detach(long.slice(10, 60))).toBe("x".repeat(50));
    expect(detach("short")).toBe("short");
  });
});

describe("splitOutsideBrackets matches the code-point walk it replaced", () => {
  /** The former implementation: `for…of` over code points, `\s` by regex. */
  const byCodePoint = (text: string, isSeparator: (char: string) => boolean): string[] => {
    const parts: string[] = [];
    let depth = 0;
    let start = 0;
    let end = 0;
    for (const char of text) {
      if (char === "(" || char === "[" || char === "{") depth += 1;
      else if ((char === ")" || char === "]" || char === "}") && depth > 0) depth -= 1;
      if (depth === 0 && isSeparator(char)) {
        const part = text.slice(start, end).trim();
        if (part !== "") parts.push(part);
        start = end + char.length;
      }
      end += char.length;
    }
    const last = text.slice(start).trim();
    if (last !== "") parts.push(last);
    return parts;
  };
  const units = ["a", "Bash", "(", ")", "[", "]", "{", "}", ",", " ", "\t", "\n", "\v", "\f", "\r", "\u00a0"];
  const more = ["\u2028", "\u3000", "\uFEFF", "😀", "\uD83D", "\uDE00", "é", ":", "*", "\x1c"];
  const pieces = [...units, ...more];

  it("on 20,000 generated texts (brackets, every kind of whitespace, surrogates) for each list field", () => {
    let seed = 987_654_321;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let n = 0; n < 20_000; n += 1) {
      let text = "";
      const length = next() % 16;
      for (let k = 0; k < length; k += 1) text += pieces[next() % pieces.length];
      const label = JSON.stringify(text);
      expect(toToolRules(text), label).toEqual(byCodePoint(text, (c) => c === "," || /\s/.test(c)));
      expect(toWords(text), label).toEqual(byCodePoint(text, (c) => /\s/.test(c)));
      expect(toGlobs(text), label).toEqual(byCodePoint(text, (c) => c === ","));
    }
  });
});
