import { describe, expect, it } from "vitest";
import { shellSplit } from "../../src/inline/shell-split.js";

describe("shellSplit", () => {
  it.each<[string, string, string[]]>([
    ["empty", "", []],
    ["blank", "  \t\n ", []],
    ["plain words", "a b c", ["a", "b", "c"]],
    ["runs of whitespace", "  a \t b\n c  ", ["a", "b", "c"]],
    ["double quotes group", '"a b" c', ["a b", "c"]],
    ["single quotes group", "'a b' c", ["a b", "c"]],
    ["quotes join adjacent text", `x"a b"'c d'y`, ["xa bc dy"]],
    ["empty quotes make an empty word", `a "" '' b`, ["a", "", "", "b"]],
    ["single quotes are literal", String.raw`'a\"$x'`, [String.raw`a\"$x`]],
    ["backslash escapes a space", String.raw`a\ b c`, ["a b", "c"]],
    ["backslash escapes a quote", String.raw`it\'s`, ["it's"]],
    ["backslash-newline joins", "a\\\nb", ["ab"]],
    ['double quotes honour \\" and \\\\', String.raw`"a\"b\\c"`, [String.raw`a"b\c`]],
    ["double quotes keep other backslashes", String.raw`"a\nb"`, [String.raw`a\nb`]],
    ["double quotes keep $ literal", `"$HOME $(x)"`, ["$HOME $(x)"]],
    ["operators are ordinary text", "a; touch X && b|c", ["a;", "touch", "X", "&&", "b|c"]],
    ["# is ordinary text", "fix #123", ["fix", "#123"]],
    ["unclosed double quote runs to the end", '"a b', ["a b"]],
    ["unclosed single quote runs to the end", "x 'a b", ["x", "a b"]],
    ["trailing backslash is kept", "a\\", ["a\\"]],
    ["unicode", "héllo 'wörld ✓'", ["héllo", "wörld ✓"]],
  ])("%s", (_name, input, expected) => {
    expect(shellSplit(input)).toEqual(expected);
  });
});
