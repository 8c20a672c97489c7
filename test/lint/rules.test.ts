import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  descriptionRule,
  type LintFile,
  type LintSubject,
  linkRule,
  lintSkill,
  listingCost,
  listingCostRule,
  riskyShellRule,
  secretRule,
  sideEffectRule,
} from "../../src/lint/rules.js";
import { listingLimits } from "../../src/listing/budget.js";
import { LISTING_DESCRIPTION_CAP } from "../../src/listing/description.js";

const md = (text: string, file = "SKILL.md"): LintFile => ({ file, text });
const models = {
  "200k": listingLimits({ env: {}, contextWindowTokens: 200_000 }),
  "1M": listingLimits({ env: {}, contextWindowTokens: 1_000_000 }),
};
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

describe("riskyShellRule", () => {
  it.each([
    ["rm -rf /", "risky-rm-rf"],
    ["sudo rm -fr ~/", "risky-rm-rf"],
    ['rm -rf "$HOME"', "risky-rm-rf"],
    ["rm -r -f *", "risky-rm-rf"],
    ["rm -rf $BUILD_DIR/", "risky-rm-rf"],
    ["rm --recursive --force .", "risky-rm-rf"],
    ["curl -fsSL https://x.sh/install | sh", "risky-pipe-to-shell"],
    ["wget -qO- https://x | sudo bash", "risky-pipe-to-shell"],
    ["chmod 777 out", "risky-chmod-777"],
    ["chmod -R a+rwx dir", "risky-chmod-777"],
  ])("flags %s", (text, code) => {
    expect(codes(riskyShellRule(md(`intro\n\n    ${text}\n`)))).toEqual([code]);
  });

  it.each([
    "rm -rf ./build",
    "rm -rf node_modules",
    'rm -rf "$TMPDIR/skill-cache"',
    "curl -fsSL https://x.sh/install -o install.sh",
    "chmod 755 script.sh",
    "chmod +x scripts/run.sh",
  ])("leaves %s alone", (text) => {
    expect(riskyShellRule(md(text))).toEqual([]);
  });

  it("reports the file and line", () => {
    const [f] = riskyShellRule(md("#!/bin/sh\nset -e\nrm -rf /\n", "scripts/clean.sh"));
    expect(f).toMatchObject({ code: "risky-rm-rf", severity: "error", file: "scripts/clean.sh", line: 3 });
  });
});

describe("secretRule", () => {
  it.each([
    ["AWS key", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"],
    ["Anthropic key", "export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345"],
    ["private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE..."],
    ["OpenSSH key", "-----BEGIN OPENSSH PRIVATE KEY-----"],
    ["GitHub token", "GH_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["fine-grained GitHub token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"],
  ])("flags a %s, masked", (_kind, text) => {
    const findings = secretRule(md(`a\n${text}\n`));
    expect(codes(findings)).toEqual(["secret-literal"]);
    expect(findings[0]?.line).toBe(2);
    expect(findings[0]?.message).not.toContain(text.slice(-12));
  });

  it.each([
    "export ANTHROPIC_API_KEY=$ANTHROPIC_API_KEY",
    "AKIA is the prefix of AWS access keys",
    "-----BEGIN PUBLIC KEY-----",
    "ghp_ tokens start with ghp_",
  ])("leaves %s alone", (text) => {
    expect(secretRule(md(text))).toEqual([]);
  });
});

describe("sideEffectRule: side effects the skill performs, not words it mentions", () => {
  const CODE_REVIEW = readFileSync(
    fileURLToPath(new URL("../../examples/project/.claude/skills/code-review/SKILL.md", import.meta.url)),
    "utf8",
  );
  const modelInvoked = (allowedTools: string[] = []) => ({ disableModelInvocation: false, allowedTools });

  it.each([
    [
      "an imperative in the description",
      "---\ndescription: Deploy the app to production\n---\nRun the checks.",
    ],
    ["a description in the third person", "---\ndescription: Publishes the package to npm.\n---\nBody."],
    ["an imperative sentence", "Publish the package to npm."],
    ["a list item", "## Steps\n\n1. Build it.\n2. Delete the old branches."],
    ["an instruction after a heading", "# Ops\nSend the report to the team channel."],
    ["a coordinated instruction", "Build the image and push it to the registry."],
    ["an instruction with a purpose", "Run the release script to deploy the app."],
    ["a modal instruction", "You must release a new version."],
    ["a write to a file", "Write the summary to NOTES.md."],
    ["a post somewhere", "Post the digest to the channel."],
    ["a command line", "git push origin main"],
    ["a command in a code span", "Then run `npm publish --access public`."],
    ["a command in a code block", "Finish with:\n\n```sh\nkubectl apply -f deploy.yaml\n```\n"],
    ["inline shell", "Status: !`gh pr merge --squash`"],
    ["a write with curl", "Run `curl -X POST https://hooks.example.com/notify`."],
  ])("flags %s", (_case, text) => {
    expect(codes(sideEffectRule(md(text), modelInvoked()))).toEqual(["side-effect-no-approval"]);
  });

  it.each([
    ["Write", ["Read", "Write"], "Write granted"],
    ["Edit with a path", ["Edit(src/**)"], "Edit(src/**) granted"],
    ["a Bash grant of a side-effect command", ["Bash(git push:*)"], "Bash(git push) granted"],
    ["an MCP tool that sends", ["mcp__slack__send_message"], "mcp__slack__send_message granted"],
  ])("flags a grant of %s", (_case, tools, what) => {
    const [found] = sideEffectRule(md("---\nallowed-tools: x\n---\nSummarise.\n"), modelInvoked(tools));
    expect(found?.message).toContain(`side effects (${what.replace(/\(src.*\)/, "")}`);
    expect(found?.line).toBe(2);
  });

  it.each([
    ['the code-review example ("before merging", `ready to merge`)', CODE_REVIEW],
    ["a gerund", "Use when the user asks to review code before merging."],
    ["a wish of the user's", "Use when the user wants to deploy or asks to publish."],
    ["a condition", "If the build fails, summarise why. When you push, the CI runs."],
    ["a negation", "Never push to main. Do not delete anything. Finish without sending mail."],
    ["a statement about a thing", "The push failed last week, and the release was late."],
    ["a noun compound", "Release notes: summarise them. Merge requests need two reviews."],
    ["a hyphenated word", "Open the drop-down and read the post-processing log."],
    ["a write with no destination", "Write a one-line verdict and a short summary."],
    ["a quoted label", "End with `merge after fixes` or `needs rework`."],
    ["a negated command", "Never run `git push --force`."],
    [
      "a hook's command in the frontmatter",
      "---\nname: deploy-notes\nhooks:\n  command: git push\n---\nSummarise.",
    ],
    ["read-only grants", "---\nallowed-tools: Read, Bash(git log:*)\n---\nSummarise."],
  ])("leaves %s alone", (_case, text) => {
    expect(sideEffectRule(md(text), modelInvoked(["Read", "Grep", "Bash(git log:*)"]))).toEqual([]);
  });

  it("points at the first sign, and names up to four", () => {
    const [found] = sideEffectRule(
      md("# Ship\n\nBuild.\nThen deploy it, push the tag, send mail, email the team and publish it.\n"),
      modelInvoked(),
    );
    expect(found?.line).toBe(4);
    expect(found?.message).toMatch(/^side effects \(deploy, push, send, email\) with no approval step/);
  });

  it.each([
    [
      "disable-model-invocation",
      "Deploy the app.",
      { disableModelInvocation: true, allowedTools: ["Write"] },
    ],
    ["a confirm step", "Show the diff and ask the user to confirm, then deploy.", modelInvoked()],
    ["an approval step", "Wait for approval before you publish.", modelInvoked(["Write"])],
    ["no side effect", "Summarise the diff in three bullet points.", modelInvoked()],
  ])("leaves a skill with %s alone", (_case, text, skill) => {
    expect(sideEffectRule(md(text), skill)).toEqual([]);
  });
});

describe("linkRule", () => {
  const paths = new Set(["references", "references/api.md", "scripts", "scripts/run.py"]);
  const exists = (p: string) => paths.has(p);

  it.each([
    ["[api](references/missing.md)", "broken-link", "error"],
    ["Run `python scripts/missing.py`.", "broken-link", "warning"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: skill text, not a template
    ["Run `${CLAUDE_SKILL_DIR}/scripts/gone.py`.", "broken-link", "warning"],
    ["[up](../other-skill/SKILL.md)", "escaping-link", "error"],
    ["[sneaky](references/../../secrets.md)", "escaping-link", "error"],
    ["[abs](/etc/passwd)", "absolute-link", "warning"],
    ["[home](~/notes.md)", "absolute-link", "warning"],
  ])("flags %s", (text, code, severity) => {
    const findings = linkRule(md(`# T\n\n${text}\n`), exists);
    expect(findings.map((f) => [f.code, f.severity, f.line])).toEqual([[code, severity, 3]]);
  });

  it.each([
    "[api](references/api.md)",
    "[api](references/api.md#auth)",
    "[api](./references/api.md)",
    "[dir](references/)",
    "Run `python scripts/run.py`.",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: skill text, not a template
    "Run `python ${CLAUDE_SKILL_DIR}/scripts/run.py`.",
    "[site](https://example.com/a/../b)",
    "[mail](mailto:a@b.c)",
    "[top](#usage)",
    "Put helpers in scripts/*.py.",
  ])("leaves %s alone", (text) => {
    expect(linkRule(md(text), exists)).toEqual([]);
  });

  it("reports a link once even when it is also a bare mention", () => {
    expect(linkRule(md("[x](scripts/gone.sh)"), exists)).toHaveLength(1);
  });
});

describe("descriptionRule", () => {
  const skill = (description: string, whenToUse?: string) => ({
    description,
    descriptionFromBody: false,
    ...(whenToUse === undefined ? {} : { whenToUse }),
  });
  const file = md("---\nname: x\ndescription: y\n---\nbody");

  it("flags a description with no when-to-use cue, at the description line", () => {
    const findings = descriptionRule(skill("Formats SQL files."), file);
    expect(findings.map((f) => [f.code, f.line])).toEqual([["description-no-when", 3]]);
  });

  it("flags a skill with no description at all", () => {
    const findings = descriptionRule(
      { description: "body line", descriptionFromBody: true },
      md("body line"),
    );
    expect(codes(findings)).toEqual(["description-no-when"]);
  });

  it.each([
    "Formats SQL. Use when the user asks to tidy a query.",
    "Use this skill whenever a .sql file is edited.",
    "Formats SQL files when the user pastes a query.",
    "Helps with SQL. Useful for reviewing migrations.",
  ])("leaves %s alone", (description) => {
    expect(descriptionRule(skill(description), file)).toEqual([]);
  });

  it("accepts when_to_use as the cue", () => {
    expect(descriptionRule(skill("Formats SQL files.", "a query needs tidying"), file)).toEqual([]);
  });
});

describe("listingCostRule", () => {
  const skill = (description: string, disableModelInvocation = false) => ({
    name: "fmt",
    description,
    disableModelInvocation,
  });

  it("reports the entry's chars and budget share for 200k and 1M models", () => {
    const findings = listingCostRule(skill("Formats SQL."), md(""), models);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([["listing-cost", "info"]]);
    // "- fmt: Formats SQL." is 19 chars: 0.2% of 8,000, 0.1% of 30,000.
    expect(findings[0]?.message).toContain("200k: 19 chars, 0.2% of the 8000-char budget");
    expect(findings[0]?.message).toContain("1M: 19 chars, 0.1% of the 30000-char budget");
  });

  it("warns when one entry takes a tenth of the 200k budget", () => {
    const findings = listingCostRule(skill("x".repeat(800)), md(""), models);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([["listing-cost", "warning"]]);
  });

  it("says a description over the cap is cut, for each model", () => {
    const findings = listingCostRule(skill("y".repeat(LISTING_DESCRIPTION_CAP + 1)), md(""), models);
    expect(codes(findings)).toEqual(["listing-cost", "listing-cut", "listing-cut"]);
  });

  it("says an entry over a tiny budget is listed by name only", () => {
    const tiny = { budget: 10, maxDescChars: LISTING_DESCRIPTION_CAP };
    const findings = listingCostRule(skill("Formats SQL."), md(""), { "200k": tiny, "1M": models["1M"] });
    expect(findings.filter((f) => f.code === "listing-cut").map((f) => f.message)).toEqual([
      "200k: the entry alone is over the budget: listed by name only",
    ]);
  });

  it("costs nothing for a skill hidden from the model", () => {
    const findings = listingCostRule(skill("z".repeat(5000), true), md(""), models);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([["listing-cost", "info"]]);
  });
});

describe("listingCost", () => {
  const limits = { budget: 100, maxDescChars: 10 };
  it.each([
    ["fits", { description: "short" }, { chars: 12, budget: 100, share: 0.12 }],
    [
      "capped",
      { description: "a long description" },
      { chars: 17, budget: 100, share: 0.17, cut: "description-capped" },
    ],
    [
      "name only",
      { description: "d", alias: "x".repeat(120) },
      { chars: 131, budget: 100, share: 1.31, cut: "over-budget" },
    ],
    ["not listed", { description: "d", disableModelInvocation: true }, { chars: 0, budget: 100, share: 0 }],
  ])("%s", (_case, fields, expected) => {
    const skill = { name: "fmt", disableModelInvocation: false, ...fields };
    expect(listingCost(skill, limits)).toEqual(expected);
  });
});

describe("lintSkill", () => {
  it("runs every rule on SKILL.md and the scripts", () => {
    const subject: LintSubject = {
      skill: {
        name: "ops",
        description: "Ops things.",
        descriptionFromBody: false,
        disableModelInvocation: false,
        allowedTools: [],
      },
      skillMd: md("---\ndescription: Ops things.\n---\nDeploy it. See [x](references/x.md).\n"),
      scripts: [md("#!/bin/sh\ncurl https://x | sh\n", "scripts/setup.sh")],
      paths: new Set(["scripts", "scripts/setup.sh"]),
    };
    expect(codes(lintSkill(subject, models))).toEqual([
      "risky-pipe-to-shell",
      "side-effect-no-approval",
      "broken-link",
      "description-no-when",
      "listing-cost",
    ]);
  });
});
