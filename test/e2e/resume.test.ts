import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  INIT_ENTRY,
  LISTING_HEADER,
  lastUser,
  listingBlock,
  plainBlocks,
  type RequestBody,
  resultText,
  sendOn,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "ROOT-DEPLOY"),
  "project/.claude/skills/ts-style/SKILL.md": skillMd(
    'description: TypeScript house style\npaths: "src/**/*.ts"',
    "TS-STYLE",
  ),
  "project/.claude/skills/py-style/SKILL.md": skillMd('description: Python style\npaths: "*.py"', "PY"),
  "project/src/a.ts": "export const a = 1;\n",
  "project/packages/web/.claude/skills/web-build/SKILL.md": skillMd("description: Builds web", "WEB-BUILD"),
  "project/packages/web/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys web", "WEB-DEPLOY"),
  "project/packages/web/x.ts": "export const x = 1;\n",
};

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

function listingsIn(body: RequestBody): string[] {
  return body.messages.flatMap((m) => textBlocks(m.content)).filter((t) => t.includes(LISTING_HEADER));
}

describe("--resume keeps what the stored conversation was told (SPEC §3, §8, §9)", () => {
  it("does not send the listing again: the stored first message holds it", async () => {
    e = await startHarness({ files: TREE, turns: [textTurn("one"), textTurn("two")] });
    await e.send("hello");
    const resumed = await e.reopen({ resume: e.opened.session.id });
    await sendOn(resumed, "again");
    const body = e.body(1);
    expect(listingsIn(body)).toEqual([listingBlock("- deploy: Deploys the app", INIT_ENTRY)]);
    expect(plainBlocks(lastUser(body).content)).toEqual([{ type: "text", text: "again" }]);
  });

  it("conditional skills activated and nested skills discovered before stay invocable after a resume", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Read", { path: "src/a.ts" }),
        toolTurn("Read", { path: "packages/web/x.ts" }),
        textTurn("read both"),
        toolTurn("Skill", { skill: "ts-style" }, { id: "toolu_ts" }),
        toolTurn("Skill", { skill: "web-build" }, { id: "toolu_web" }),
        toolTurn("Skill", { skill: "packages/web:deploy" }, { id: "toolu_web_deploy" }),
        toolTurn("Skill", { skill: "py-style" }, { id: "toolu_py" }),
        textTurn("done"),
      ],
    });
    await e.send("read the code");
    const resumed = await e.reopen({ resume: e.opened.session.id });
    await sendOn(resumed, "now use the skills");
    const first = e.body(3);
    // Nothing is announced again in the resumed session's first request.
    expect(plainBlocks(lastUser(first).content)).toEqual([{ type: "text", text: "now use the skills" }]);
    expect(resultText(toolResults(e.body(4))[0] ?? { type: "x" })).toBe("Launching skill: ts-style");
    expect(resultText(toolResults(e.body(5))[0] ?? { type: "x" })).toBe("Launching skill: web-build");
    expect(resultText(toolResults(e.body(6))[0] ?? { type: "x" })).toBe(
      "Launching skill: packages/web:deploy",
    );
    expect(textBlocks(lastUser(e.body(6)).content).join("\n")).toContain("WEB-DEPLOY");
    // A conditional skill never announced stays hidden.
    expect(resultText(toolResults(e.body(7))[0] ?? { type: "x" })).toMatch(
      /^<tool_use_error>Unknown skill: py-style\b/,
    );
  });

  it("hooks registered by a skill invoked before stay active after a resume", async () => {
    const guard = skillMd(
      [
        "description: Guards the shell",
        "hooks:",
        "  PreToolUse:",
        "    - matcher: Bash",
        "      hooks:",
        "        - type: command",
        "          command: \"echo 'guarded by the skill' >&2; exit 2\"",
      ].join("\n"),
      "Guarding.",
    );
    e = await startHarness({
      files: { ...TREE, "project/.claude/skills/guard/SKILL.md": guard },
      turns: [
        toolTurn("Skill", { skill: "guard" }),
        textTurn("guarded"),
        toolTurn("Bash", { command: "echo hi > ran.txt" }),
        textTurn("blocked"),
      ],
      session: { allowedTools: ["Skill(guard)", "Bash(echo:*)"] },
    });
    await e.send("guard the shell");
    const resumed = await e.reopen({ resume: e.opened.session.id });
    await sendOn(resumed, "write a file");
    const [result] = toolResults(e.body(3));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toContain("guarded by the skill");
  });
});
