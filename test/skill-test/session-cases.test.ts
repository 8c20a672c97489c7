import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

interface JsonReport {
  ok: boolean;
  passed: number;
  failed: number;
  cases: { name: string; kind: string; passed: boolean; failures: string[]; actual?: string }[];
  fileErrors: { line: number; column: number; message: string }[];
}

/** A skill whose hooks log the Write tool before and after it runs. */
const NOTES = `---
name: notes
description: Writes meeting notes to notes.md. Use when the user asks to save notes.
hooks:
  PreToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: echo before
  PostToolUse:
    - matcher: Write
      hooks:
        - type: command
          command: echo after
---
Save the notes for $ARGUMENTS in notes.md with the Write tool.
`;

/** Skill call → Write → a closing text: the turns every case below plays. */
const TURNS = `
    turns:
      - response: { content: [{ type: tool_use, name: Skill, input: { skill: notes, args: standup } }] }
      - match: { hasToolResultFor: Skill }
        response: { content: [{ type: tool_use, name: Write, input: { file_path: notes.md, content: "# Standup\\n" } }] }
      - match: { hasToolResultFor: Write }
        response: { content: [{ type: text, text: Saved the notes. }] }`;

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function project(yaml: string): Promise<TmpTree> {
  tree = await tmpTree({
    "home/repo/.git/HEAD": "ref: refs/heads/main\n",
    "home/repo/.claude/skills/notes/SKILL.md": NOTES,
    "home/repo/.claude/skills/notes/tests/session.yaml": yaml,
  });
  return tree;
}

function byName(report: JsonReport, name: string) {
  const found = report.cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}: ${JSON.stringify(report)}`);
  return found;
}

describe("skillwright test: session cases", () => {
  it("runs the scripted conversation through the real session in a temp copy and checks every expectation", async () => {
    const t = await project(`cases:
  - name: saves notes
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      requests:
        - request: 1
          contains: Save the notes for standup in notes.md
        - contains: save notes for the standup
      skill_calls: [{ skill: notes, args: standup }]
      tool_results: [{ tool: Write, is_error: false, contains: notes.md }]
      files:
        - { path: notes.md, exact: "# Standup\\n" }
        - { path: other.md, exists: false }
      hooks: [PreToolUse:Write, PostToolUse:Write]
      reply: { contains: Saved the notes. }
`);
    const result = await cli(t, ["test"]);
    expect(result.stdout).toContain(
      "✓ notes › saves notes (session, .claude/skills/notes/tests/session.yaml:2)",
    );
    expect(result.stdout).toContain("1 passed, 0 failed");
    expect(result.code).toBe(0);
    expect(existsSync(t.path("home/repo/notes.md"))).toBe(false);
  });

  it("each expectation fails for its own reason, and the report says what the session did", async () => {
    const t = await project(`cases:
  - name: wrong request text
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      requests: [{ request: 1, contains: Save the notes for retro }]
  - name: wrong skill args
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      skill_calls: [{ skill: notes, args: retro }]
  - name: skill not allowed
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write]${TURNS}
    expect:
      tool_results: [{ tool: Skill, is_error: false }]
  - name: wrong file
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      files: [{ path: notes.md, contains: Retro }, { path: missing.md }]
  - name: hooks in the wrong order
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      hooks: [PostToolUse:Write, PreToolUse]
  - name: wrong reply and turns left over
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
      - response: { content: [{ type: text, text: never asked for }] }
    expect:
      reply: { not_contains: Saved }
`);
    const result = await cli(t, ["test", "--json"]);
    expect(result.code).toBe(1);
    const report = json<JsonReport>(result);
    expect(report).toMatchObject({ passed: 0, failed: 6 });
    expect(byName(report, "wrong request text").failures).toEqual([
      'request #1 does not contain "Save the notes for retro"',
    ]);
    expect(byName(report, "wrong skill args").failures).toEqual([
      'no Skill call of notes with args "retro" in order (calls made: notes("standup"))',
    ]);
    const denied = byName(report, "skill not allowed");
    expect(denied.failures).toEqual(["Skill result is an error"]);
    expect(denied.actual).toContain("tools: Skill (error: <tool_use_error>Allow Skill(notes)?");
    expect(byName(report, "wrong file").failures).toEqual([
      'file notes.md does not contain "Retro"',
      "file missing.md was not written",
    ]);
    expect(byName(report, "hooks in the wrong order").failures).toEqual([
      "hooks fired [PreToolUse:Write, PostToolUse:Write], expected [PostToolUse:Write, PreToolUse]",
    ]);
    expect(byName(report, "wrong reply and turns left over").failures).toEqual([
      "1 scripted turn(s) were never requested",
      'reply contains "Saved"',
    ]);

    const text = await cli(t, ["test"]);
    expect(text.stdout).toContain(
      "    the session made:\n      requests: 3\n      skill calls: notes standup\n      tools: Skill, Write\n      hooks: PreToolUse:Write, PostToolUse:Write\n",
    );
  });

  it("reports a malformed session case with its line", async () => {
    const t = await project(`cases:
  - name: no response
    kind: session
    prompt: hi
    turns:
      - match: { lastUserTextIncludes: hi }
    expect: { reply: { contains: x } }
  - name: no expectations
    kind: session
    prompt: hi
    turns: [{ response: { content: [{ type: text, text: ok }] } }]
    expect: {}
  - name: bad hooks
    kind: session
    prompt: hi
    turns: [{ response: { content: [{ type: txt, text: ok }] } }]
    expect: { hooks: PreToolUse }
`);
    const result = await cli(t, ["test"]);
    expect(result.code).toBe(1);
    const file = ".claude/skills/notes/tests/session.yaml";
    expect(result.stdout).toContain(
      `✗ ${file}:6:9: cases[0].turns[0]: a turn needs a response (only an http fault can stand alone)`,
    );
    expect(result.stdout).toContain(
      `✗ ${file}:12:13: cases[1].expect: give at least one of requests, skill_calls, tool_results, files, hooks, reply`,
    );
    expect(result.stdout).toMatch(
      new RegExp(`✗ ${file}:16:\\d+: cases\\[2\\]\\.turns\\[0\\]\\.response\\.content\\[0\\]`),
    );
    expect(result.stdout).toContain(`✗ ${file}:17:22: cases[2].expect.hooks:`);
    expect(result.stdout).not.toContain("notes › ");
  });

  it("a skill outside the project runs in an empty project holding only it", async () => {
    tree = await tmpTree({
      "home/repo/.git/HEAD": "ref: refs/heads/main\n",
      "home/repo/README.md": "not copied",
      "elsewhere/notes/SKILL.md": NOTES,
      "elsewhere/notes/tests/session.yaml": `cases:
  - name: alone
    kind: session
    prompt: save notes for the standup
    allowed_tools: [Write, "Skill(notes)"]${TURNS}
    expect:
      files:
        - { path: .claude/skills/notes/SKILL.md, contains: "name: notes" }
        - { path: notes.md }
        - { path: README.md, exists: false }
`,
    });
    const result = await cli(tree, ["test", "../../elsewhere/notes"]);
    expect(result.stdout).toContain("✓ notes › alone");
    expect(result.code).toBe(0);
  });
});
