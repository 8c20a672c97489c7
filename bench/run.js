// `npm run bench` (builds first): runs each bench section and prints its figures.
//   node bench/run.js [section ...] [--sizes 1000,10000] [--runs 10] [--warmup 2] [--profile] [--json file]
// With no section names, every section runs in the order below.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as activation from "./activation.js";
import * as agent from "./agent.js";
import * as cache from "./cache-reuse.js";
import * as deps from "./deps.js";
import * as discovery from "./discovery.js";
import * as importSection from "./import.js";
import { childEnvNote, DEFAULT_RUNS, DEFAULT_WARMUP, loadNote } from "./lib.js";
import * as listing from "./listing.js";
import * as sandbox from "./sandbox.js";
import * as serve from "./serve.js";
import * as serveSearch from "./serve-search.js";
import * as serveStartup from "./serve-startup.js";
import * as serveStore from "./serve-store.js";
import * as serveTools from "./serve-tools.js";
import * as serveTurn from "./serve-turn.js";
import * as serveUpload from "./serve-upload.js";
import * as skillContext from "./skill-context.js";
import * as skillSearch from "./skill-search.js";

/** Every section, in run order. Each module exports `run(ctx: BenchContext) → Promise<figures>`. */
const SECTIONS = {
  discovery,
  activation,
  listing,
  "skill-search": skillSearch,
  agent,
  cache,
  "skill-context": skillContext,
  deps,
  import: importSection,
  serve,
  "serve-search": serveSearch,
  "serve-startup": serveStartup,
  "serve-store": serveStore,
  "serve-turn": serveTurn,
  "serve-upload": serveUpload,
  "serve-tools": serveTools,
  sandbox,
};
/** Corpus sizes when `--sizes` is not given. */
const DEFAULT_SIZES = [1_000, 10_000];

const { values, positionals } = parseArgs({
  options: {
    sizes: { type: "string" },
    runs: { type: "string" },
    warmup: { type: "string" },
    profile: { type: "boolean" },
    json: { type: "string" },
  },
  allowPositionals: true,
});
const names = positionals.length > 0 ? positionals : Object.keys(SECTIONS);
const unknown = names.filter((n) => !(n in SECTIONS));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown bench section(s): ${unknown.join(", ")}; known: ${Object.keys(SECTIONS).join(", ")}\n`,
  );
  process.exit(2);
}

/** @type {import("./lib.js").BenchContext} */
const ctx = {
  repoRoot: fileURLToPath(new URL("..", import.meta.url)),
  sizes:
    values.sizes === undefined
      ? DEFAULT_SIZES
      : values.sizes
          .split(",")
          .map(Number)
          .sort((a, b) => a - b),
  runs: Number(values.runs ?? DEFAULT_RUNS),
  warmup: Number(values.warmup ?? DEFAULT_WARMUP),
  profile: values.profile ?? false,
  log: (text) => process.stdout.write(`${text}\n`),
};
if (ctx.sizes.some((n) => !Number.isInteger(n) || n < 100) || !(ctx.runs >= 1) || !(ctx.warmup >= 0)) {
  process.stderr.write("--sizes takes integers ≥ 100, --runs ≥ 1, --warmup ≥ 0\n");
  process.exit(2);
}
ctx.log(
  `skillwright bench: node ${process.version}, ${ctx.runs} timed runs after ${ctx.warmup} warm-up, ` +
    "median shown, runs of the tasks compared interleaved",
);
ctx.log(`${childEnvNote()}\n`);

/** @type {Record<string, unknown>} */
const results = {};
for (const name of names) {
  const section = SECTIONS[/** @type {keyof typeof SECTIONS} */ (name)];
  const started = Date.now();
  results[name] = await section.run(ctx);
  ctx.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
// The closing note: every figure with a target, and its verdict, from the sections that export `closing`.
const closing = names.flatMap((name) => {
  const section = /** @type {{ closing?: (figures: unknown) => string[] }} */ (
    SECTIONS[/** @type {keyof typeof SECTIONS} */ (name)]
  );
  return section.closing === undefined
    ? []
    : section.closing(results[name]).map((line) => `- ${name}: ${line}`);
});
if (closing.length > 0)
  ctx.log(`## closing note: targets and verdicts (now: ${loadNote()})\n\n${closing.join("\n")}\n`);
if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(results, null, 2)}\n`);
