// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${@:N} placeholders of prompt templates, not JS templates
import { describe, expect, it } from "vitest";
import {
  expandPromptTemplate,
  type PromptTemplate,
  parseSlashPrompt,
} from "../../src/prompt-templates/template.js";
import { substituteTemplateArgs } from "../../src/prompt-templates/template-args.js";

/** Seed 000's placeholder table, plus the edges around it. */
const TABLE: { template: string; args: string[]; want: string; case: string }[] = [
  { case: "$1, $2: positional", template: "A=$1 B=$2", args: ["x", "y"], want: "A=x B=y" },
  { case: "a missing positional is empty", template: "[$3]", args: ["x"], want: "[]" },
  { case: "$9 is the ninth", template: "$9", args: ["1", "2", "3", "4", "5", "6", "7", "8", "9"], want: "9" },
  { case: "$10 is $1 then 0 (shell)", template: "$10", args: ["a"], want: "a0" },
  { case: "$@: all args", template: "all: $@", args: ["a", "b c", "d"], want: "all: a b c d" },
  { case: "$ARGUMENTS: all args", template: "$ARGUMENTS!", args: ["a", "b"], want: "a b!" },
  { case: "${@:N}: from the Nth", template: "${@:2}", args: ["a", "b", "c"], want: "b c" },
  { case: "${@:N:L}: L from the Nth", template: "${@:2:1}", args: ["a", "b", "c"], want: "b" },
  { case: "${@:N:L} past the end", template: "<${@:3:5}>", args: ["a", "b", "c"], want: "<c>" },
  { case: "${@:N} beyond the args is empty", template: "<${@:4}>", args: ["a"], want: "<>" },
  { case: "${@:0} is all", template: "${@:0}", args: ["a", "b"], want: "a b" },
  {
    case: "no args: every placeholder empty",
    template: "[$1|$@|$ARGUMENTS|${@:1}]",
    args: [],
    want: "[|||]",
  },
  { case: "$0 and $x stay", template: "$0 $x $", args: ["a"], want: "$0 $x $" },
  {
    case: "an arg holding a placeholder is not expanded again",
    template: "$1 $2",
    args: ["$2", "b"],
    want: "$2 b",
  },
  { case: "repeated placeholders", template: "$1-$1 $@", args: ["a"], want: "a-a a" },
];

describe("substituteTemplateArgs (SPEC §15)", () => {
  it.each(TABLE)("$case", ({ template, args, want }) => {
    expect(substituteTemplateArgs(template, args)).toBe(want);
  });
});

const template = (name: string, body: string): PromptTemplate => ({
  name,
  description: "",
  body,
  source: "project",
  filePath: `/p/.skillwright/prompts/${name}.md`,
});

describe("expandPromptTemplate", () => {
  const templates = [template("review", "Review $1 for ${@:2}."), template("deploy", "Deploy $@")];
  const none = () => false;

  it("splits the args shell-style", () => {
    expect(expandPromptTemplate(`/review "src/a b.ts" security 'and style'`, templates, none)).toBe(
      "Review src/a b.ts for security and style.",
    );
  });

  it("no args, and leading/trailing whitespace", () => {
    expect(expandPromptTemplate("  /deploy  ", templates, none)).toBe("Deploy ");
  });

  it("not a template, not a slash prompt, or a skill of that name: undefined", () => {
    expect(expandPromptTemplate("/nope x", templates, none)).toBeUndefined();
    expect(expandPromptTemplate("please /review x", templates, none)).toBeUndefined();
    expect(expandPromptTemplate("/review x", templates, (n) => n === "review")).toBeUndefined();
  });

  it("parseSlashPrompt takes the name up to whitespace; paths are not names", () => {
    expect(parseSlashPrompt("/a b\nc")).toEqual({ name: "a", args: "b\nc" });
    expect(parseSlashPrompt("/usr/bin/env")).toBeUndefined();
    expect(parseSlashPrompt("/")).toBeUndefined();
  });
});
