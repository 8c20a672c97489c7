/**
 * The Claude Code parity checklist of docs/behaviour.md §20 (issue #44): every row's state is one of three, every
 * `equal` row names evidence that exists (a test file, or a measured rule's section), every `deviation` is in
 * Decisions and deviations, and `npm run parity` (scripts/parity.mjs) prints the figure these rows and the hook
 * event table give.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { hookEventRows } from "../../src/hooks/event-table.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const doc = readFileSync(`${ROOT}docs/behaviour.md`, "utf8");
const table = doc.slice(doc.indexOf("<!-- parity-checklist -->"), doc.indexOf("<!-- /parity-checklist -->"));
const rows = table
  .split("\n")
  .filter((l) => l.startsWith("| ") && !l.startsWith("| ---"))
  .slice(1)
  .map((l) => {
    const [fact = "", state = "", evidence = ""] = l.slice(2, -2).split(" | ");
    return { fact, state, evidence };
  });
const deviations = doc.slice(doc.indexOf("## Decisions and deviations"));

describe("the parity checklist (docs/behaviour.md §20)", () => {
  it("has rows in three states, each with evidence that exists", () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const { fact, state, evidence } of rows) {
      expect(["equal", "deviation", "differs"], fact).toContain(state);
      if (evidence.startsWith("test/")) expect(existsSync(`${ROOT}${evidence}`), evidence).toBe(true);
      else if (evidence.startsWith("§"))
        expect(doc, evidence).toMatch(new RegExp(`^#{2,3} ${evidence} `, "m"));
      else expect(evidence, fact).toBe("Decisions and deviations");
      if (state === "deviation") expect(evidence, fact).toBe("Decisions and deviations");
    }
  });

  it("each recorded deviation is in Decisions and deviations", () => {
    const named: Record<string, RegExp> = {
      "The default model with none configured (Sonnet, not Opus)": /\*\*The default model\*\*/,
      "The skill listing travels in the messages": /\*\*The listing in the messages\*\*/,
      "Our plugin data folder": /\*\*A plugin's data dir\*\*/,
      "Arguments quoted in inline shell": /SKILLWRIGHT_ARGUMENTS/,
      "Our own bundled skills' texts": /\*\*Our bundled skills\*\*/,
    };
    for (const { fact } of rows.filter((r) => r.state === "deviation")) {
      expect(named[fact], fact).toBeDefined();
      expect(deviations).toMatch(named[fact] ?? /^$/);
    }
  });

  it("npm run parity prints the figure of these rows and the fired hook events", async () => {
    const fired = hookEventRows().filter((r) => r.status === "fired").length;
    const equal = rows.filter((r) => r.state === "equal").length + fired;
    const deviation = rows.filter((r) => r.state === "deviation").length;
    const total = rows.length + fired;
    const { stdout } = await execa(process.execPath, [`${ROOT}scripts/parity.mjs`, "--json"]);
    expect(JSON.parse(stdout)).toEqual({
      total,
      equal,
      deviation,
      differs: rows.filter((r) => r.state === "differs").map((r) => r.fact),
      firedEvents: fired,
      equalPercent: Math.round((equal / total) * 1000) / 10,
      withDeviationsPercent: Math.round(((equal + deviation) / total) * 1000) / 10,
    });
    const human = await execa(process.execPath, [`${ROOT}scripts/parity.mjs`]);
    expect(human.stdout).toContain(`${equal} of ${total} facts equal`);
  });
});
