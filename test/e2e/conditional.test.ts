import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  type HarnessOptions,
  INIT_ENTRY,
  lastUser,
  listingBlock,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "Deploy."),
  "project/.claude/skills/ts-style/SKILL.md": skillMd(
    'description: TypeScript house style\nwhen_to_use: when editing .ts files\npaths: "src/**/*.ts"',
    "Use named exports. Args: $ARGUMENTS",
  ),
  "project/src/a.ts": "export const a = 1;\n",
  "project/docs/readme.md": "# docs\n",
};

const TS_ENTRY = "- ts-style: TypeScript house style - when editing .ts files";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

async function start(options: Omit<HarnessOptions, "files">): Promise<Harness> {
  e = await startHarness({ files: TREE, ...options });
  return e;
}

describe("conditional skills in a session (SPEC §9)", () => {
  it("a Skill call before the Read is Unknown skill; the Read announces a byte-exact delta; then it works", async () => {
    const s = await start({
      turns: [
        toolTurn("Skill", { skill: "ts-style" }, { id: "toolu_early" }),
        toolTurn("Read", { path: "src/a.ts" }, { id: "toolu_read" }),
        toolTurn("Skill", { skill: "ts-style", args: "strict" }, { id: "toolu_late" }),
        textTurn("done"),
      ],
    });
    await s.send("tidy the code");
    // The first request lists only the unconditional skill.
    expect(textBlocks(lastUser(s.body(0)).content)[0]).toBe(
      listingBlock("- deploy: Deploys the app", INIT_ENTRY),
    );
    // Before the Read: unknown.
    const [early] = toolResults(s.body(1));
    expect(early?.is_error).toBe(true);
    expect(early && resultText(early)).toBe("<tool_use_error>Unknown skill: ts-style</tool_use_error>");
    expect(JSON.stringify(s.body(1))).not.toContain("ts-style: TypeScript");
    // After the Read: the next request carries the delta right after the tool_result, byte-exact.
    const afterRead = plainBlocks(lastUser(s.body(2)).content);
    expect(afterRead[0]?.type).toBe("tool_result");
    expect(afterRead.slice(1)).toEqual([{ type: "text", text: listingBlock(TS_ENTRY) }]);
    // And it is invocable now.
    const [late] = toolResults(s.body(3));
    expect(late?.is_error).toBeFalsy();
    expect(late && resultText(late)).toBe("Launching skill: ts-style");
    const texts = textBlocks(lastUser(s.body(3)).content);
    expect(texts).toContain(
      `Base directory for this skill: ${s.tree.path("project/.claude/skills/ts-style")}\n\nUse named exports. Args: strict`,
    );
    // Announced once: no later request repeats the delta.
    expect(texts.some((t) => t.includes(TS_ENTRY))).toBe(false);
  });

  it("a Read of a file that does not match activates nothing", async () => {
    const s = await start({
      turns: [
        toolTurn("Read", { path: "docs/readme.md" }),
        toolTurn("Skill", { skill: "ts-style" }),
        textTurn("x"),
      ],
    });
    await s.send("read the docs");
    expect(textBlocks(lastUser(s.body(1)).content)).toEqual([]);
    const [result] = toolResults(s.body(2));
    expect(result && resultText(result)).toBe("<tool_use_error>Unknown skill: ts-style</tool_use_error>");
  });

  it("a file found by Glob activates it too", async () => {
    const s = await start({
      turns: [
        toolTurn("Glob", { pattern: "**/*.ts" }),
        toolTurn("Skill", { skill: "ts-style" }),
        textTurn("x"),
      ],
    });
    await s.send("find the sources");
    expect(textBlocks(lastUser(s.body(1)).content)).toEqual([listingBlock(TS_ENTRY)]);
    const [result] = toolResults(s.body(2));
    expect(result && resultText(result)).toBe("Launching skill: ts-style");
  });

  it("an @src/a.ts mention in the prompt activates it for the first request", async () => {
    const s = await start({
      turns: [toolTurn("Skill", { skill: "ts-style" }), textTurn("styled")],
    });
    await s.send("please tidy @src/a.ts.");
    expect(plainBlocks(lastUser(s.body(0)).content)).toEqual([
      { type: "text", text: listingBlock("- deploy: Deploys the app", TS_ENTRY, INIT_ENTRY) },
      { type: "text", text: "please tidy @src/a.ts." },
    ]);
    const [result] = toolResults(s.body(1));
    expect(result && resultText(result)).toBe("Launching skill: ts-style");
  });

  it("a user's /ts-style before activation is an unknown command; after a mention it expands", async () => {
    const s = await start({ turns: [textTurn("unknown"), textTurn("expanded")] });
    await s.send("/ts-style now");
    expect(JSON.stringify(lastUser(s.body(0)).content)).not.toContain("Use named exports");
    await s.send("/ts-style @src/a.ts");
    const texts = textBlocks(lastUser(s.body(1)).content);
    expect(texts).toContain(listingBlock(TS_ENTRY));
    expect(texts.some((t) => t.includes("Use named exports. Args: @src/a.ts"))).toBe(true);
  });
});
