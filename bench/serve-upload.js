// Serve upload bench: the latency of small GETs while a maximum-size skill upload is in flight, against the same
// GETs with nothing else running (the honest floor), on one `serve` instance (the shipped bin) over its default
// embedded database (PGlite, the one that runs on the server's main thread).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fmtMs, fmtRatio, formatTable } from "./lib.js";
import { startServe } from "./serve-process.js";

/** Upload rounds (`SERVE_BENCH_UPLOADS` overrides, for a quick run); each is preceded by a floor round. */
export const UPLOADS = Number(process.env.SERVE_BENCH_UPLOADS ?? 4);
/** GETs per floor round. */
export const FLOOR_GETS = 150;
/** Files of the upload besides SKILL.md, and the size of each: 29.x MB in all, under the 30 MB limit. */
export const UPLOAD_FILES = 29;
export const FILE_BYTES = 1024 * 1024 - 4096;
/** Target of the issue: p99 of a small GET during an upload over its p99 with none. */
export const TARGETS = { p99Ratio: 3 };
const API_KEY = "sk-bench-serve-upload";

/**
 * The p-th quantile (0..1) of `samples` (nearest rank). Throws on an empty list.
 * @param {readonly number[]} samples @param {number} p
 */
export function quantile(samples, p) {
  if (samples.length === 0) throw new Error("quantile of an empty list");
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;
}

/**
 * p50 and p99 of each row, floor and during, and during / floor.
 * @param {Record<string, { floor: number[]; during: number[] }>} rows
 */
export function latencyFigures(rows) {
  return Object.fromEntries(
    Object.entries(rows).map(([name, { floor, during }]) => {
      const f = { p50: quantile(floor, 0.5), p99: quantile(floor, 0.99) };
      const d = { p50: quantile(during, 0.5), p99: quantile(during, 0.99) };
      return [
        name,
        {
          floor: f,
          during: d,
          p50Ratio: d.p50 / f.p50,
          p99Ratio: d.p99 / f.p99,
          samples: { floor: floor.length, during: during.length },
        },
      ];
    }),
  );
}

/** A max-size skill: SKILL.md and UPLOAD_FILES incompressible files, as the SDK sends it (multipart). */
function uploadForm() {
  const form = new FormData();
  form.append(
    "files[]",
    new Blob(["---\nname: big-upload\ndescription: A maximum-size skill\n---\nBody\n"]),
    "big-upload/SKILL.md",
  );
  for (let i = 0; i < UPLOAD_FILES; i++) {
    form.append("files[]", new Blob([randomBytes(FILE_BYTES)]), `big-upload/assets/blob-${i}.bin`);
  }
  return form;
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const dir = await mkdtemp(join(tmpdir(), "sw-bench-upload-"));
  const server = await startServe({
    bin: join(ctx.repoRoot, "dist/bin/main.js"),
    db: join(dir, "data"),
    apiKey: API_KEY,
  });
  const headers = { authorization: `Bearer ${API_KEY}` };
  try {
    const small = new FormData();
    small.append(
      "files[]",
      new Blob(["---\nname: small\ndescription: A small skill\n---\nHi\n"]),
      "small/SKILL.md",
    );
    const made = await fetch(`${server.url}/v1/skills`, { method: "POST", headers, body: small });
    if (made.status !== 200) throw new Error(`creating the small skill: ${made.status} ${await made.text()}`);
    const { id } = /** @type {{ id: string }} */ (await made.json());
    /** @type {Record<string, string>} */
    const targets = { "GET /v1/skills/{id}": `/v1/skills/${id}`, "GET / (web page)": "/" };
    const get = async (/** @type {string} */ path) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      return performance.now() - started;
    };
    /** @type {Record<string, { floor: number[]; during: number[] }>} */
    const rows = Object.fromEntries(Object.keys(targets).map((name) => [name, { floor: [], during: [] }]));
    const paths = Object.entries(targets);
    for (let n = 0; n < 50; n++) for (const [, path] of paths) await get(path);
    /** @type {number[]} */
    const uploadMs = [];
    for (let round = 0; round < UPLOADS; round++) {
      for (let n = 0; n < FLOOR_GETS; n++) {
        for (const [name, path] of paths) rows[name]?.floor.push(await get(path));
      }
      const form = uploadForm();
      let done = false;
      const started = performance.now();
      const upload = fetch(`${server.url}/v1/skills`, { method: "POST", headers, body: form }).then(
        async (response) => {
          const text = await response.text();
          done = true;
          uploadMs.push(performance.now() - started);
          if (response.status !== 200) throw new Error(`the upload failed: ${response.status} ${text}`);
        },
        (error) => {
          done = true;
          throw error;
        },
      );
      // GETs one after another, the paths in turn, sent for as long as the upload is in flight.
      for (let n = 0; !done; n++) {
        const [name, path] = paths[n % paths.length] ?? paths[0] ?? ["", "/"];
        // Counted when sent during the upload, even if it comes back after (a GET the upload held up).
        rows[name]?.during.push(await get(path));
      }
      await upload;
    }
    const figures = latencyFigures(rows);
    const mb = ((UPLOAD_FILES * FILE_BYTES) / 1024 / 1024).toFixed(1);
    ctx.log(
      `serve-upload: small GETs one at a time on one serve (PGlite), with nothing else running (floor) and while a ${mb} MB skill upload (${UPLOAD_FILES + 1} files, multipart) is in flight; ${UPLOADS} rounds, interleaved`,
    );
    ctx.log(
      formatTable(
        ["request", "floor p50", "floor p99", "during p50", "during p99", "p50 ×", "p99 ×", "target"],
        Object.entries(figures).map(([name, f]) => [
          `${name} (${f.samples.during} during)`,
          fmtMs(f.floor.p50),
          fmtMs(f.floor.p99),
          fmtMs(f.during.p50),
          fmtMs(f.during.p99),
          fmtRatio(f.p50Ratio),
          fmtRatio(f.p99Ratio),
          `p99 ≤ ${TARGETS.p99Ratio}×`,
        ]),
      ),
    );
    ctx.log(`upload wall time: median ${fmtMs(quantile(uploadMs, 0.5))} ms over ${uploadMs.length} uploads`);
    return { figures, uploadMs: quantile(uploadMs, 0.5) };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The closing note's lines.
 * @param {{ figures?: Record<string, { p99Ratio: number; p50Ratio: number }> }} f
 */
export function closing(f) {
  return Object.entries(f.figures ?? {}).map(
    ([name, row]) =>
      `${name} during a max-size upload: p99 ${fmtRatio(row.p99Ratio)} of its floor, p50 ${fmtRatio(row.p50Ratio)} (target p99 ≤ ${TARGETS.p99Ratio}×: ${row.p99Ratio <= TARGETS.p99Ratio ? "met" : "MISSED"})`,
  );
}
