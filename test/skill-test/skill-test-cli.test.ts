import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

interface JsonReport {
  ok: boolean;
  passed: number;
  failed: number;
  cases: { name: string; kind: string; passed: boolean; failures: string[]; line: number; actual?: string }[];
  fileErrors: { file: string; line: number; column: number; message: string }[];
}

/** `${CLAUDE_SKILL_DIR}` as a body writes it (and as the report shows the temp copy's path). */
const SKILL_DIR = ["$", "{CLAUDE_SKILL_DIR}"].join("");

const SKILL = [
  "---",
  "name: greet",
  "description: Greets someone. Use when the user asks for a greeting.",
  "---",
  `Hello $ARGUMENTS from ${SKILL_DIR}!`,
  "Branch: !`git branch --show-current`",
  "",
].join("\n");

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function project(files: Record<string, string>): Promise<TmpTree> {
  tree = await tmpTree({ "home/repo/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return tree;
}

function cases(yaml: string): Record<string, string> {
  return {
    "home/repo/.claude/skills/greet/SKILL.md": SKILL,
    "home/repo/.claude/skills/greet/tests/a.yaml": yaml,
  };
}

function byName(report: JsonReport, name: string) {
  const found = report.cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}: ${JSON.stringify(report)}`);
  return found;
}

describe("skillwright test: expansion cases", () => {
  it("checks exact, contains and regex against the engine's expansion, with stubbed shell output", async () => {
    const t = await project(
      cases(`cases:
  - name: exact ok
    kind: expansion
    args: Ada
    stubs: { git branch --show-current: "main\\n" }
    expect:
      exact: |
        Hello Ada from \${CLAUDE_SKILL_DIR}!
        Branch: main
  - name: exact wrong
    kind: expansion
    args: Ada
    stubs: { git branch --show-current: "main\\n" }
    expect: { exact: "Hello Bob" }
  - name: contains wrong
    kind: expansion
    args: Ada
    stubs: { git branch --show-current: dev }
    expect: { contains: [Hello Ada, "Branch: main"] }
  - name: regex ok
    kind: expansion
    args: Ada Lovelace
    stubs: { git branch --show-current: dev }
    expect: { regex: "^Hello Ada Lovelace from \\\\S+!$", not_contains: ARGUMENTS }
  - name: regex wrong
    kind: expansion
    args: Ada
    stubs: { git branch --show-current: dev }
    expect: { regex: "^Branch: main$" }
  - name: unstubbed
    kind: expansion
    stubs: {}
    expect: { contains: Hello }
`),
    );
    const result = await cli(t, ["test", "--json"]);
    expect(result.code).toBe(1);
    const report = json<JsonReport>(result);
    expect(byName(report, "exact ok").passed).toBe(true);
    expect(byName(report, "regex ok").passed).toBe(true);
    expect(byName(report, "exact wrong").failures).toEqual(["body differs from `exact`"]);
    expect(byName(report, "contains wrong").failures).toEqual(['body does not contain "Branch: main"']);
    expect(byName(report, "regex wrong").failures).toEqual(["body does not match /^Branch: main$/m"]);
    expect(byName(report, "unstubbed").failures[0]).toContain(
      "no stub for command: git branch --show-current",
    );
    expect(byName(report, "exact wrong").line).toBe(10);
    expect(report).toMatchObject({ ok: false, passed: 2, failed: 4 });

    const text = await cli(t, ["test"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("✗ greet › exact wrong (expansion, ");
    expect(text.stdout).toContain("      - Hello Bob\n");
    expect(text.stdout).toContain(`      + Hello Ada from ${SKILL_DIR}!\n`);
    expect(text.stdout).toMatch(/2 passed, 4 failed \(1 skill\(s\)\)\n$/);
  });

  it("runs inline shell for real in a temp copy of the skill dir, never in the original", async () => {
    const t = await project({
      "home/repo/.claude/skills/mk/SKILL.md":
        '---\ndescription: makes a file\n---\nmade: !`touch made.txt && ls && echo "arg=$ARGUMENTS"`\n',
      "home/repo/.claude/skills/mk/data.txt": "x",
      "home/repo/.claude/skills/mk/tests/t.yaml": `cases:
  - name: writes in the copy
    kind: expansion
    args: "it's; rm -rf /"
    expect: { contains: [data.txt, made.txt, "arg=it's; rm -rf /"] }
`,
    });
    const result = await cli(t, ["test", ".claude/skills/mk"]);
    expect(result.stdout).toContain("✓ mk › writes in the copy");
    expect(result.code).toBe(0);
    expect(existsSync(t.path("home/repo/.claude/skills/mk/made.txt"))).toBe(false);
  });

  it("a stub matches the command with the argument values in place", async () => {
    const t = await project({
      "home/repo/.claude/skills/log/SKILL.md":
        "---\ndescription: log\n---\nLog: !`git log --oneline $ARGUMENTS`\n",
      "home/repo/.claude/skills/log/tests/t.yaml": `cases:
  - name: stubbed with args
    kind: expansion
    args: main
    stubs: { "git log --oneline main": "abc123 first\\n" }
    expect: { exact: "Log: abc123 first\\n" }
`,
    });
    const result = await cli(t, ["test", ".claude/skills/log"]);
    expect(result.stdout).toContain("✓ log › stubbed with args");
    expect(result.code).toBe(0);
  });

  it("--update rewrites a differing exact body after showing the diff; the next run passes", async () => {
    const t = await project(
      cases(`cases:
  # a comment that stays
  - name: snapshot
    kind: expansion
    args: Ada
    stubs: { git branch --show-current: main }
    expect:
      exact: old text
`),
    );
    const file = t.path("home/repo/.claude/skills/greet/tests/a.yaml");
    const first = await cli(t, ["test", "--update"]);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain("      - old text\n");
    const updated = await readFile(file, "utf8");
    expect(updated).toContain("# a comment that stays");
    expect(updated).toContain(`exact: |\n        Hello Ada from ${SKILL_DIR}!\n        Branch: main\n`);
    const second = await cli(t, ["test"]);
    expect(second.stdout).toContain("✓ greet › snapshot");
    expect(second.code).toBe(0);
  });
});

describe("skillwright test: listing cases", () => {
  const neighbours = `
      - count: 300
        description: ${"a description of a neighbouring skill that takes room ".repeat(1)}`;
  it("full / name-only for the model's budget among neighbours, via the engine's listing", async () => {
    const t = await project({
      "home/repo/.claude/skills/zeta/SKILL.md": `---\ndescription: The last skill in name order. ${"More words. ".repeat(25)}\n---\nBody\n`,
      "home/repo/.claude/skills/zeta/tests/listing.yaml": `cases:
  - name: alone
    kind: listing
    expect: full
  - name: crowded on 200k
    kind: listing
    model: claude-sonnet-4-5
    neighbours:${neighbours}
    expect: name-only
  - name: crowded on 1M
    kind: listing
    model: sonnet
    neighbours:${neighbours}
    expect: full
  - name: wrong expectation
    kind: listing
    model: claude-sonnet-4-5
    neighbours:${neighbours}
    expect: full
`,
    });
    const result = await cli(t, ["test", "--json", ".claude/skills/zeta"]);
    const report = json<JsonReport>(result);
    expect(byName(report, "alone").passed).toBe(true);
    expect(byName(report, "crowded on 200k").passed).toBe(true);
    expect(byName(report, "crowded on 1M").passed).toBe(true);
    expect(byName(report, "wrong expectation").failures[0]).toMatch(
      /^listed name-only, expected full \(claude-sonnet-4-5, budget 8000 chars, 301 skill\(s\)/,
    );
    expect(result.code).toBe(1);
  });
});

describe("skillwright test: tests files and reports", () => {
  it("reports each mistake of a malformed tests file with its line, and exits 1", async () => {
    const t = await project(
      cases(`cases:
  - name: fine
    kind: listing
    expect: full
  - name: bad state
    kind: listing
    expect: partly
  - kind: expansion
    name: typo
    argz: x
    expect: { contains: a }
`),
    );
    const result = await cli(t, ["test"]);
    expect(result.code).toBe(1);
    const file = ".claude/skills/greet/tests/a.yaml";
    expect(result.stdout).toContain(`✗ ${file}:7:13: cases[1].expect: Invalid option`);
    expect(result.stdout).toContain(`✗ ${file}:8:5: cases[2]: Unrecognized key: "argz"`);
    expect(result.stdout).not.toContain("✓ greet › fine");
  });

  it("reports a YAML syntax error with its line", async () => {
    const t = await project(cases("cases:\n  - name: a\n    kind: listing\n   expect: [full\n"));
    const result = await cli(t, ["test", "--json"]);
    expect(result.code).toBe(1);
    const report = json<JsonReport>(result);
    expect(report.fileErrors.length).toBeGreaterThan(0);
    expect(report.fileErrors[0]?.line).toBe(4);
  });

  it("--junit writes JUnit XML that parses back to the same cases", async () => {
    const t = await project(
      cases(`cases:
  - name: passes <&>
    kind: listing
    expect: full
  - name: fails "quoted"
    kind: expansion
    stubs: { git branch --show-current: main }
    expect: { contains: "<nope & never>" }
`),
    );
    const result = await cli(t, ["test", "--junit", "out/junit.xml"]);
    expect(result.code).toBe(1);
    expect(existsSync(t.path("home/repo/out/junit.xml"))).toBe(false);
    const ok = await cli(t, ["test", "--junit", "junit.xml"]);
    const xml = readFileSync(t.path("home/repo/junit.xml"), "utf8");
    expect(ok.code).toBe(1);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    expect(parsed.testsuites).toMatchObject({ tests: "2", failures: "1", errors: "0" });
    expect(suite).toMatchObject({ name: "greet", tests: "2", failures: "1" });
    expect(suite.testcase[0]).toMatchObject({ name: "passes <&>", classname: "greet" });
    expect(suite.testcase[0].failure).toBeUndefined();
    expect(suite.testcase[1].name).toBe('fails "quoted"');
    expect(suite.testcase[1].failure.message).toBe('body does not contain "<nope & never>"');
  });

  it("by default the bundled skills' cases are left out; a path to them runs them", async () => {
    const t = await project({
      "bundled/packaged/SKILL.md": "---\ndescription: A bundled skill.\n---\nBody\n",
      "bundled/packaged/tests/a.yaml": "cases:\n  - { name: listed, kind: listing, expect: full }\n",
    });
    const none = await cli(t, ["test"]);
    expect(none.stdout).toBe("no test cases found (0 skill(s) with tests/)\n");
    const given = await cli(t, ["test", "../../bundled/packaged"]);
    expect(given.stdout).toContain("✓ packaged › listed (listing, ");
    expect(given.code).toBe(0);
  });

  it("no tests: exit 0 with a note; an unknown path: exit 1", async () => {
    const t = await project({ "home/repo/.claude/skills/plain/SKILL.md": "---\ndescription: d\n---\nx\n" });
    const none = await cli(t, ["test"]);
    expect(none.stdout).toBe("no test cases found (0 skill(s) with tests/)\n");
    expect(none.code).toBe(0);
    await writeFile(t.path("home/repo/empty.txt"), "");
    const missing = await cli(t, ["test", "nowhere"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No skill found at nowhere");
  });
});

describe("skillwright test: trigger cases against the scripted model server", () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const TRIGGER = `cases:
  - name: commit requests
    kind: trigger
    should: ["write a commit message for my staged work"]
    should_not: ["what is the capital of France?"]
    runs: 2
  - name: a joke is not a commit
    kind: trigger
    should: ["tell me a joke"]
    runs: 1
`;

  it("each prompt runs `runs` times with the project's real listing; the rate decides", async () => {
    server = await startModelServer({
      apiKey: "sk-test",
      script: {
        turns: [
          {
            match: { lastUserTextIncludes: "my staged work" },
            repeat: true,
            response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "greet" } }] },
          },
          { repeat: true, response: { content: [{ type: "text", text: "no skill" }] } },
        ],
      },
    });
    const t = await project({
      ...cases(TRIGGER),
      "home/repo/.claude/skills/other/SKILL.md": "---\ndescription: Other.\n---\nx\n",
    });
    const result = await cli(t, ["test", "--json"], "home/repo", {
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: server.url,
    });
    const report = json<JsonReport>(result);
    expect(byName(report, "commit requests")).toMatchObject({ passed: true, failures: [] });
    expect(byName(report, "a joke is not a commit").failures).toEqual([
      '"tell me a joke": triggered 0/1, expected a rate ≥ 0.66',
    ]);
    expect(result.code).toBe(1);
    const posts = server.requests.filter((r) => r.path.startsWith("/v1/messages"));
    expect(posts).toHaveLength(5);
    for (const request of posts) {
      const body = JSON.stringify(request.body);
      expect(body).toContain("- greet: Greets someone. Use when the user asks for a greeting.");
      expect(body).toContain("- other: Other.");
      expect(body).toContain('"name":"Skill"');
    }
  });

  it("without an API key, trigger cases are skipped (not failed)", async () => {
    const t = await project(cases(TRIGGER));
    const result = await cli(t, ["test", "--junit", "j.xml"]);
    expect(result.stdout).toContain("- greet › commit requests (trigger, ");
    expect(result.stdout).toContain("skipped: no model: set ANTHROPIC_API_KEY");
    expect(result.stdout).toMatch(/0 passed, 0 failed, 2 skipped/);
    expect(result.code).toBe(0);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      readFileSync(t.path("home/repo/j.xml"), "utf8"),
    );
    expect(parsed.testsuites.testsuite.testcase[0].skipped.message).toBe("no model: set ANTHROPIC_API_KEY");
  });
});
