import { describe, expect, it } from "vitest";
import {
  commandContentMatches,
  parseRule,
  parseRules,
  pathContentMatches,
  ruleMatches,
  skillContentMatches,
  splitCommand,
  toolMatches,
} from "../../src/permissions/rules.js";

describe("parseRule", () => {
  it.each([
    { raw: "Read", want: { raw: "Read", tool: "Read" } },
    { raw: "  Bash(git add:*)  ", want: { raw: "Bash(git add:*)", tool: "Bash", content: "git add:*" } },
    { raw: "Bash()", want: { raw: "Bash()", tool: "Bash" } },
    { raw: "Bash(*)", want: { raw: "Bash(*)", tool: "Bash" } },
    { raw: "Bash(echo (hi))", want: { raw: "Bash(echo (hi))", tool: "Bash", content: "echo (hi)" } },
    { raw: "Bash(echo \\(x\\))", want: { raw: "Bash(echo \\(x\\))", tool: "Bash", content: "echo (x)" } },
    { raw: "mcp__github__*", want: { raw: "mcp__github__*", tool: "mcp__github__*" } },
    { raw: "Skill(acme:*)", want: { raw: "Skill(acme:*)", tool: "Skill", content: "acme:*" } },
  ])("$raw", ({ raw, want }) => {
    expect(parseRule(raw)).toEqual({ ok: true, rule: want });
  });

  it.each(["", "Bash(unclosed", "(x)", "two words", "Bash(x) trailing"])("rejects %j", (raw) => {
    expect(parseRule(raw).ok).toBe(false);
  });

  it("parseRules drops the unparsable ones", () => {
    expect(parseRules(["Read", "bad rule", "Edit"]).map((r) => r.tool)).toEqual(["Read", "Edit"]);
  });
});

describe("toolMatches", () => {
  it("matches a rule with many wildcards in linear time (a backtracking RegExp of it took hours)", () => {
    const rule = `${"a*".repeat(40)}b`;
    expect(toolMatches(rule, "a".repeat(3_000))).toBe(false);
    expect(toolMatches(rule, `${"a".repeat(3_000)}b`)).toBe(true);
    expect(toolMatches("mcp__*__read*", "mcp__fs__read_file")).toBe(true);
    expect(toolMatches("*", "")).toBe(true);
  });

  it.each([
    ["Read", "Read", true],
    ["Read", "read", false],
    ["Read", "ReadMore", false],
    ["mcp__github__*", "mcp__github__create_issue", true],
    ["mcp__github__*", "mcp__gitlab__x", false],
    ["mcp__github", "mcp__github__create_issue", true],
    ["mcp__github", "mcp__githubx__y", false],
    ["mcp__my_server", "mcp__my_server__tool", true],
    ["*", "Anything", true],
  ])("%s vs %s → %s", (rule, tool, want) => {
    expect(toolMatches(rule, tool)).toBe(want);
  });
});

describe("splitCommand", () => {
  it.each([
    { command: "git status", parts: ["git status"], substitution: false },
    { command: "git add . && git commit -m x", parts: ["git add .", "git commit -m x"], substitution: false },
    { command: "a; b || c | d & e", parts: ["a", "b", "c", "d", "e"], substitution: false },
    { command: "a\nb", parts: ["a", "b"], substitution: false },
    { command: "a |& b", parts: ["a", "b"], substitution: false },
    { command: "echo 'a && b; c'", parts: ["echo 'a && b; c'"], substitution: false },
    { command: 'echo "a | b"', parts: ['echo "a | b"'], substitution: false },
    { command: "echo a\\;b", parts: ["echo a\\;b"], substitution: false },
    { command: "make 2>&1 >/dev/null &>x", parts: ["make 2>&1 >/dev/null &>x"], substitution: false },
    { command: "echo $(rm -rf /)", parts: ["echo $(rm -rf /)"], substitution: true },
    { command: 'echo "`id`"', parts: ['echo "`id`"'], substitution: true },
    { command: "echo '$(safe)'", parts: ["echo '$(safe)'"], substitution: false },
    { command: "diff <(a) b", parts: ["diff <(a) b"], substitution: true },
    { command: "  ;; ", parts: [], substitution: false },
    // Heredoc bodies stay commands (conservative): `<<` is not always a heredoc (`$[1<<2]`, `${x:-<<E}`), and
    // skipping a "body" would hide the commands after it from deny and allow rules.
    { command: "echo $[1<<2]\nrm -rf ~\n2]", parts: ["echo $[1<<2]", "rm -rf ~", "2]"], substitution: false },
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
      command: "echo ${x:-<<E}\nrm -rf ~\nE",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template.
      parts: ["echo ${x:-<<E}", "rm -rf ~", "E"],
      substitution: false,
    },
  ])("$command", ({ command, parts, substitution }) => {
    expect(splitCommand(command)).toEqual({ parts, substitution });
  });
});

describe("commandContentMatches", () => {
  it.each([
    ["git add:*", "git add", true],
    ["git add:*", "git add .", true],
    ["git add:*", "  git add -A  ", true],
    ["git add:*", "git addx", false],
    ["git add:*", "git ad", false],
    ["git add:*", "git status", false],
    ["npm test", "npm test", true],
    ["npm test", "npm test --watch", false],
    ["npm run *", "npm run build", true],
    ["npm run *", "npm install", false],
  ])("%s vs %j → %s", (content, command, want) => {
    expect(commandContentMatches(content, command)).toBe(want);
  });
});

describe("pathContentMatches", () => {
  const dirs = { cwd: "/repo", home: "/home/u" };
  it.each([
    ["./src/**", "src/a.ts", true],
    ["./src/**", "/repo/src/deep/b.ts", true],
    ["./src/**", "lib/src/a.ts", false],
    ["./src/**", "/elsewhere/src/a.ts", false],
    ["src/**", "src/a.ts", true],
    ["*.ts", "a/b/c.ts", true],
    ["*.ts", "a/b/c.js", false],
    ["*.ts", "/outside/c.ts", false],
    ["src", "src/a/b.ts", true],
    ["/etc/**", "/etc/passwd", true],
    ["/etc/**", "/repo/etc/x", false],
    ["//etc/**", "/etc/hosts", true],
    ["~/secrets/**", "/home/u/secrets/key", true],
    ["~/secrets/**", "/repo/secrets/key", false],
    ["~", "/home/u/anything", true],
    [".env", "/repo/.env", true],
    [".env", "/repo/sub/.env", true],
    ["./src/**", "/repo", false],
  ])("%s vs %s → %s", (content, path, want) => {
    expect(pathContentMatches(content, path, dirs)).toBe(want);
  });

  it("never matches ~ rules without a home", () => {
    expect(pathContentMatches("~/x", "/home/u/x", { cwd: "/repo" })).toBe(false);
  });
});

describe("skillContentMatches", () => {
  it.each([
    ["deploy", "deploy", true],
    ["deploy", "deploy-prod", false],
    ["acme:*", "acme:lint", true],
    ["acme:*", "acme", true],
    ["acme:*", "other:lint", false],
    ["review:*", "review-pr", true], // Claude Code: a plain prefix
  ])("%s vs %s → %s", (content, name, want) => {
    expect(skillContentMatches(content, name)).toBe(want);
  });
});

describe("ruleMatches", () => {
  const dirs = { cwd: "/repo" };
  const rule = (raw: string) => {
    const parsed = parseRule(raw);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  it.each([
    { rule: "Read", tool: "Read", subject: { kind: "path", path: "/anywhere" } as const, want: true },
    { rule: "Read", tool: "Edit", subject: { kind: "none" } as const, want: false },
    { rule: "Read(./src/**)", tool: "Read", subject: { kind: "none" } as const, want: false },
    {
      rule: "Skill(pdf)",
      tool: "Skill",
      subject: { kind: "skill", name: "pdf-tools", alias: "pdf" } as const,
      want: true,
    },
    {
      rule: "WebFetch(domain:*.example.com)",
      tool: "WebFetch",
      subject: { kind: "text", text: "domain:api.example.com" } as const,
      want: true,
    },
    {
      rule: "WebFetch(domain:example.com)",
      tool: "WebFetch",
      subject: { kind: "text", text: "domain:evil.com" } as const,
      want: false,
    },
    {
      rule: "Bash(ls:*)",
      tool: "Bash",
      subject: { kind: "command", command: "ls -la" } as const,
      want: true,
    },
  ])("$rule on $tool", ({ rule: raw, tool, subject, want }) => {
    expect(ruleMatches(rule(raw), tool, subject, dirs)).toBe(want);
  });
});
