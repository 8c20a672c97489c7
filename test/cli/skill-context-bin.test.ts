/**
 * Expiring skill context through the shipped bin (issue 31 item 1): a four-turn `--input-format stream-json`
 * session (`node dist/bin/main.js`) against the scripted model server, judged on the recorded request bodies.
 */
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { prefixBreaks } from "../support/prefix-breaks.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

interface Body {
  system?: unknown;
  tools?: unknown;
  messages: { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
}

/** A 20 KB skill body with markers at both ends. */
const BIG_BODY = `BIG-START\n${"Check each release note against the changelog, line by line.\n".repeat(330)}BIG-END\n`;
const STUB = "Skill big was used earlier; call it again if you need its instructions.";

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({
    "home/.keep": "",
    "project/.git": { dir: true },
    "project/.claude/skills/big/SKILL.md": `---\ndescription: Release checklist\nttl-turns: 1\n---\n${BIG_BODY}`,
    "project/.claude/skills/notes/SKILL.md": "---\ndescription: Notes\n---\nNOTES-BODY\n",
    "settings-home/.claude/settings.json": JSON.stringify({ skillContext: { expireAfterUserTurns: 0 } }),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** Runs the bin with one JSON line per prompt on stdin; resolves with the recorded main request bodies. */
async function session(prompts: string[], home: string): Promise<{ bodies: Body[]; stdout: string }> {
  const input = `${prompts.map((p) => JSON.stringify({ type: "user", message: { role: "user", content: p } })).join("\n")}\n`;
  const result = await execa(
    process.execPath,
    [
      BIN,
      "-p",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      "--cwd",
      tree.path("project"),
      "--home",
      tree.path(home),
    ],
    {
      env: {
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model?.server.url ?? "",
      },
      extendEnv: true,
      reject: false,
      timeout: 60_000,
      input,
    },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  const bodies = (model?.server.requests ?? [])
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as Body);
  return { bodies, stdout: result.stdout };
}

/** Every text of a body's messages (text blocks and tool results), joined. */
function allText(body: Body | undefined): string {
  return JSON.stringify(body?.messages ?? []);
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("expiring skill context (skillwright -p --input-format stream-json)", () => {
  it("a 20 KB skill with ttl-turns: 1 is a stub in turns 3 and 4, one prefix break; a re-invocation restores it", async () => {
    model = await startTestModel([
      toolTurn("Skill", { skill: "big" }, { match: { lastUserTextIncludes: "prepare the release" } }),
      textTurn("Checklist loaded.", { toolResultIncludes: "Launching skill: big" }),
      textTurn("Second answer.", { lastUserTextIncludes: "turn two" }),
      textTurn("Third answer.", { lastUserTextIncludes: "turn three" }),
      toolTurn("Skill", { skill: "big" }, { match: { lastUserTextIncludes: "turn four" } }),
      textTurn("Fourth answer.", { toolResultIncludes: "Launching skill: big" }),
    ]);
    const { bodies, stdout } = await session(
      ["prepare the release", "turn two", "turn three", "turn four"],
      "home",
    );
    expect(stdout.split("\n").filter((l) => l.includes('"type":"result"'))).toHaveLength(4);
    expect(Buffer.byteLength(BIG_BODY)).toBeGreaterThan(20_000);
    // Requests: 1 prompt, 2 the skill's result, 3 turn two, 4 turn three, 5 turn four, 6 the re-invocation.
    expect(bodies).toHaveLength(6);
    expect(bodies.map((b) => count(allText(b), "BIG-START"))).toEqual([0, 1, 1, 0, 0, 1]);
    expect(bodies.map((b) => count(allText(b), STUB))).toEqual([0, 0, 0, 1, 1, 1]);
    // The re-invocation sends the whole body again, never the already-loaded marker.
    expect(JSON.stringify(bodies[5]?.messages.at(-1))).toContain("BIG-END");
    expect(allText(bodies[5])).not.toContain("already loaded");
    expect(prefixBreaks(bodies)).toEqual([4]);
    expect(new Set(bodies.map((b) => JSON.stringify([b.system, b.tools]))).size).toBe(1);
  });

  it("settings skillContext.expireAfterUserTurns is the default for skills without ttl-turns", async () => {
    model = await startTestModel([
      toolTurn("Skill", { skill: "notes" }, { match: { lastUserTextIncludes: "take notes" } }),
      textTurn("Noted.", { toolResultIncludes: "Launching skill: notes" }),
      textTurn("Later.", { lastUserTextIncludes: "later" }),
    ]);
    const { bodies } = await session(["take notes", "later"], "settings-home");
    expect(bodies.map((b) => count(allText(b), "NOTES-BODY"))).toEqual([0, 1, 0]);
    expect(count(allText(bodies[2]), "Skill notes was used earlier")).toBe(1);
    expect(prefixBreaks(bodies)).toEqual([3]);
  });
});
