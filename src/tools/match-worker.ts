import { createWorkerPool, type WorkerPool, WorkerTaskError } from "../io/bounded-worker.js";
import { packageRequire } from "../io/package-require.js";
import { lazy } from "../lazy.js";

/**
 * The worker's code: compiles the search's regular expression with RE2 (re2js: linear time in the text, no
 * backtracking) and its glob with picomatch, then answers `lines` (the indexes of the lines the expression
 * finds a match in) and `paths` (whether each path matches the glob). picomatch compiles to a JavaScript RegExp
 * that backtracks, which is why globs are tested here too and not on the event loop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { RE2JS } = require(workerData.modules.re2js);
const picomatch = require(workerData.modules.picomatch);
let regex;
let glob;
function answer(id, run) {
  let body;
  try {
    body = run();
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: error && error.message ? error.message : String(error) });
    return;
  }
  parentPort.postMessage({ id, ok: true, body });
}
parentPort.on("message", ({ id, body }) => answer(id, () => {
  switch (body.kind) {
    case "compile": {
      const spec = body.spec;
      regex = undefined;
      glob = undefined;
      if (spec.regex) regex = RE2JS.compile(spec.regex.pattern, spec.regex.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
      if (spec.glob) glob = picomatch(spec.glob, { dot: true, basename: !spec.glob.includes("/") });
      return null;
    }
    case "lines": {
      const hits = [];
      for (let i = 0; i < body.lines.length; i++) if (regex.matcher(body.lines[i]).find()) hits.push(i);
      return hits;
    }
    case "paths":
      return body.paths.map((p) => glob(p));
    default:
      throw new Error("unknown request " + body.kind);
  }
}));
`;

/** What a search matches with: a regular expression (RE2 syntax) over lines, a glob over paths, or both. */
export interface MatchSpec {
  regex?: { pattern: string; ignoreCase: boolean };
  glob?: string;
}

/** A search's matcher in its worker thread, terminated when the call's signal aborts. */
export interface MatchWorker {
  /** The indexes of `lines` the expression finds a match in, ascending. */
  lines(lines: readonly string[]): Promise<number[]>;
  /** Whether each of `paths` matches the glob. */
  paths(paths: readonly string[]): Promise<boolean[]>;
  close(): void;
}

/** A matcher that compiled, or the pattern's problem as the engine said it. */
export type MatchWorkerStart = { kind: "ok"; worker: MatchWorker } | { kind: "invalid"; message: string };

const numbers = (value: unknown): number[] =>
  Array.isArray(value) && value.every((n) => typeof n === "number") ? value : [];
const booleans = (value: unknown): boolean[] =>
  Array.isArray(value) && value.every((b) => typeof b === "boolean") ? value : [];

/** Where searches get their matchers: worker threads, one kept warm between calls (src/io/bounded-worker.ts). */
export interface Matchers {
  /**
   * A matcher for `spec`, its patterns compiled in the worker: `invalid` with the engine's message when one
   * does not compile (e.g. a lookaround or a backreference, which RE2 does not have). The worker is terminated
   * when `signal` aborts; `close` the matcher when done. Rejects with `signal`'s reason when it aborts first.
   */
  start(spec: MatchSpec, signal: AbortSignal): Promise<MatchWorkerStart>;
  /** Ends the warm worker. */
  close(): void;
}

/** Matchers over a new worker pool. */
export function createMatchers(): Matchers {
  // Made on the first search: a session that never searches starts no thread and resolves nothing.
  const pool = lazy((): WorkerPool => {
    const require = packageRequire();
    return createWorkerPool({
      source: WORKER_SOURCE,
      modules: { re2js: require.resolve("re2js"), picomatch: require.resolve("picomatch") },
    });
  });
  let started = false;
  return {
    async start(spec, signal) {
      started = true;
      const lease = pool().lease(signal);
      try {
        await lease.request({ kind: "compile", spec });
      } catch (error) {
        lease.release();
        if (error instanceof WorkerTaskError) return { kind: "invalid", message: error.message };
        throw error;
      }
      return {
        kind: "ok",
        worker: {
          lines: async (lines) => numbers(await lease.request({ kind: "lines", lines })),
          paths: async (paths) => booleans(await lease.request({ kind: "paths", paths })),
          close: () => lease.release(),
        },
      };
    },
    close: () => {
      if (started) pool().close();
    },
  };
}
