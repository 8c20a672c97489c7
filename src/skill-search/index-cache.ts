import { dirname } from "node:path";
import { pruneCacheDir } from "../discovery/cache-prune.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import type { LexicalIndex } from "./lexical-index.js";

/*
 * The search index kept between runs, beside the discovery cache (`~/.skillwright/cache/search/`, one file per
 * project). One file: a 4-byte little-endian header length, the header as JSON (format, key, the skills' head
 * signature and each skill's stamp, names, terms), padding to 4 bytes, then the index's three arrays as raw
 * little-endian words. Loading is one read, one `JSON.parse` of the header and three views on the bytes.
 * Trusted only when format, key, signature and every stamp match the skills now; a file that is short, long,
 * malformed or whose postings point outside the index reads as absent, and the index is rebuilt.
 */

/** Bump when the layout or the analysis (stemmer, stop words, field weights) changes. */
export const INDEX_CACHE_FORMAT = 1;
/** How an index cache file's name ends. */
export const INDEX_CACHE_SUFFIX = ".idx";
/** A cache file larger than this is not read. */
export const MAX_INDEX_CACHE_BYTES = 256_000_000;

/** Where an index cache lives and what ties it to this build. */
export interface IndexCacheOptions {
  fs: FsOps;
  /** The cache file. */
  file: string;
  /** Files written under another key are ignored: pass the version and the build identity. */
  key: string;
}

/** What must match for a cached index to be used. */
export interface IndexStamp {
  /** A hash of every skill's name and searchable head fields, in order. */
  signature: string;
  /** One per skill, in order: what says its body is unchanged (a file's identity, size and times). */
  stamps: readonly string[];
}

interface Header {
  format: number;
  key: string;
  signature: string;
  stamps: string[];
  names: string[];
  terms: string[];
  postings: number;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function readHeader(value: unknown): Header | undefined {
  if (!isRecord(value)) return undefined;
  const { format, key, signature, stamps, names, terms, postings } = value;
  if (typeof format !== "number" || typeof key !== "string" || typeof signature !== "string")
    return undefined;
  if (!isStringArray(stamps) || !isStringArray(names) || !isStringArray(terms)) return undefined;
  if (typeof postings !== "number" || !Number.isSafeInteger(postings) || postings < 0) return undefined;
  return { format, key, signature, stamps, names, terms, postings };
}

const pad4 = (n: number) => (n + 3) & ~3;

/** The bytes of a cache file for an index. Pure. */
export function encodeIndexCache(index: LexicalIndex, key: string, stamp: IndexStamp): Uint8Array {
  const header: Header = {
    format: INDEX_CACHE_FORMAT,
    key,
    signature: stamp.signature,
    stamps: [...stamp.stamps],
    names: [...index.names],
    terms: [...index.terms],
    postings: index.docs.length,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = pad4(4 + json.length);
  const bytes = new Uint8Array(start + 4 * (index.offsets.length + 2 * index.docs.length));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, json.length, true);
  bytes.set(json, 4);
  let at = start;
  for (const array of [index.offsets, index.docs, index.weights]) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  return bytes;
}

/**
 * The index in cache bytes when they were written for `key` and `stamp` and hold together; undefined otherwise
 * (never throws). The arrays are copies (aligned), not views on `bytes`. Pure.
 */
export function decodeIndexCache(
  bytes: Uint8Array,
  key: string,
  stamp: IndexStamp,
): LexicalIndex | undefined {
  if (bytes.length < 4) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  if (4 + length > bytes.length) return undefined;
  let header: Header | undefined;
  try {
    header = readHeader(JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))));
  } catch {
    return undefined;
  }
  if (header === undefined || header.format !== INDEX_CACHE_FORMAT || header.key !== key) return undefined;
  if (header.signature !== stamp.signature || header.stamps.length !== stamp.stamps.length) return undefined;
  if (header.stamps.some((s, i) => s !== stamp.stamps[i]) || header.names.length !== stamp.stamps.length) {
    return undefined;
  }
  const start = pad4(4 + length);
  const words = header.terms.length + 1 + 2 * header.postings;
  if (bytes.length !== start + 4 * words) return undefined;
  // One aligned copy of the array part; the three arrays are views on it.
  const body = bytes.slice(start).buffer;
  const offsets = new Int32Array(body, 0, header.terms.length + 1);
  const docs = new Int32Array(body, 4 * offsets.length, header.postings);
  const weights = new Float32Array(body, 4 * (offsets.length + header.postings), header.postings);
  if (offsets[0] !== 0 || offsets[header.terms.length] !== header.postings) return undefined;
  for (let t = 0; t < header.terms.length; t += 1) {
    if ((offsets[t] ?? 0) > (offsets[t + 1] ?? 0)) return undefined;
  }
  const total = header.names.length;
  for (let p = 0; p < docs.length; p += 1) {
    const doc = docs[p] ?? -1;
    if (doc < 0 || doc >= total || !Number.isFinite(weights[p] ?? Number.NaN)) return undefined;
  }
  return { names: header.names, terms: header.terms, offsets, docs, weights };
}

/** Reads the cached index for `stamp`; a missing, unreadable, stale or corrupt file reads as undefined. */
export async function loadIndexCache(
  options: IndexCacheOptions,
  stamp: IndexStamp,
): Promise<LexicalIndex | undefined> {
  try {
    const { size } = await options.fs.stat(options.file);
    if (size > MAX_INDEX_CACHE_BYTES) return undefined;
    return decodeIndexCache(await options.fs.readBytes(options.file), options.key, stamp);
  } catch {
    return undefined;
  }
}

/**
 * Writes the index atomically (the dir made first), then removes the cache files of other projects not written
 * for a month (`pruneCacheDir`, at `now`). A failure costs only speed: it resolves false.
 */
export async function saveIndexCache(
  options: IndexCacheOptions,
  index: LexicalIndex,
  stamp: IndexStamp,
  now: number,
): Promise<boolean> {
  try {
    await options.fs.mkdir(dirname(options.file));
    await writeFileAtomic(options.fs, options.file, encodeIndexCache(index, options.key, stamp));
    await pruneCacheDir(options.fs, dirname(options.file), options.file, now, INDEX_CACHE_SUFFIX);
    return true;
  } catch {
    return false;
  }
}
