import { promisify } from "node:util";
import { inflateRaw } from "node:zlib";
import { ApiError, invalid } from "../errors.js";
import { UPLOAD_LIMITS } from "./limits.js";

/** One file of a zip archive. */
export interface ZipEntry {
  name: string;
  content: Uint8Array;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const UNIX_HOST = 3;
const inflate = promisify(inflateRaw);

function tooLarge(message: string): ApiError {
  return new ApiError("request_too_large", message);
}

/**
 * Reads a zip archive's files, refusing what could exhaust the server before inflating anything: more than
 * `maxFiles` entries, a declared total over `maxTotalBytes`, an entry whose size over its compressed size is
 * above `maxRatio` (a zip bomb), symlinks, encryption, zip64. Each entry inflates with its declared size as a
 * hard cap, so an entry that lies about its size fails instead of growing. Directory entries are skipped.
 * Entries inflate one after another on libuv's thread pool, never on the main thread.
 */
export async function readZip(zip: Uint8Array): Promise<ZipEntry[]> {
  const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = view.length - 22; i >= Math.max(0, view.length - 22 - 65_535); i--) {
    if (view.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalid("the upload is not a zip archive (no end of central directory)");
  const count = view.readUInt16LE(eocd + 10);
  const cdOffset = view.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw invalid("zip64 archives are not supported");
  if (count > UPLOAD_LIMITS.maxFiles) {
    throw invalid(`the zip holds ${count} entries; a skill may hold at most ${UPLOAD_LIMITS.maxFiles} files`);
  }
  const headers: { name: string; method: number; compressed: number; size: number; local: number }[] = [];
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > view.length || view.readUInt32LE(p) !== CENTRAL)
      throw invalid("the zip's directory is corrupt");
    const madeBy = view.readUInt16LE(p + 4) >> 8;
    const flags = view.readUInt16LE(p + 8);
    const method = view.readUInt16LE(p + 10);
    const compressed = view.readUInt32LE(p + 20);
    const size = view.readUInt32LE(p + 24);
    const nameLength = view.readUInt16LE(p + 28);
    const extraLength = view.readUInt16LE(p + 30);
    const commentLength = view.readUInt16LE(p + 32);
    const mode = view.readUInt32LE(p + 38) >>> 16;
    const local = view.readUInt32LE(p + 42);
    const name = view.toString("utf8", p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (madeBy === UNIX_HOST && (mode & S_IFMT) === S_IFLNK) {
      throw invalid(`zip entry ${JSON.stringify(name)} is a symlink; a skill's files must be regular files`);
    }
    if (name.endsWith("/")) continue;
    if ((flags & 1) !== 0) throw invalid(`zip entry ${JSON.stringify(name)} is encrypted`);
    if (method !== 0 && method !== 8) {
      throw invalid(
        `zip entry ${JSON.stringify(name)} uses compression method ${method}; only deflate and store`,
      );
    }
    if (size > UPLOAD_LIMITS.ratioFloorBytes && size > Math.max(compressed, 1) * UPLOAD_LIMITS.maxRatio) {
      throw tooLarge(
        `zip entry ${JSON.stringify(name)} inflates ${size} bytes from ${compressed} (over ${UPLOAD_LIMITS.maxRatio}:1): refused as a zip bomb`,
      );
    }
    total += size;
    if (total > UPLOAD_LIMITS.maxTotalBytes) {
      throw tooLarge(`the zip's files add up to more than ${UPLOAD_LIMITS.maxTotalBytes} bytes uncompressed`);
    }
    headers.push({ name, method, compressed, size, local });
  }
  const entries: ZipEntry[] = [];
  for (const entry of headers) {
    const at = entry.local;
    if (at + 30 > view.length || view.readUInt32LE(at) !== LOCAL) {
      throw invalid(`zip entry ${JSON.stringify(entry.name)} has no local header`);
    }
    const start = at + 30 + view.readUInt16LE(at + 26) + view.readUInt16LE(at + 28);
    const data = view.subarray(start, start + entry.compressed);
    if (data.length !== entry.compressed)
      throw invalid(`zip entry ${JSON.stringify(entry.name)} is truncated`);
    let content: Uint8Array;
    if (entry.method === 0) content = data;
    else {
      try {
        content = await inflate(data, { maxOutputLength: Math.max(entry.size, 1) });
      } catch {
        throw invalid(
          `zip entry ${JSON.stringify(entry.name)} does not inflate to its declared ${entry.size} bytes`,
        );
      }
    }
    if (content.length !== entry.size) {
      throw invalid(
        `zip entry ${JSON.stringify(entry.name)} does not inflate to its declared ${entry.size} bytes`,
      );
    }
    entries.push({ name: entry.name, content });
  }
  return entries;
}
