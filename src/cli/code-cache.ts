import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import * as zlib from "node:zlib";

/** The environment switch that turns the V8 code cache off (`off`, `0` or `false`). */
export const CODE_CACHE_ENV = "SKILLWRIGHT_CODE_CACHE";
/** When set (to anything but empty), a run through the code cache writes one line about it to stderr. */
export const CODE_CACHE_DEBUG_ENV = "SKILLWRIGHT_CODE_CACHE_DEBUG";
/** The first bytes of a cache file (its format and digest), a digest of the payload follows, then V8's code. */
const MAGIC_LENGTH = 8;

/** A digest a cache file may carry: the magic that names it, and the function. */
interface CacheDigest {
  magic: Buffer;
  /** The digest's length in bytes. */
  bytes: number;
  digest(data: Uint8Array): Buffer;
}

/**
 * The digests, preferred first: CRC-32 (zlib's, ~0.3 ms for a 1 MB cache, node ≥ 20.15; zlib is loaded by the
 * HTTP client anyway) catches a damaged file as well as SHA-256 (~3 ms), the fallback on older node. Each cache
 * file's name carries the node version, so one file is always read by the node that wrote it.
 */
function cacheDigests(): CacheDigest[] {
  const crc32: unknown = Reflect.get(zlib, "crc32");
  const digests: CacheDigest[] = [];
  if (typeof crc32 === "function") {
    digests.push({
      magic: Buffer.from("SWCC-C32"),
      bytes: 4,
      digest: (data) => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE(Number(crc32(data)));
        return out;
      },
    });
  }
  digests.push({
    magic: Buffer.from("SWCC-256"),
    bytes: 32,
    digest: (data) => createHash("sha256").update(data).digest(),
  });
  return digests;
}

/** The synchronous file operations the code cache uses (node:fs's in the CLI). Each may throw. */
export interface CodeCacheFs {
  readFile(path: string): Buffer;
  writeFile(path: string, data: Uint8Array): void;
  rename(from: string, to: string): void;
  /** Creates the directory and its parents; no error when it exists. */
  mkdir(path: string): void;
  readdir(path: string): string[];
  unlink(path: string): void;
}

/**
 * What happened to the cache when the script was compiled: `off` (no cache file), `missing` (none yet, or
 * unreadable), `corrupt` (not a cache file of ours, or its digest does not match), `rejected` (V8 refused it:
 * another V8 build or flags), `accepted` (V8 compiled from it).
 */
export type CodeCacheStatus = "off" | "missing" | "corrupt" | "rejected" | "accepted";

/** What `save` did: `kept` (the cache was accepted or is off), `written` or `failed` (costs only speed). */
export type CodeCacheSave = "kept" | "written" | "failed";

/** A CommonJS script compiled and run through the code cache. */
export interface CachedScript {
  /** The script's `module.exports` after it ran. */
  exports: unknown;
  status: CodeCacheStatus;
  /**
   * Writes V8's code for the script as it is now (with every function compiled so far) to the cache file,
   * atomically (a temp file renamed over it), unless the cache was accepted or is off, then deletes the caches
   * older builds of the script left for this runtime (`staleCodeCaches`). Never throws.
   */
  save(): CodeCacheSave;
}

/**
 * The cache file for `script` (a bundle whose file name carries its content hash): under
 * `~/.skillwright/cache/code/`, keyed by that name, the node version and the CPU architecture. Undefined when
 * the environment turns the cache off. Pure.
 */
export function codeCacheFile(input: {
  home: string;
  env: Record<string, string | undefined>;
  script: string;
  runtime: { version: string; arch: string };
  /** Which use of the script the cache is for (a command name), when it has several: one file each. */
  tag?: string;
}): string | undefined {
  const setting = input.env[CODE_CACHE_ENV]?.trim().toLowerCase();
  if (setting === "off" || setting === "0" || setting === "false") return undefined;
  const use = input.tag === undefined ? "" : `${input.tag}-`;
  const name = `${basename(input.script)}-${use}${input.runtime.version}-${input.runtime.arch}.bin`;
  return join(input.home, ".skillwright", "cache", "code", name);
}

/**
 * The files of a cache dir that an older build of the same script left for the same runtime (`p-run-OLD.cjs-…`
 * beside `p-run-NEW.cjs-…`): written over by nothing, they would pile up, one per upgrade. Pure.
 */
export function staleCodeCaches(files: readonly string[], current: string): string[] {
  const runtime = current.slice(current.indexOf(".cjs-"));
  const hash = current.lastIndexOf("-", current.indexOf(".cjs-"));
  if (runtime === current || hash < 0) return [];
  const stem = current.slice(0, hash + 1);
  return files.filter((file) => file !== current && file.startsWith(stem) && file.endsWith(runtime));
}

/** A cache file's bytes for V8's code cache `data`: the magic, the digest of `data`, `data`. Pure. */
export function encodeCodeCache(data: Uint8Array): Buffer {
  const [preferred] = cacheDigests();
  if (preferred === undefined) throw new Error("code cache: no digest");
  return Buffer.concat([preferred.magic, preferred.digest(data), data]);
}

/**
 * V8's code cache out of a cache file's bytes, or undefined when they are not one of ours or do not match
 * their digest (V8 release builds do not verify a cache's checksum: a damaged one must never reach it). Pure.
 */
export function decodeCodeCache(file: Buffer): Buffer | undefined {
  const magic = file.subarray(0, MAGIC_LENGTH);
  const kind = cacheDigests().find((d) => d.magic.equals(magic));
  if (kind === undefined) return undefined;
  const start = MAGIC_LENGTH + kind.bytes;
  if (file.length <= start) return undefined;
  const data = file.subarray(start);
  return kind.digest(data).equals(file.subarray(MAGIC_LENGTH, start)) ? data : undefined;
}

/**
 * Compiles the CommonJS script `file` with `vm.Script` (the only way Node 20 takes a V8 code cache), from
 * `cacheFile` when it holds a valid cache for it, runs it as a module (its own `require`, `__filename`,
 * `__dirname`) and returns its exports. A missing, corrupt, rejected or unreadable cache costs only speed.
 * Throws what reading the script or running it throws.
 */
export function loadCachedScript(input: {
  file: string;
  cacheFile: string | undefined;
  fs: CodeCacheFs;
}): CachedScript {
  const { file, cacheFile, fs } = input;
  let cached: Buffer | undefined;
  let status: CodeCacheStatus = cacheFile === undefined ? "off" : "missing";
  if (cacheFile !== undefined) {
    try {
      cached = decodeCodeCache(fs.readFile(cacheFile));
      if (cached === undefined) status = "corrupt";
    } catch {
      cached = undefined;
    }
  }
  const source = fs.readFile(file).toString("utf8");
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    cached === undefined ? { filename: file } : { filename: file, cachedData: cached },
  );
  if (cached !== undefined) status = script.cachedDataRejected === true ? "rejected" : "accepted";
  const wrapper: unknown = script.runInThisContext();
  if (typeof wrapper !== "function") throw new Error(`code cache: ${file} did not compile to a function`);
  const module: { exports: unknown } = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    status,
    save: () => {
      if (cacheFile === undefined || status === "accepted") return "kept";
      const temp = `${cacheFile}.${process.pid}.tmp`;
      const dir = dirname(cacheFile);
      try {
        fs.mkdir(dir);
        fs.writeFile(temp, encodeCodeCache(script.createCachedData()));
        fs.rename(temp, cacheFile);
      } catch {
        try {
          fs.unlink(temp);
        } catch {
          // Never written, or the dir is gone: nothing left behind.
        }
        return "failed";
      }
      try {
        for (const stale of staleCodeCaches(fs.readdir(dir), basename(cacheFile)))
          fs.unlink(join(dir, stale));
      } catch {
        // Another run pruned them first, or the dir is not ours to clean: the cache itself is written.
      }
      return "written";
    },
  };
}

/** node:fs's synchronous operations as a `CodeCacheFs`. */
export function createNodeCodeCacheFs(): CodeCacheFs {
  return {
    readFile: (path) => readFileSync(path),
    writeFile: (path, data) => writeFileSync(path, data),
    rename: (from, to) => renameSync(from, to),
    mkdir: (path) => {
      mkdirSync(path, { recursive: true });
    },
    readdir: (path) => readdirSync(path),
    unlink: (path) => unlinkSync(path),
  };
}
