// Summaries of V8 `.cpuprofile` files (from `node --cpu-prof`): where the self time goes.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { runChild } from "./lib.js";

/** Native functions that are the main thread's side of a file-system call. */
const FS_BINDINGS = new Set([
  "openFileHandle",
  "open",
  "read",
  "close",
  "fstat",
  "stat",
  "lstat",
  "realpath",
  "readdir",
]);

/**
 * @typedef {object} ProfileNode
 * @property {number} id
 * @property {{ functionName: string, url: string, lineNumber: number }} callFrame
 */

/**
 * @typedef {object} HotSpot
 * @property {string} label `function (file:line)`, a file name or a category
 * @property {number} ms self time
 * @property {number} share of all sampled time, 0–1
 */

/**
 * @typedef {object} ProfileSummary
 * @property {number} totalMs
 * @property {HotSpot[]} functions self time per function, largest first
 * @property {HotSpot[]} files self time per script file
 * @property {HotSpot[]} categories fs calls, GC, idle, the yaml package, each dist/ folder, node internals, …
 */

/**
 * The bucket a sample belongs to: `GC`, `idle`, `fs calls (main thread)`, `yaml`, `p-limit`, `dist/<folder>`,
 * `node internals`, `other native`, or a package name. Pure.
 * @param {{ functionName: string, url: string }} frame
 * @returns {string}
 */
export function categoryOf({ functionName, url }) {
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(idle)") return "idle (waiting for I/O)";
  if (functionName === "(program)") return "V8 (program)";
  if (url === "") return FS_BINDINGS.has(functionName) ? "fs calls (main thread)" : "other native";
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg !== null) return pkg[1] === "yocto-queue" ? "p-limit" : (pkg[1] ?? "packages");
  const dist = /\/dist\/([^/]+)(\/)?/.exec(url);
  if (dist !== null) return dist[2] === undefined ? "dist (top level)" : `dist/${dist[1]}`;
  if (url.startsWith("node:") || !url.includes("/")) return "node internals";
  return basename(url);
}

/**
 * Self time per function, per file and per category in a `.cpuprofile`, largest first. Rejects when the file
 * is not a CPU profile.
 * @param {string} path
 * @param {number} top how many functions and files to keep (categories are all kept)
 * @param {{ fromUs: number, toUs: number }} [window] only the samples taken in this span of the monotonic clock
 *   (`process.hrtime` in µs, the profile's own clock)
 * @returns {Promise<ProfileSummary>}
 */
export async function summarizeCpuProfile(path, top, window) {
  /** @type {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number }} */
  const profile = JSON.parse(await readFile(path, "utf8"));
  /** @type {Map<number, number>} */
  const selfUs = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window !== undefined && (at < window.fromUs || at > window.toUs)) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, delta));
  });
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  /** @type {Map<string, number>} */
  const byFile = new Map();
  /** @type {Map<string, number>} */
  const byCategory = new Map();
  /** @param {Map<string, number>} map @param {string} key @param {number} us */
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  let totalUs = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url === "" ? "(native)" : basename(url);
    add(
      byFunction,
      `${functionName || "(anonymous)"} (${file}${url === "" ? "" : `:${lineNumber + 1}`})`,
      us,
    );
    add(byFile, file, us);
    add(byCategory, categoryOf(node.callFrame), us);
  }
  /** @param {Map<string, number>} map @param {number} keep */
  const rank = (map, keep) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, keep)
      .map(([label, us]) => ({ label, ms: us / 1000, share: totalUs === 0 ? 0 : us / totalUs }));
  return {
    totalMs: totalUs / 1000,
    functions: rank(byFunction, top),
    files: rank(byFile, top),
    categories: rank(byCategory, byCategory.size),
  };
}

/**
 * Runs `node --cpu-prof <args>` in a scratch dir and summarises the profile. Rejects when the child fails.
 * @param {readonly string[]} args node arguments after `--cpu-prof`
 * @param {{ env?: NodeJS.ProcessEnv, top: number }} options
 * @returns {Promise<ProfileSummary>}
 */
export async function profileChild(args, options) {
  const dir = await mkdtemp(join(tmpdir(), "skillwright-prof-"));
  try {
    const result = await runChild(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, ...args], {
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    if (result.code !== 0) throw new Error(`profiled child exited with ${result.code}: ${result.stderr}`);
    const [file] = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
    if (file === undefined) throw new Error("no .cpuprofile written");
    return await summarizeCpuProfile(join(dir, file), options.top);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
