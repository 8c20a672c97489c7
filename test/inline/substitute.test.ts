// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { describe, expect, it } from "vitest";
import {
  appendUnusedArguments,
  expandBody,
  type Placeholder,
  type SubstituteOptions,
  type SubstitutionVars,
  substitute,
} from "../../src/inline/substitute.js";

const ALL_VARS: SubstitutionVars = {
  skillDir: "/skills/demo",
  sessionId: "sess-1",
  projectDir: "/proj",
  pluginRoot: "/plugins/p",
  pluginData: "/data/p",
};

interface Row {
  body: string;
  args?: string;
  names?: string[];
  vars?: SubstitutionVars;
  text: string;
  substituted: boolean;
}

function run(row: Omit<Row, "text" | "substituted">) {
  return substitute(row.body, {
    args: row.args ?? "a b c",
    argumentNames: row.names,
    vars: row.vars ?? ALL_VARS,
  });
}

describe("substitute: the SPEC §5 table (args `a b c`)", () => {
  it.each<[string, Row]>([
    ["$ARGUMENTS → raw args", { body: "x $ARGUMENTS y", text: "x a b c y", substituted: true }],
    [
      "$ARGUMENTS keeps the args unchanged",
      { body: "[$ARGUMENTS]", args: ` "a  b"  c `, text: `[ "a  b"  c ]`, substituted: true },
    ],
    ["$ARGUMENTS[N] → N-th arg", { body: "$ARGUMENTS[0]/$ARGUMENTS[2]", text: "a/c", substituted: true }],
    ["$N → N-th arg", { body: "$0-$1-$2", text: "a-b-c", substituted: true }],
    ["$N uses shell splitting", { body: "[$0][$1]", args: `"a b" c`, text: "[a b][c]", substituted: true }],
    ["$N followed by a word char is left", { body: "$0a $1_ $2", text: "$0a $1_ c", substituted: true }],
    [
      "$N with several digits",
      { body: "$10", args: "0 1 2 3 4 5 6 7 8 9 ten", text: "ten", substituted: true },
    ],
    ["$N missing is left as written", { body: "$3 and $9", text: "$3 and $9", substituted: false }],
    [
      "$ARGUMENTS[N] missing is left as written",
      { body: "$ARGUMENTS[7]", text: "$ARGUMENTS[7]", substituted: false },
    ],
    [
      "$name → its positional arg",
      { body: "$src→$dst", names: ["src", "dst"], text: "a→b", substituted: true },
    ],
    [
      "$name missing → empty",
      { body: "[$x][$y]", args: "a", names: ["x", "y"], text: "[a][]", substituted: true },
    ],
    ["$name with no args → empty", { body: "[$x]", args: "", names: ["x"], text: "[]", substituted: true }],
    [
      "$name: longest name first",
      { body: "$file $filename", names: ["file", "filename"], text: "a b", substituted: true },
    ],
    [
      "$name: hyphenated name beats its prefix",
      { body: "$out $out-dir", names: ["out", "out-dir"], text: "a b", substituted: true },
    ],
    [
      "$name not followed by [ or a word char",
      { body: "$f[0] $fx $f.", names: ["f"], text: "$f[0] $fx a.", substituted: true },
    ],
    [
      "$name not in arguments: is left",
      { body: "$other $HOME", names: ["f"], text: "$other $HOME", substituted: false },
    ],
    [
      "invalid names are ignored",
      { body: "$a.b $1x", names: ["a.b", "1x"], text: "$a.b $1x", substituted: false },
    ],
    [
      "\\$ARGUMENTS → literal",
      { body: "use \\$ARGUMENTS here", text: "use $ARGUMENTS here", substituted: false },
    ],
    ["\\$0 → literal", { body: "\\$0 is $0", text: "$0 is a", substituted: true }],
    ["\\$ARGUMENTS[1] → literal", { body: "\\$ARGUMENTS[1]", text: "$ARGUMENTS[1]", substituted: false }],
    ["\\$name → literal", { body: "\\$f", names: ["f"], text: "$f", substituted: false }],
    ["backslash before other text stays", { body: "\\$HOME \\n", text: "\\$HOME \\n", substituted: false }],
    ["${CLAUDE_SKILL_DIR}", { body: "${CLAUDE_SKILL_DIR}/x", text: "/skills/demo/x", substituted: false }],
    ["${SKILL_DIR}", { body: "${SKILL_DIR}/x", text: "/skills/demo/x", substituted: false }],
    ["${CLAUDE_SESSION_ID}", { body: "id=${CLAUDE_SESSION_ID}", text: "id=sess-1", substituted: false }],
    ["${CLAUDE_PROJECT_DIR}", { body: "${CLAUDE_PROJECT_DIR}!", text: "/proj!", substituted: false }],
    [
      "${CLAUDE_PLUGIN_ROOT}",
      { body: "${CLAUDE_PLUGIN_ROOT}/bin", text: "/plugins/p/bin", substituted: false },
    ],
    ["${CLAUDE_PLUGIN_DATA}", { body: "${CLAUDE_PLUGIN_DATA}/db", text: "/data/p/db", substituted: false }],
    [
      "plugin vars left as written when not provided",
      {
        body: "${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA}",
        vars: { skillDir: "/s" },
        text: "${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA}",
        substituted: false,
      },
    ],
    [
      "\\${CLAUDE_SKILL_DIR} → literal",
      { body: "\\${CLAUDE_SKILL_DIR}", text: "${CLAUDE_SKILL_DIR}", substituted: false },
    ],
    ["${ARGUMENTS} left as written", { body: "${ARGUMENTS}", text: "${ARGUMENTS}", substituted: false }],
    [
      "$CLAUDE_SKILL_DIR left as written",
      { body: "$CLAUDE_SKILL_DIR", text: "$CLAUDE_SKILL_DIR", substituted: false },
    ],
    [
      "${UNKNOWN} left as written",
      { body: "${UNKNOWN} ${HOME}", text: "${UNKNOWN} ${HOME}", substituted: false },
    ],
    ["no placeholders", { body: "plain $ text", text: "plain $ text", substituted: false }],
  ])("%s", (_name, row) => {
    expect(run(row)).toEqual({ text: row.text, substituted: row.substituted });
  });

  it("never re-scans inserted values", () => {
    const out = substitute("$0 | $ARGUMENTS | ${CLAUDE_SKILL_DIR}", {
      args: "$1 ${CLAUDE_SESSION_ID}",
      vars: { skillDir: "$ARGUMENTS", sessionId: "S" },
    });
    expect(out.text).toBe("$1 | $1 ${CLAUDE_SESSION_ID} | $ARGUMENTS");
  });

  it("passes argument placeholders and escapes, never variables, to the encoder with the output so far", () => {
    const seen: Array<[Placeholder, string]> = [];
    const options: SubstituteOptions = {
      args: "x y",
      argumentNames: ["second", "first"],
      vars: { skillDir: "/d" },
      encode: (placeholder, before) => {
        seen.push([placeholder, before]);
        return "<>";
      },
    };
    const out = substitute("A $ARGUMENTS B $1 C $first ${CLAUDE_SKILL_DIR} \\$0 $5", options);
    expect(out.text).toBe("A <> B <> C <> /d <> $5");
    expect(seen).toEqual([
      [{ kind: "all", value: "x y" }, "A "],
      [{ kind: "positional", index: 1, value: "y" }, "A <> B "],
      [{ kind: "positional", index: 1, value: "y" }, "A <> B <> C "],
      [{ kind: "escaped", literal: "$0" }, "A <> B <> C <> /d "],
    ]);
  });

  it("uses the first position of a repeated name", () => {
    expect(substitute("$n", { args: "a b", argumentNames: ["n", "n"] }).text).toBe("a");
  });
});

describe("appendUnusedArguments / expandBody", () => {
  it.each<[string, string, string, boolean, string]>([
    ["appends when args are unused", "Body", "x y", false, "Body\n\nARGUMENTS: x y"],
    ["does not append when substituted", "Body", "x y", true, "Body"],
    ["does not append for empty args", "Body", "", false, "Body"],
    ["does not append for blank args", "Body", "  ", false, "Body"],
    ["appends the raw args", "Body", ` "a  b" `, false, `Body\n\nARGUMENTS:  "a  b" `],
  ])("%s", (_name, text, args, substituted, expected) => {
    expect(appendUnusedArguments(text, args, substituted)).toBe(expected);
  });

  it.each<[string, string, string, string]>([
    ["placeholder used: no append", "Do $ARGUMENTS", "it", "Do it"],
    ["no placeholder: append", "Do the thing", "it", "Do the thing\n\nARGUMENTS: it"],
    ["variables do not count", "In ${CLAUDE_SKILL_DIR}", "it", "In /skills/demo\n\nARGUMENTS: it"],
    ["escapes do not count", "Write \\$ARGUMENTS", "it", "Write $ARGUMENTS\n\nARGUMENTS: it"],
    ["a missing $N does not count", "Use $4", "it", "Use $4\n\nARGUMENTS: it"],
    ["a present $N counts", "Use $0", "it", "Use it"],
    ["a named arg counts, even when empty", "Use [$b]", "it", "Use []"],
  ])("expandBody: %s", (_name, body, args, expected) => {
    expect(expandBody(body, { args, argumentNames: ["a", "b"], vars: ALL_VARS })).toBe(expected);
  });
});
