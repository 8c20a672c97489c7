// Counts the Claude Code parity checklist of docs/behaviour.md (§20, issue #44) and prints the figure: the
// checklist's rows (equal, deviation, differs) plus one `equal` fact for each hook event the §10 table marks fired.
//   node scripts/parity.mjs          one line for people
//   node scripts/parity.mjs --json   the counts as JSON (test/docs/parity-checklist.test.ts reads it)
import { readFileSync } from "node:fs";

const doc = readFileSync(new URL("../docs/behaviour.md", import.meta.url), "utf8");

/** The rows of the markdown table between `<!-- {marker}` and `<!-- /{marker} -->`, as arrays of cells. */
function tableRows(marker) {
  const start = doc.indexOf(`<!-- ${marker}`);
  const end = doc.indexOf(`<!-- /${marker} -->`);
  if (start === -1 || end === -1) throw new Error(`docs/behaviour.md has no ${marker} table`);
  return doc
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .slice(1)
    .map((line) =>
      line
        .slice(2, -2)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

const checklist = tableRows("parity-checklist").map(([fact, state, evidence]) => ({ fact, state, evidence }));
const firedEvents = tableRows("hook-events-table").filter(([, here]) => here === "fired").length;
const count = (state) => checklist.filter((row) => row.state === state).length;
const equal = count("equal") + firedEvents;
const deviation = count("deviation");
const differs = checklist.filter((row) => row.state === "differs").map((row) => row.fact);
const total = checklist.length + firedEvents;
const percent = (n) => Math.round((n / total) * 1000) / 10;

if (process.argv.includes("--json")) {
  process.stdout.write(
    `${JSON.stringify({ total, equal, deviation, differs, firedEvents, equalPercent: percent(equal), withDeviationsPercent: percent(equal + deviation) })}\n`,
  );
} else {
  process.stdout.write(
    `Claude Code parity (docs/behaviour.md §20): ${equal} of ${total} facts equal (${percent(equal)}%), ` +
      `${equal + deviation} of ${total} (${percent(equal + deviation)}%) counting the ${deviation} recorded deviations; ` +
      `${differs.length} ${differs.length === 1 ? "differs" : "differ"}${differs.length === 0 ? "" : `: ${differs.join("; ")}`}\n`,
  );
}
