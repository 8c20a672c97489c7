/**
 * Audit of SPEC §1, §3, §4 and §6 rules end to end (file on disk → listing the model sees → Skill tool / typed
 * `/name`). Most of these were tested only as pure functions (schema, listingDescription, parseSlashCommand);
 * here each rule is checked where a skill author meets it.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  INIT_ENTRY,
  LISTING_HEADER,
  lastUser,
  listingBlock,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { tmpTree } from "../support/tmp-tree.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

const FILES = {
  "project/.claude/skills/MySkill/SKILL.md": skillMd("description: Mixed case dir", "MIXED"),
  "project/.claude/skills/aliased/SKILL.md": skillMd(
    "name: nick\ndescription: Has an alias",
    "ALIASED $ARGUMENTS",
  ),
  "project/.claude/skills/same/SKILL.md": skillMd("name: same\ndescription: Alias equal to dir", "SAME"),
  "project/.claude/skills/colon/SKILL.md": "---\ndescription: foo: bar\n---\nCOLON\n",
  "project/.claude/skills/headed/SKILL.md": "# Heading text here\n\nbody\n",
  "project/.claude/skills/empty/SKILL.md": "",
  "project/.claude/skills/when/SKILL.md": skillMd("description: Does it\nwhen_to_use: when asked", "WHEN"),
  "project/.claude/skills/multi/SKILL.md": skillMd("description: |\n  line one\n  line two", "MULTI"),
  "project/.claude/skills/hidden-yes/SKILL.md": skillMd(
    "description: hidden\ndisable-model-invocation: YES",
    "HY",
  ),
  "project/.claude/skills/noslash/SKILL.md": skillMd(
    "name: quiet\ndescription: model only\nuser-invocable: Off",
    "NS",
  ),
  "project/.claude/skills/pos/SKILL.md": skillMd(
    "description: positional",
    "A0=$ARGUMENTS[0] A1=$1 RAW=$ARGUMENTS",
  ),
  "project/.claude/skills/named/SKILL.md": skillMd(
    "description: named args\narguments: [file, line]",
    "FILE=$file LINE=$line",
  ),
  "project/.claude/commands/ns/sub.md":
    "---\ndescription: nested command\nname: ignored\n---\nSUB $ARGUMENTS\n",
  "project/.claude/commands/top.md": "Top command first line\n\nTOP\n",
};

const listingIn = (t: Harness, index: number) =>
  textBlocks(lastUser(t.body(index)).content).find((x) => x.includes(LISTING_HEADER)) ?? "";

describe("what the listing shows for each §1 field (SPEC §1, §3)", () => {
  it("names, aliases, description fallbacks, when_to_use, collapsed newlines, hidden skills", async () => {
    e = await startHarness({ files: FILES, turns: [textTurn("ok")] });
    await e.send("hi");
    const lines = listingIn(e, 0)
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(lines).toContain("- MySkill: Mixed case dir");
    expect(lines).toContain("- aliased (nick): Has an alias");
    expect(lines).toContain("- same: Alias equal to dir");
    expect(lines).toContain("- colon: foo: bar");
    expect(lines).toContain("- headed: Heading text here");
    expect(lines).toContain("- empty: Skill");
    expect(lines).toContain("- when: Does it - when asked");
    expect(lines).toContain("- multi: line one line two");
    expect(lines).toContain("- noslash (quiet): model only");
    expect(lines).toContain("- ns:sub: nested command");
    expect(lines).toContain("- top: Top command first line");
    expect(lines.some((l) => l.startsWith("- hidden-yes"))).toBe(false);
  });
});

describe("invocation by every name a skill answers to (SPEC §1 name, §4, §6)", () => {
  it("the Skill tool accepts the dir name and the alias; names are case-sensitive", async () => {
    e = await startHarness({
      files: FILES,
      turns: [
        {
          response: {
            content: [
              { type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: "nick", args: "x" } },
              { type: "tool_use", id: "toolu_2", name: "Skill", input: { skill: "MySkill" } },
              { type: "tool_use", id: "toolu_3", name: "Skill", input: { skill: "myskill" } },
            ],
          },
        },
        textTurn("ok", { hasToolResultFor: "Skill" }),
      ],
    });
    await e.send("go");
    const results = toolResults(e.body(1));
    // The launch text names the skill as called (SPEC §14.4).
    expect(resultText(results[0] ?? { type: "x" })).toBe("Launching skill: nick");
    expect(resultText(results[1] ?? { type: "x" })).toBe("Launching skill: MySkill");
    expect(results[2]?.is_error).toBe(true);
    expect(resultText(results[2] ?? { type: "x" })).toBe(
      "<tool_use_error>Unknown skill: myskill. Did you mean MySkill?</tool_use_error>",
    );
  });

  it("a typed /alias expands the aliased skill", async () => {
    e = await startHarness({ files: FILES, turns: [textTurn("ok")] });
    await e.send("/nick hello");
    const texts = textBlocks(lastUser(e.body(0)).content);
    expect(texts.some((t) => t.endsWith("ALIASED hello"))).toBe(true);
  });

  it("user-invocable: Off refuses a typed /quiet (the alias) as well as /noslash, with no model request", async () => {
    e = await startHarness({ files: FILES, turns: [textTurn("never")] });
    for (const typed of ["/noslash", "/quiet"]) {
      const events = await e.send(typed);
      const done = events.findLast((ev) => ev.type === "done");
      expect(done?.type === "done" && done.result.text).toBe(
        `This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "${typed.slice(1)}" skill for you.`,
      );
    }
    expect(e.bodies()).toHaveLength(0);
  });

  it("a nested legacy command is typed as /ns:sub; its name: is ignored and it has no Base directory line", async () => {
    e = await startHarness({ files: FILES, turns: [textTurn("ok")] });
    await e.send("/ns:sub a b");
    const texts = textBlocks(lastUser(e.body(0)).content);
    expect(texts).toContain(
      "<command-message>ns:sub</command-message>\n<command-name>/ns:sub</command-name>\n<command-args>a b</command-args>\n",
    );
    expect(texts).toContain("SUB a b\n");
  });

  it("disable-model-invocation: YES is refused on the Skill tool with the SPEC text", async () => {
    e = await startHarness({
      files: FILES,
      turns: [toolTurn("Skill", { skill: "hidden-yes" }), textTurn("ok", { hasToolResultFor: "Skill" })],
    });
    await e.send("go");
    expect(resultText(toolResults(e.body(1))[0] ?? { type: "x" })).toBe(
      "<tool_use_error>Skill hidden-yes cannot be used with Skill tool due to disable-model-invocation. Ask the " +
        "user to run /hidden-yes themselves — it cannot be invoked via the Skill tool. Do not replicate this " +
        "skill's workflow by other means — it is reserved for explicit user invocation.</tool_use_error>",
    );
  });
});

describe("argument substitution as the model sends it (SPEC §5 table)", () => {
  const expansionFor = async (skill: string, args: string) => {
    e = await startHarness({
      files: FILES,
      turns: [toolTurn("Skill", { skill, args }), textTurn("ok", { hasToolResultFor: "Skill" })],
    });
    await e.send("go");
    const texts = textBlocks(lastUser(e.body(1)).content);
    return texts.at(-1) ?? "";
  };

  it('$ARGUMENTS[N] and $N are shell-split, 0-based: `"a b" c`', async () => {
    expect(await expansionFor("pos", '"a b" c')).toMatch(/A0=a b A1=c RAW="a b" c$/);
  });

  it("arguments: [file, line] names the positional args; a missing one is empty", async () => {
    expect(await expansionFor("named", "src/a.ts")).toMatch(/FILE=src\/a\.ts LINE=$/);
  });

  it("args with no placeholder are appended as ARGUMENTS:", async () => {
    expect(await expansionFor("MySkill", "extra bits")).toMatch(/MIXED\n\nARGUMENTS: extra bits$/);
  });
});

describe("lenient frontmatter reaches activation (SPEC §1 lenient parser, §9)", () => {
  it("an unquoted `paths: *.ts` (invalid YAML) is the glob *.ts, matching at any depth", async () => {
    e = await startHarness({
      files: {
        "project/deep/er/x.ts": "export {};\n",
        "project/.claude/skills/unq/SKILL.md": "---\ndescription: Unquoted glob\npaths: *.ts\n---\nUNQ\n",
      },
      turns: [
        toolTurn("Read", { path: "deep/er/x.ts" }),
        toolTurn("Skill", { skill: "unq" }, { match: { hasToolResultFor: "Read" } }),
        textTurn("ok", { hasToolResultFor: "Skill" }),
      ],
    });
    await e.send("go");
    expect(listingIn(e, 0)).toBe(listingBlock(INIT_ENTRY));
    expect(textBlocks(lastUser(e.body(1)).content).join("\n")).toContain("- unq: Unquoted glob");
    expect(resultText(toolResults(e.body(2))[0] ?? { type: "x" })).toBe("Launching skill: unq");
  });
});

describe("over budget, bundled skills keep their text (SPEC §3)", () => {
  it("with a budget of 0 every file skill is left out but the bundled one is in full", async () => {
    const bundled = await tmpTree({ "bund/SKILL.md": skillMd("description: Bundled skill", "B") });
    try {
      e = await startHarness({
        files: { "project/.claude/skills/proj/SKILL.md": skillMd("description: Project skill", "P") },
        turns: [textTurn("ok")],
        env: { SKILLWRIGHT_LISTING_BUDGET: "0" },
        engine: { bundledDir: bundled.root },
      });
      await e.send("hi");
    } finally {
      await bundled.cleanup();
    }
    const lines = listingIn(e, 0).split("\n");
    expect(lines).not.toContain("- proj");
    expect(lines).toContain("- bund: Bundled skill");
    expect(lines.at(-2)).toBe(
      "(1 more skill is not listed to fit the listing budget: find it with the SkillSearch tool. The Skill tool accepts every skill, listed or not.)",
    );
  });
});
