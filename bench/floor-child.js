// Child process for the whole-process floor: node bench/floor-child.js <roots.json> [repeat]
// Loads nothing but node:fs (and p-limit, unused by the sync floor), runs the synchronous fs floor over the roots
// in the JSON file `repeat` times (default 1) and prints one JSON line: { maxRssKb, unique }.
import { readFileSync } from "node:fs";
import { fsFloorSync } from "./fs-floor.js";

const [rootsFile, repeatArg] = process.argv.slice(2);
if (rootsFile === undefined) {
  process.stderr.write("usage: floor-child.js <roots.json> [repeat]\n");
  process.exit(2);
}
const roots = JSON.parse(readFileSync(rootsFile, "utf8"));
let unique = 0;
for (let i = 0; i < Number(repeatArg ?? "1"); i++) unique = fsFloorSync(roots).unique;
process.stdout.write(`${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, unique })}\n`);
