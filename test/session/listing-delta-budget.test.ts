// Listing deltas share the listing budget (SPEC §3): the full listing plus every delta sent since it stay within
// the budget together, so many activations in one conversation cannot grow the listing without bound. A delta
// that does not fit lists names only, then leaves skills out with the "not listed" line (they stay invocable).
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

describe("listing deltas within the budget (SPEC §3)", () => {
  it("the full listing plus every delta since it stay within the budget over many activations", async () => {
    const reads: ScriptTurnInput[] = [];
    for (let n = 1; n <= COUNT; n++) reads.push(toolTurn("Read", { file_path: `d${n}/a.txt` }));
    h = await startHarness({
      files: conditionalTree(),
      env: { SKILLWRIGHT_LISTING_BUDGET: String(BUDGET) },
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
    const blocks = listingBlocks(last);
    // The full listing, then one delta per activation while anything was left to say.
    expect(blocks.length).toBeGreaterThan(3);
    const total = blocks.reduce((sum, block) => sum + budgetChars(block), 0);
    expect(total).toBeLessThanOrEqual(BUDGET);
    // Early activations were listed in full; once the budget ran short, names only, then left out with the line.
    const all = blocks.join("\n");
    expect(all).toContain("- c1: Helper number 1 for the files of folder d1");
    expect(all).toContain(OMITTED_LINE);
    expect(all).not.toContain(`- c${COUNT}`);
    // A skill left out of the listing is still invocable.
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
    expect(blocks.reduce((sum, block) => sum + budgetChars(block), 0)).toBeLessThanOrEqual(BUDGET);
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
    expect(blocks.reduce((sum, block) => sum + budgetChars(block), 0)).toBeLessThanOrEqual(BUDGET);
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
    expect(blocks.reduce((sum, block) => sum + budgetChars(block), 0)).toBeLessThanOrEqual(BUDGET);
  });
});
