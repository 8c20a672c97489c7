import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import {
  type Harness,
  LISTING_HEADER,
  type RequestBody,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const MAIN = { agentId: null } as const;
const SUB = { agentId: "*" } as const;

const FILES = {
  "project/notes.txt": "some notes\n",
  "project/app.py": "print('hi')\n",
  "project/.claude/skills/tooled/SKILL.md": skillMd(
    "description: Echoes with care\nallowed-tools: Bash(echo:*)\ndisallowed-tools: Write",
    "Tooled body.",
  ),
  "project/.claude/skills/forked/SKILL.md": skillMd("description: Forked task\ncontext: fork", "FORK-TASK"),
  "project/.claude/skills/cond/SKILL.md": skillMd('description: Python helper\npaths: "*.py"', "Py body."),
};

/** The user turns of a long session and the model's scripted replies: 22 main-agent requests and a fork. */
const PROMPTS = ["tooled", "fork", "python", "more 1", "more 2", "more 3", "more 4", "more 5"];
const TURNS: ScriptTurnInput[] = [
  // tooled: an inline skill with allowed-tools and disallowed-tools
  toolTurn("Read", { file_path: "notes.txt" }, { match: MAIN }),
  toolTurn("Skill", { skill: "tooled" }, { match: MAIN }),
  toolTurn("Write", { file_path: "out.txt", content: "x" }, { match: MAIN }),
  toolTurn("Bash", { command: "echo granted > granted.txt" }, { match: MAIN }),
  textTurn("done tooled", MAIN),
  // fork: a context: fork skill whose sub-agent makes two requests
  toolTurn("Skill", { skill: "forked" }, { match: MAIN }),
  toolTurn("Read", { file_path: "notes.txt" }, { match: SUB }),
  textTurn("fork done", SUB),
  textTurn("done fork", MAIN),
  // python: reading app.py activates the conditional skill, which arrives as a delta; then it is called
  toolTurn("Read", { file_path: "app.py" }, { match: MAIN }),
  toolTurn("Skill", { skill: "cond" }, { match: MAIN }),
  textTurn("done python", MAIN),
  // five more user turns of two requests each
  ...[1, 2, 3, 4, 5].flatMap((n) => [
    toolTurn(n % 2 === 0 ? "LS" : "Glob", n % 2 === 0 ? {} : { pattern: "*.txt" }, { match: MAIN }),
    textTurn(`done more ${n}`, MAIN),
  ]),
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const prefixOf = (body: RequestBody) => ({
  system: JSON.stringify(body.system),
  tools: JSON.stringify(body.tools),
});

describe("a fixed prompt prefix (skill listing in the system prompt)", () => {
  it("system and tools are byte-identical on every request of a long session", async () => {
    h = await startHarness({
      files: FILES,
      turns: TURNS,
      session: { skillListing: "system", allowedTools: ["Skill"] },
    });
    for (const prompt of PROMPTS) await h.send(prompt);

    const bodies = h.bodies();
    expect(bodies.length).toBeGreaterThanOrEqual(20);
    const first = prefixOf(bodies[0] as RequestBody);
    for (const [i, body] of bodies.entries()) expect(prefixOf(body), `request ${i}`).toEqual(first);

    // The listing is in the system prompt, once; the first message holds none.
    const system = (bodies[0]?.system ?? []).map((b) => b.text).join("");
    expect(system).toContain("<available_skills>\n<skill>\n");
    expect(system).toContain("<name>\ntooled\n</name>");
    expect(system).toContain("<name>\nforked\n</name>");
    expect(system).not.toContain("<name>\ncond\n</name>");
    const firstUser = bodies[0]?.messages[0]?.content ?? "";
    expect(textBlocks(firstUser).some((t) => t.includes(LISTING_HEADER))).toBe(false);

    // The Write call under the skill's disallowed-tools was refused by name; the granted echo ran.
    const refused = toolResults(bodies[3] as RequestBody)[0];
    expect(refused?.is_error).toBe(true);
    expect(resultText(refused)).toContain('the skill "tooled" disallows it');
    // Writing a file with echo needs the skill's allowed-tools grant (headless: no one to ask otherwise).
    expect(toolResults(bodies[4] as RequestBody)[0]?.is_error).toBeUndefined();
    expect(await readFile(join(h.cwd, "granted.txt"), "utf8")).toBe("granted\n");

    // The conditional skill arrived later as a message delta, and was callable.
    const delta = bodies.flatMap((b) => b.messages.flatMap((m) => textBlocks(m.content)));
    expect(delta.some((t) => t.includes(LISTING_HEADER) && t.includes("- cond: Python helper"))).toBe(true);
    const condCall = bodies.find((b) =>
      toolResults(b).some((r) => resultText(r).includes("Launching skill: cond")),
    );
    expect(condCall).toBeDefined();

    // The fork's own requests also keep their prefix.
    const forks = h.forkRequests().map((r) => prefixOf(r.body as RequestBody));
    expect(forks).toHaveLength(2);
    expect(forks[1]).toEqual(forks[0]);
  });

  it("the deprecated option name skillCatalog still puts the listing in the system prompt", async () => {
    h = await startHarness({
      files: FILES,
      turns: [textTurn("hi", MAIN)],
      session: { skillCatalog: "system" },
    });
    await h.send("hello");
    const body = h.body(0);
    expect((body.system ?? []).map((b) => b.text).join("")).toContain("<name>\ntooled\n</name>");
    expect(textBlocks(body.messages[0]?.content ?? "").some((t) => t.includes(LISTING_HEADER))).toBe(false);
  });

  it("default mode: the listing is a <system-reminder> and the system prompt has none", async () => {
    h = await startHarness({ files: FILES, turns: [textTurn("hi", MAIN)] });
    await h.send("hello");
    const body = h.body(0);
    const system = (body.system ?? []).map((b) => b.text).join("");
    expect(system).not.toContain("<available_skills>\n");
    expect(
      textBlocks(body.messages[0]?.content ?? "").some((t) => t.includes("- tooled: Echoes with care")),
    ).toBe(true);
  });
});
