// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { describe, expect, it } from "vitest";
import { type ShellContext, shellContextAt } from "../../src/inline/shell-context.js";

describe("shellContextAt", () => {
  it.each<[string, ShellContext]>([
    ["", "unquoted"],
    ["echo ", "unquoted"],
    ['echo "', "double"],
    ['echo "a" ', "unquoted"],
    ["echo '", "single"],
    ["echo 'a' ", "unquoted"],
    [`echo '"`, "single"],
    [`echo "'`, "double"],
    ["echo $'", "ansi"],
    ["echo $'\\'", "ansi"],
    ["echo $'a' ", "unquoted"],
    ['echo \\"', "unquoted"],
    ["echo \\'", "unquoted"],
    ['echo "\\"', "double"],
    ['echo "$(', "unquoted"],
    ['echo "$(echo "', "double"],
    ['echo "$(echo a) ', "double"],
    ['echo "$( (a) ', "unquoted"],
    ["echo $((1 + ", "unquoted"],
    ["echo $((1 + 2)) '", "single"],
    ['echo "`', "unquoted"],
    ['echo "`a` ', "double"],
    ["echo `a` '", "single"],
    ['echo "${X:-', "double"],
    ["echo ${X:-", "unquoted"],
    ['echo "${X}" ', "unquoted"],
    ["echo ${#X} '", "single"],
    ["echo $# '", "single"],
    ["# it's a comment\necho ", "unquoted"],
    ["echo a # don't\necho '", "single"],
    ["echo a#'", "single"],
    ["echo # it's", "unquoted"],
    ["cat <<EOF\nit's ", "double"],
    ["cat <<EOF\nit's\nEOF\necho '", "single"],
    ["cat <<'EOF'\nit's ", "unquoted"],
    ['cat <<"E F"\nx\nE F\necho "', "double"],
    ["cat <<\\EOF\nit's\nEOF\n", "unquoted"],
    ["cat <<-EOF\n\tit's\n\tEOF\necho '", "single"],
    ["cat <<A <<B\na\nA\nit's ", "double"],
    ["cat <<EOF; echo 'x\ny' \nbody ", "double"],
    ["cat <<<'here' '", "single"],
    ["echo $((1 << 2))\necho '", "single"],
  ])("%j → %s", (prefix, expected) => {
    expect(shellContextAt(prefix)).toBe(expected);
  });
});
