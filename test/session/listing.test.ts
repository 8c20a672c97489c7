import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BodyBlock,
  FIXED_NOW,
  type Harness,
  type HarnessOptions,
  INIT_ENTRY,
  lastUser,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const HEADER = "The following skills are available for use with the Skill tool:";

/** user: alpha, greet (alias hello); project: deploy, hidden (not model-invocable), cond (conditional); ops:release. */
const TREE: Record<string, TreeEntry> = {
  "home/.claude/skills/greet/SKILL.md": skillMd(
    "name: hello\ndescription: Greets people",
    "Say hello to $0.",
  ),
  "home/.claude/skills/alpha/SKILL.md": skillMd("description: First\nwhen_to_use: when starting", "Alpha."),
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "Deploy."),
  "project/.claude/skills/hidden/SKILL.md": skillMd(
    "description: Secret\ndisable-model-invocation: true",
    "Hidden.",
  ),
  "project/.claude/skills/cond/SKILL.md": skillMd('description: Python helper\npaths: "*.py"', "Py."),
  "project/.claude/commands/ops/release.md": skillMd("description: Cuts a release", "Release."),
  "project/src/a.py": "print(1)\n",
};

const FULL_LISTING = [
  "<system-reminder>",
  HEADER,
  "",
  "- alpha: First - when starting",
  "- greet (hello): Greets people",
  "- deploy: Deploys the app",
  "- ops:release: Cuts a release",
  INIT_ENTRY,
  "</system-reminder>",
].join("\n");

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(options: Partial<HarnessOptions> & Pick<HarnessOptions, "turns">): Promise<Harness> {
  h = await startHarness({ files: TREE, ...options });
  return h;
}

function listingBlocks(texts: readonly string[]): string[] {
  return texts.filter((t) => t.includes(HEADER));
}

describe("the listing (SPEC §3)", () => {
  it("opens the first user message, byte-exact, before the prompt; never in the system prompt", async () => {
    const s = await start({ turns: [textTurn("hello")] });
    await s.send("hi there");
    const first = s.body(0);
    expect(first.messages).toHaveLength(1);
    expect(plainBlocks(lastUser(s.body(0)).content)).toEqual([
      { type: "text", text: FULL_LISTING },
      { type: "text", text: "hi there" },
    ]);
    const system = JSON.stringify(first.system);
    expect(system).not.toContain(HEADER);
    expect(system).not.toContain("Deploys the app");
  });

  it("is sent once per session: later requests and later sends carry no listing; system and tools stay identical", async () => {
    const s = await start({
      turns: [toolTurn("Bash", { command: "echo hi" }), textTurn("one"), textTurn("two")],
      session: { allowedTools: ["Bash(echo:*)"] },
    });
    await s.send("first");
    await s.send("second");
    const bodies = s.bodies();
    expect(bodies).toHaveLength(3);
    // The last body holds the whole conversation: exactly one listing in it, in the first message.
    const last = s.body(2);
    const all = last.messages.flatMap((m) => listingBlocks(textBlocks(m.content)));
    expect(all).toEqual([FULL_LISTING]);
    expect(listingBlocks(textBlocks(last.messages[0]?.content ?? ""))).toEqual([FULL_LISTING]);
    expect(plainBlocks(lastUser(last).content)).toEqual([{ type: "text", text: "second" }]);
    const fixed = bodies.map((b) => JSON.stringify([b.system, b.tools]));
    expect(new Set(fixed).size).toBe(1);
  });

  it.each(["SKILLWRIGHT_LISTING_BUDGET", "SLASH_COMMAND_TOOL_CHAR_BUDGET"])(
    "%s at exactly the name-only lines lists every skill by name only and ends with the marker line",
    async (variable) => {
      // Name-only lines: 7 + 15 + 8 + 13 chars + 3 newlines = 46; the built-in init keeps its full line.
      const budget = String(46 + 1 + INIT_ENTRY.length);
      const s = await start({ turns: [textTurn("ok")], env: { [variable]: budget } });
      await s.send("hi");
      const [block] = textBlocks(lastUser(s.body(0)).content);
      expect(block).toBe(
        [
          "<system-reminder>",
          HEADER,
          "",
          "- alpha",
          "- greet (hello)",
          "- deploy",
          "- ops:release",
          INIT_ENTRY,
          "",
          "(4 skills above are listed by name only to fit the listing budget; the Skill tool still accepts them.)",
          "</system-reminder>",
        ].join("\n"),
      );
    },
  );

  it("a budget below the names leaves them out, says how many, and offers SkillSearch (SPEC §3, §14.15)", async () => {
    const s = await start({ turns: [textTurn("ok")], env: { SKILLWRIGHT_LISTING_BUDGET: "0" } });
    await s.send("hi");
    const [block] = textBlocks(lastUser(s.body(0)).content);
    expect(block).toBe(
      [
        "<system-reminder>",
        HEADER,
        "",
        INIT_ENTRY,
        "",
        "(4 more skills are not listed to fit the listing budget: find them with the SkillSearch tool. The Skill tool accepts every skill, listed or not.)",
        "</system-reminder>",
      ].join("\n"),
    );
    expect(s.body(0).tools?.map((t) => t.name)).toContain("SkillSearch");
  });

  it("the settings' skillListingBudget sets the budget too", async () => {
    const s = await start({
      files: {
        ...TREE,
        "project/.claude/settings.json": JSON.stringify({ skillListingBudget: 46 + 1 + INIT_ENTRY.length }),
      },
      turns: [textTurn("ok")],
    });
    await s.send("hi");
    const [block] = textBlocks(lastUser(s.body(0)).content);
    expect(block).toContain(
      `\n- alpha\n- greet (hello)\n- deploy\n- ops:release\n${INIT_ENTRY}\n\n(4 skills`,
    );
  });

  it("over budget, the most used skill (from ~/.skillwright/usage.json) gets its description first", async () => {
    // Name-only lines: 7 + 15 + 8 + 13 chars + 3 newlines = 46; deploy's description adds 17. The built-in
    // init keeps its full line (bundled) and its newline.
    const usage = JSON.stringify({ deploy: { count: 3, lastUsedAt: FIXED_NOW } });
    const s = await start({
      files: { ...TREE, "home/.skillwright/usage.json": usage },
      turns: [textTurn("ok")],
      env: { SKILLWRIGHT_LISTING_BUDGET: String(63 + INIT_ENTRY.length + 1) },
    });
    await s.send("hi");
    const [block] = textBlocks(lastUser(s.body(0)).content);
    expect(block).toContain(
      `\n- alpha\n- greet (hello)\n- deploy: Deploys the app\n- ops:release\n${INIT_ENTRY}\n\n(3 skills`,
    );
  });

  it("records usage in ~/.skillwright/usage.json when a skill is invoked", async () => {
    const s = await start({ turns: [toolTurn("Skill", { skill: "deploy" }), textTurn("done")] });
    await s.send("ship it");
    const text = await readFile(join(s.home, ".skillwright", "usage.json"), "utf8");
    expect(JSON.parse(text)).toEqual({ deploy: { count: 1, lastUsedAt: FIXED_NOW, triggers: { model: 1 } } });
  });

  it("usage accumulates across invocations, by the user's /name too", async () => {
    const s = await start({
      files: { ...TREE, "home/.skillwright/usage.json": "not json" },
      turns: [toolTurn("Skill", { skill: "deploy" }), textTurn("done"), textTurn("again")],
    });
    await s.send("ship it");
    await s.send("/deploy now");
    const text = await readFile(join(s.home, ".skillwright", "usage.json"), "utf8");
    expect(JSON.parse(text)).toEqual({
      deploy: { count: 2, lastUsedAt: FIXED_NOW, triggers: { model: 1, user: 1 } },
    });
  });

  it("announces a conditional skill in the next request once a tool reads a matching file", async () => {
    const s = await start({
      turns: [toolTurn("Read", { path: "src/a.py" }), textTurn("read"), textTurn("later")],
    });
    await s.send("look at the source");
    const blocks = plainBlocks(lastUser(s.body(1)).content);
    expect(blocks[0]?.type).toBe("tool_result");
    expect(blocks.slice(1)).toEqual([
      { type: "text", text: `<system-reminder>\n${HEADER}\n\n- cond: Python helper\n</system-reminder>` },
    ]);
    await s.send("more");
    expect(listingBlocks(textBlocks(lastUser(s.body(2)).content))).toEqual([]);
  });

  it("an un-activated conditional skill is neither listed nor invocable", async () => {
    const s = await start({
      turns: [toolTurn("Skill", { skill: "cond" }), textTurn("no")],
    });
    await s.send("use cond");
    const [result] = toolResults(s.body(1));
    expect(result?.is_error).toBe(true);
    expect(resultText(result as BodyBlock)).toBe("<tool_use_error>Unknown skill: cond</tool_use_error>");
  });
});
