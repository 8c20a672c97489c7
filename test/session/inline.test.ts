// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BodyBlock,
  type Harness,
  lastUser,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const INJECTION = "a; touch X; $(touch Y) `touch Z`";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/greet/SKILL.md": skillMd(
    "description: Greets",
    "Hello $ARGUMENTS! First: $0, second: $1.\nDir: ${CLAUDE_SKILL_DIR}\n",
  ),
  "project/.claude/skills/shelly/SKILL.md": skillMd(
    "description: Runs shell\nallowed-tools: Bash(echo:*), Bash(pwd)",
    "Where: !`pwd`\nSay: !`echo inline-ran`\nEnd.\n",
  ),
  "project/.claude/skills/risky/SKILL.md": skillMd("description: Risky", "Clean:\n!`rm -rf build`\n"),
  "project/.claude/skills/failing/SKILL.md": skillMd(
    "description: Fails\nallowed-tools: Bash(false)",
    "Try: !`false`\n",
  ),
  "project/.claude/skills/inject/SKILL.md": skillMd(
    "description: Echoes args\nallowed-tools: Bash(echo:*)",
    'Raw: $ARGUMENTS\nA: !`echo $ARGUMENTS`\nB: !`echo "$ARGUMENTS"`\nC: !`echo $0 $1 $2`\n',
  ),
  "project/.claude/skills/wipe/SKILL.md": skillMd("description: Wipes", "Wipe: !`rm -rf $ARGUMENTS`\n"),
  "project/.claude/skills/wipe-block/SKILL.md": skillMd(
    "description: Wipes in a block",
    "Wipe:\n```!\nrm -rf $0\necho gone\n```\n",
  ),
  "project/.claude/commands/legacy.md": skillMd("description: Old style", "Legacy body $ARGUMENTS\n"),
  "project/.claude/settings.local.json": JSON.stringify({
    permissions: {
      allow: [
        "Skill(shelly)",
        "Skill(risky)",
        "Skill(failing)",
        "Skill(inject)",
        "Skill(wipe)",
        "Skill(wipe-block)",
      ],
    },
  }),
  "project/build/keep.txt": "keep\n",
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function invoke(skill: string, args?: string) {
  h = await startHarness({
    files: TREE,
    turns: [
      toolTurn("Skill", { skill, ...(args === undefined ? {} : { args }) }, { id: "toolu_1" }),
      textTurn("ok"),
    ],
  });
  await h.send("go");
  const blocks = plainBlocks(lastUser(h.body(1)).content);
  const [result] = toolResults(h.body(1));
  if (result === undefined) throw new Error("no tool_result");
  return { h, blocks, text: resultText(result), isError: result.is_error === true };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe("inline expansion (SPEC §5)", () => {
  it("answers `Launching skill: {name}` and puts the expansion in the same user message, byte-exact", async () => {
    const { h, blocks } = await invoke("greet", "Bob Smith");
    const dir = join(h.cwd, ".claude", "skills", "greet");
    const expected: BodyBlock[] = [
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [{ type: "text", text: "Launching skill: greet" }],
      },
      {
        type: "text",
        text: `Base directory for this skill: ${dir}\n\nHello Bob Smith! First: Bob, second: Smith.\nDir: ${dir}\n`,
      },
    ];
    expect(blocks).toEqual(expected);
  });

  it("a legacy command expands to its body alone", async () => {
    const { blocks } = await invoke("legacy", "x y");
    expect(blocks[1]).toEqual({ type: "text", text: "Legacy body x y\n" });
  });

  it("records the invocation (name, args, expanded text) on the session and in its transcript", async () => {
    const { h, blocks } = await invoke("greet", "Ann");
    expect(h.opened.session.invoked()).toEqual([
      expect.objectContaining({ name: "greet", args: "Ann", text: blocks[1]?.text }),
    ]);
    const transcript = await readFile(
      join(h.home, ".skillwright", "sessions", `${h.opened.session.id}.jsonl`),
      "utf8",
    );
    const skills = transcript
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string })
      .filter((entry) => entry.type === "skill");
    expect(skills).toEqual([
      { type: "skill", name: "greet", args: "Ann", text: blocks[1]?.text, at: "2025-06-01T12:00:00.000Z" },
    ]);
  });

  it("runs inline shell in the project dir before the model sees the body", async () => {
    const { h, blocks, isError } = await invoke("shelly");
    expect(isError).toBe(false);
    const dir = join(h.cwd, ".claude", "skills", "shelly");
    expect(blocks[1]?.text).toBe(
      `Base directory for this skill: ${dir}\n\nWhere: ${h.cwd}\nSay: inline-ran\nEnd.\n`,
    );
  });

  it("a denied inline command fails the whole call with the SPEC text, and nothing runs", async () => {
    const { h, blocks, text, isError } = await invoke("risky");
    expect(isError).toBe(true);
    expect(text).toBe(
      'Shell command permission check failed for pattern "!`rm -rf build`": ' +
        `rm in '${join(h.cwd, "build")}' needs approval. The path is inside the working directories for this ` +
        `session ('${h.cwd}'), and skillwright asks before a shell command creates, changes or removes files there.`,
    );
    expect(blocks).toHaveLength(1);
    expect(await exists(join(h.cwd, "build", "keep.txt"))).toBe(true);
  });

  it("a refusal quotes the marker after substitution, and a fenced block by its first line (Claude Code's wire)", async () => {
    const quoted = (text: string) => text.slice(0, text.indexOf('": ') + 1);
    const inline = await invoke("wipe", "build");
    expect(inline.isError).toBe(true);
    expect(quoted(inline.text)).toBe('Shell command permission check failed for pattern "!`rm -rf build`"');
    await h?.close();
    const block = await invoke("wipe-block", "build");
    expect(block.isError).toBe(true);
    expect(quoted(block.text)).toBe('Shell command permission check failed for pattern "```!"');
    expect(await exists(join(block.h.cwd, "build", "keep.txt"))).toBe(true);
  });

  it("a failing inline command fails the whole call, without the <tool_use_error> wrapper (§14.9)", async () => {
    const { text, isError } = await invoke("failing");
    expect(isError).toBe(true);
    expect(text).toBe('Shell command failed for pattern "!`false`": [stderr]\nCommand exited with code 1');
  });

  it("args pasted into inline commands cannot inject commands (model path)", async () => {
    const { h, blocks, isError } = await invoke("inject", INJECTION);
    expect(isError).toBe(false);
    for (const file of ["X", "Y", "Z", "Y)"]) expect(await exists(join(h.cwd, file))).toBe(false);
    const text = blocks[1]?.text ?? "";
    expect(text).toContain(`Raw: ${INJECTION}\n`);
    expect(text).toContain(`A: ${INJECTION}\n`);
    expect(text).toContain(`B: ${INJECTION}\n`);
    expect(text).toContain("C: a; touch X;\n");
  });

  it("args pasted into inline commands cannot inject commands (user path)", async () => {
    h = await startHarness({ files: TREE, turns: [textTurn("ok")] });
    await h.send(`/inject ${INJECTION}`);
    for (const file of ["X", "Y", "Z"]) expect(await exists(join(h.cwd, file))).toBe(false);
    const texts = plainBlocks(lastUser(h.body(0)).content).map((b) => b.text ?? "");
    expect(texts.some((t) => t.includes(`A: ${INJECTION}\n`))).toBe(true);
  });

  it("parallel Skill calls: all results first, then each expansion, in call order, in one user message", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        {
          response: {
            content: [
              { type: "tool_use", id: "toolu_a", name: "Skill", input: { skill: "greet", args: "A" } },
              { type: "tool_use", id: "toolu_b", name: "Skill", input: { skill: "legacy", args: "B" } },
            ],
          },
        },
        textTurn("ok"),
      ],
    });
    await h.send("both");
    const dir = join(h.cwd, ".claude", "skills", "greet");
    expect(plainBlocks(lastUser(h.body(1)).content)).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_a",
        content: [{ type: "text", text: "Launching skill: greet" }],
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_b",
        content: [{ type: "text", text: "Launching skill: legacy" }],
      },
      {
        type: "text",
        text: `Base directory for this skill: ${dir}\n\nHello A! First: A, second: $1.\nDir: ${dir}\n`,
      },
      { type: "text", text: "Legacy body B\n" },
    ]);
  });
});
