// Bench section "deps": where the project hand-writes what a kept dependency does (issue 12.7), each against
// the dependency, timed interleaved. Verdict: keep the hand-written code only where it wins.
//   - glob matching for `paths:` (src/activation/braces.ts + globs.ts) vs picomatch (a dependency, used by the
//     Glob and Grep tools) and vs `ignore` (the gitignore semantics globs.ts reproduces, its own fallback);
//   - the HTTP layer (src/agent/http-fetch.ts, node:http) vs the platform fetch the SDK would use, per process.
import { createServer } from "node:http";
import { join } from "node:path";
import ignore from "ignore";
import picomatch from "picomatch";
import { expandBraces } from "../dist/activation/braces.js";
import { createPathMatcher } from "../dist/activation/path-matcher.js";
import { childEnv, compare, createRng, fmtMs, fmtRatio, formatTable, runChild } from "./lib.js";

/** Typical `paths:` globs (the shapes real skills use, braces included). */
const PATTERNS = [
  "src/**/*.ts",
  "test/**/*.test.ts",
  "**/*.sql",
  "migrations/**",
  "*.md",
  "docs/**/*.{md,mdx}",
  "packages/*/src/**/*.{ts,tsx}",
  "**/Dockerfile",
  "infra/**/*.tf",
  "**/*.{yml,yaml}",
];
/** Paths tested per run. */
const PATHS = 20_000;
const DIRS = [
  "src",
  "test",
  "docs",
  "packages/web/src",
  "packages/api/src",
  "infra/prod",
  "migrations",
  "lib/a/b",
];
const FILES = [
  "index.ts",
  "app.tsx",
  "a.test.ts",
  "schema.sql",
  "README.md",
  "guide.mdx",
  "main.tf",
  "ci.yml",
  "Dockerfile",
];

/**
 * @typedef {object} DepsFigures
 * @property {Record<"ours" | "picomatch" | "ignore", import("./lib.js").Stats>} globs compile + test every path
 * @property {Record<"ours" | "fetch", import("./lib.js").Stats>} http one process sending one streamed POST
 * @property {{ globs: string, http: string }} verdicts
 */

/**
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<DepsFigures>}
 */
export async function run(ctx) {
  ctx.log("## deps (hand-written code vs the dependency it sits beside)\n");
  const rng = createRng(12_7);
  // Distinct paths: `ignore` caches its answer per path, which a session's touched paths rarely repeat.
  const paths = Array.from({ length: PATHS }, (_, i) => `${rng.pick(DIRS)}/n${i}/${rng.pick(FILES)}`);
  // The question activation asks: which conditional skills (one per pattern here) does this path activate?
  const skills = PATTERNS.map((p, i) => ({ name: `s${i}`, paths: [p], filePath: `/skills/s${i}/SKILL.md` }));
  const ours = () => {
    const matcher = createPathMatcher(skills);
    let hits = 0;
    for (const path of paths) hits += matcher.match([path]).size;
    return hits;
  };
  const pico = () => {
    const matchers = PATTERNS.map((p) => picomatch(p, { dot: true, nocase: true }));
    let hits = 0;
    for (const path of paths) for (const isMatch of matchers) if (isMatch(path)) hits++;
    return hits;
  };
  const gitignore = () => {
    const rules = PATTERNS.map((p) =>
      ignore({ allowRelativePaths: true }).add(expandBraces(p, 1_000).patterns),
    );
    let hits = 0;
    for (const path of paths) for (const r of rules) if (r.ignores(path)) hits++;
    return hits;
  };
  if (ours() !== gitignore())
    throw new Error(`deps: globs.ts matched ${ours()} paths, ignore ${gitignore()}`);
  const globs = await compare(
    { ours: async () => ours(), picomatch: async () => pico(), ignore: async () => gitignore() },
    { runs: ctx.runs, warmup: ctx.warmup },
  );

  const http = await withServer(async (url) => {
    const fetchOf = (/** @type {string} */ how) =>
      how === "ours"
        ? `const { createHttpFetch } = await import(${JSON.stringify(join(ctx.repoRoot, "dist", "agent", "http-fetch.js"))}); const f = createHttpFetch();`
        : "const f = globalThis.fetch;";
    const script = (/** @type {string} */ how) =>
      `${fetchOf(how)} const r = await f(${JSON.stringify(url)}, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }); ` +
      "let n = 0; for await (const c of r.body) n += c.length; if (n !== 4096) process.exit(1);";
    const env = childEnv();
    const child = async (/** @type {string} */ how) => {
      const out = await runChild(process.execPath, ["--input-type=module", "-e", script(how)], { env });
      if (out.code !== 0) throw new Error(`deps: ${how} HTTP child failed: ${out.stderr}`);
    };
    return compare({ ours: () => child("ours"), fetch: () => child("fetch") }, { runs: ctx.runs, warmup: 1 });
  });

  const globRatio = globs.ours.median / globs.picomatch.median;
  const sameSemantics = globs.ours.median / globs.ignore.median;
  const httpRatio = http.ours.median / http.fetch.median;
  const verdicts = {
    globs:
      globRatio < 1
        ? "keep globs.ts/braces.ts (faster than both)"
        : sameSemantics < 1
          ? "loses to picomatch, which is not a drop-in (no gitignore semantics); beats ignore: kept, reported"
          : "globs.ts/braces.ts lose: switch to ignore",
    http: httpRatio < 1 ? "keep http-fetch.ts (faster)" : "http-fetch.ts loses to fetch",
  };
  ctx.log(
    formatTable(
      ["row (median ms)", "hand-written", "dependency", "ratio", "target", "verdict"],
      [
        [
          `paths: ${PATTERNS.length} skills × ${PATHS.toLocaleString("en-US")} paths, compile + match each`,
          fmtMs(globs.ours.median),
          `${fmtMs(globs.picomatch.median)} picomatch`,
          fmtRatio(globRatio),
          "< 1.00×",
          verdicts.globs,
        ],
        [
          "  the same with `ignore` (the semantics globs.ts reproduces)",
          fmtMs(globs.ours.median),
          `${fmtMs(globs.ignore.median)} ignore`,
          fmtRatio(sameSemantics),
          "< 1.00×",
          sameSemantics < 1 ? "met" : "✗",
        ],
        [
          "HTTP: a process sending one streamed POST",
          fmtMs(http.ours.median),
          `${fmtMs(http.fetch.median)} fetch`,
          fmtRatio(httpRatio),
          "< 1.00×",
          verdicts.http,
        ],
      ],
    ),
  );
  ctx.log(
    "(picomatch's semantics differ from `paths:` (gitignore: an unanchored pattern matches at any depth and a dir " +
      "match covers its contents), so it is a speed reference, not a drop-in; `ignore` is)\n",
  );
  return { globs, http, verdicts };
}

/**
 * Runs `fn` with a local HTTP server that answers every request with 4 KiB in 4 chunks.
 * @template T
 * @param {(url: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withServer(fn) {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let i = 0; i < 4; i++) res.write("x".repeat(1_024));
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("deps: no server address");
  try {
    return await fn(`http://127.0.0.1:${address.port}/v1/messages`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
}

/**
 * The closing note's lines: each row's ratio and verdict.
 * @param {DepsFigures} figures
 * @returns {string[]}
 */
export function closing(figures) {
  const { globs, http, verdicts } = figures;
  return [
    `paths: globs ${fmtRatio(globs.ours.median / globs.picomatch.median)} picomatch, ` +
      `${fmtRatio(globs.ours.median / globs.ignore.median)} ignore (target < 1×): ${verdicts.globs}`,
    `HTTP ${fmtRatio(http.ours.median / http.fetch.median)} the platform fetch (target < 1×): ${verdicts.http}`,
  ];
}
