// Child process for the whole-process floors: node bench/floor-child.js <roots.json> [repeat] [--stat]
// Loads nothing but node:fs (and p-limit, unused by the sync floors), runs the synchronous fs floor over the
// roots in the JSON file `repeat` times (default 1), or with `--stat` the warm floor (list and stat every file,
// read none), and prints one JSON line: { maxRssKb, unique }.
import { readFileSync } from "node:fs";
import { fsFloorSync, fsStatFloorSync } from "./fs-floor.js";

const stat = process.argv.includes("--stat");
const [rootsFile, repeatArg] = process.argv.slice(2).filter((a) => a !== "--stat");
if (rootsFile === undefined) {
  process.stderr.write("usage: floor-child.js <roots.json> [repeat] [--stat]\n");
  process.exit(2);
}
const roots = JSON.parse(readFileSync(rootsFile, "utf8"));
const floor = stat ? fsStatFloorSync : fsFloorSync;
let unique = 0;
for (let i = 0; i < Number(repeatArg ?? "1"); i++) unique = floor(roots).unique;
process.stdout.write(`${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, unique })}\n`);
