// Listing deltas share the listing budget (SPEC §3): the full listing plus every delta sent since it stay within
// the budget together, so many activations in one conversation cannot grow the listing without bound. A delta
// that does not fit lists names only; with the SkillSearch tool it then leaves skills out with the "not listed"
// line pointing to it (they stay invocable). Without SkillSearch a skill left out could never be found, so every
// new skill keeps at least its name-only line, past the budget: only descriptions are bound by it.
// Real session, real files, scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import {
  type Harness,
  LISTING_HEADER,
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

const COUNT = 20;
const BUDGET = 420;
const OMITTED_LINE = "not listed to fit the listing budget";

/** `cN` is a conditional skill, activated when a tool reads a file under `dN/`. */
function conditionalTree(): Record<string, TreeEntry> {
  const files: Record<string, TreeEntry> = {
    "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "Deploy."),
  };
  for (let n = 1; n <= COUNT; n++) {
    files[`project/.claude/skills/c${n}/SKILL.md`] = skillMd(
      `description: Helper number ${n} for the files of folder d${n}\npaths: "d${n}/**"`,
      `Helper ${n}.`,
    );
    files[`project/d${n}/a.txt`] = `file ${n}\n`;
  }
  return files;
}

/**
 * Conditional skills never activated, with long names: they are never listed, but their names pass half the
 * budget, so the session gets the SkillSearch tool (the catalog could overflow the listing).
 */
function idleSkills(): Record<string, TreeEntry> {
  const files: Record<string, TreeEntry> = {};
  for (let n = 1; n <= 8; n++) {
    files[`project/.claude/skills/idle-helper-with-a-long-name-${n}/SKILL.md`] = skillMd(
      `description: Idle helper ${n}\npaths: "never/**"`,
      "Idle.",
    );
  }
  return files;
}

/** Every listing block the conversation of `body` holds (the full listing, then the deltas), in order. */
function listingBlocks(body: RequestBody): string[] {
  return body.messages
    .filter((m) => m.role === "user")
    .flatMap((m) => textBlocks(m.content))
    .filter((t) => t.startsWith(`<system-reminder>\n${LISTING_HEADER}\n\n`));
}

/**
 * The chars of a block as the budget counts them (SPEC §3): its entry lines joined with `⏎`, plus the
 * omitted-skills line and the blank line before it; the name-only note is not counted.
 */
function budgetChars(block: string): number {
  const lines = block.split("\n").slice(3, -1);
  const entries = lines.filter((l) => l.startsWith("- "));
  const omitted = lines.find((l) => l.includes(OMITTED_LINE));
  const entryChars = entries.join("\n").length;
  if (omitted === undefined) return entryChars;
  return entryChars + omitted.length + (entries.length > 0 ? 2 : 0);
}

/**
 * {@link budgetChars} summed over the blocks that hold a description: what the budget bounds when the session
 * has no SkillSearch (blocks of name-only lines for skills past the budget are left out of the sum).
 */
function describedChars(blocks: readonly string[]): number {
  const described = blocks.filter((b) => b.split("\n").some((l) => l.startsWith("- ") && l.includes(": ")));
  return described.reduce((sum, block) => sum + budgetChars(block), 0);
}

/** The blocks of a conversation that hold no description, only name-only lines. */
function nameOnlyBlocks(blocks: readonly string[]): string[] {
  return blocks.filter((b) => {
    const entries = b.split("\n").filter((l) => l.startsWith("- "));
    return entries.length > 0 && entries.every((l) => !l.includes(": "));
  });
}

/** An announcement's entries as a listing block (its list of names left out), for {@link budgetChars}. */
function announcementEntries(text: string): string {
  const lines = text.split("\n");
  return ["<system-reminder>", ...lines.slice(lines.indexOf(LISTING_HEADER))].join("\n");
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Over `files`, the model reads one file in each of the COUNT folders (each read activates that folder's skill),
 * then invokes the last skill; resolves to the last request's body.
 */
async function readEveryFolder(
  files: Record<string, TreeEntry>,
  session: { disallowedTools?: string[] } = {},
) {
  const reads: ScriptTurnInput[] = [];
  for (let n = 1; n <= COUNT; n++) reads.push(toolTurn("Read", { file_path: `d${n}/a.txt` }));
  h = await startHarness({
    files,
    env: { SKILLWRIGHT_LISTING_BUDGET: String(BUDGET) },
    session,
    turns: [
      ...reads,
      toolTurn("Skill", { skill: `c${COUNT}` }),
      textTurn("done", { hasToolResultFor: "Skill" }),
    ],
  });
  const events = await h.send("read every folder");
  expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "done" } });
  const last = h.bodies().at(-1);
  if (last === undefined) throw new Error("no request");
  return last;
}

describe("listing deltas within the budget (SPEC §3)", () => {
  it("with SkillSearch, the full listing plus every delta since it stay within the budget over many activations", async () => {
    const last = await readEveryFolder({ ...conditionalTree(), ...idleSkills() });
    expect(last.tools?.map((t) => t.name)).toContain("SkillSearch");
    const blocks = listingBlocks(last);
    // The full listing, then one delta per activation while anything was left to say.
    expect(blocks.length).toBeGreaterThan(2);
    const total = blocks.reduce((sum, block) => sum + budgetChars(block), 0);
    expect(total).toBeLessThanOrEqual(BUDGET);
    // Once the budget ran short, skills were left out with the line that says how to find them.
    const all = blocks.join("\n");
    expect(all).toContain(OMITTED_LINE);
    expect(all).toContain("with the SkillSearch tool");
    expect(all).not.toContain(`- c${COUNT}`);
    // A skill left out of the listing is still invocable.
    const [result] = toolResults(last);
    expect(result?.is_error).not.toBe(true);
    expect(resultText(result)).toBe(`Launching skill: c${COUNT}`);
  });

  it("without SkillSearch, a delta past the budget still names every new skill; descriptions stay within it", async () => {
    // A catalog whose full lines crowd the budget gets SkillSearch (issue #25); a host may still take it away.
    const last = await readEveryFolder(conditionalTree(), { disallowedTools: ["SkillSearch"] });
    expect(last.tools?.map((t) => t.name)).not.toContain("SkillSearch");
    const blocks = listingBlocks(last);
    const all = blocks.join("\n");
    // Early activations were listed in full; once the budget ran short, names only, and nothing is left out.
    expect(all).toContain("- c1: Helper number 1 for the files of folder d1");
    expect(all).not.toContain(OMITTED_LINE);
    for (let n = 1; n <= COUNT; n++) expect(all).toMatch(new RegExp(`^- c${n}(:|$)`, "m"));
    expect(all).toContain("listed by name only to fit the listing budget; the Skill tool still accepts");
    // Descriptions stay within the budget; only name-only lines went past it.
    expect(describedChars(blocks)).toBeLessThanOrEqual(BUDGET);
    expect(nameOnlyBlocks(blocks).length).toBeGreaterThan(0);
    // The skill the model saw by name is invocable.
    const [result] = toolResults(last);
    expect(result?.is_error).not.toBe(true);
    expect(resultText(result)).toBe(`Launching skill: c${COUNT}`);
  });

  it("after compaction the full listing is sent again, it counts against the budget, and the budget starts over", async () => {
    const reads: ScriptTurnInput[] = [];
    for (let n = 2; n <= COUNT; n++) reads.push(toolTurn("Read", { file_path: `d${n}/a.txt` }));
    h = await startHarness({
      files: conditionalTree(),
      env: { SKILLWRIGHT_LISTING_BUDGET: String(BUDGET) },
      turns: [
        toolTurn("Read", { file_path: "d1/a.txt" }),
        textTurn("read one"),
        textTurn("SUMMARY", { systemIncludes: "You summarize conversations" }),
        ...reads,
        textTurn("read all"),
      ],
    });
    await h.send("read d1");
    expect(await h.opened.session.compact()).toEqual({ ok: true });
    await h.send("now the others");
    const last = h.bodies().at(-1);
    if (last === undefined) throw new Error("no request");
    const blocks = listingBlocks(last);
    // The compacted conversation opens with the full listing (and c1, active since), then the new deltas.
    expect(blocks[0]).toContain("- deploy: Deploys the app");
    expect(blocks.join("\n")).toContain("- c1: Helper number 1");
    expect(blocks.join("\n")).toContain("- c2: Helper number 2");
    expect(describedChars(blocks)).toBeLessThanOrEqual(BUDGET);
  });

  it("a resumed session goes on from what its conversation's listing blocks already spent", async () => {
    const reads = (from: number, to: number): ScriptTurnInput[] => {
      const out: ScriptTurnInput[] = [];
      for (let n = from; n <= to; n++) out.push(toolTurn("Read", { file_path: `d${n}/a.txt` }));
      return out;
    };
    h = await startHarness({
      files: conditionalTree(),
      env: { SKILLWRIGHT_LISTING_BUDGET: String(BUDGET) },
      turns: [...reads(1, 4), textTurn("first half"), ...reads(5, COUNT), textTurn("second half")],
    });
    await h.send("read the first folders");
    const resumed = await h.reopen({ resume: h.opened.session.id });
    await sendOn(resumed, "read the others");
    const last = h.bodies().at(-1);
    if (last === undefined) throw new Error("no request");
    expect(last.messages.length).toBeGreaterThan(10);
    const blocks = listingBlocks(last);
    expect(blocks.join("\n")).toContain("- c3: Helper number 3");
    expect(describedChars(blocks)).toBeLessThanOrEqual(BUDGET);
  });

  it("a nested-discovery announcement counts against the budget too: the deltas after it are smaller", async () => {
    const reads: ScriptTurnInput[] = [toolTurn("Read", { file_path: "packages/api/notes.txt" })];
    for (let n = 1; n <= COUNT; n++) reads.push(toolTurn("Read", { file_path: `d${n}/a.txt` }));
    h = await startHarness({
      files: {
        ...conditionalTree(),
        "project/packages/api/.claude/skills/napi/SKILL.md": skillMd("description: Api helper", "Api."),
        "project/packages/api/notes.txt": "notes\n",
      },
      env: { SKILLWRIGHT_LISTING_BUDGET: String(BUDGET) },
      turns: [...reads, textTurn("done")],
    });
    await h.send("read everything");
    const last = h.bodies().at(-1);
    if (last === undefined) throw new Error("no request");
    const announced = last.messages
      .filter((m) => m.role === "user")
      .flatMap((m) => textBlocks(m.content))
      .filter((t) => t.startsWith("<system-reminder>\nNew skills discovered in"));
    expect(announced).toHaveLength(1);
    const blocks = [...listingBlocks(last), ...announced.map(announcementEntries)];
    expect(describedChars(blocks)).toBeLessThanOrEqual(BUDGET);
  });
});
