/** Most lines of text a tool hands the model in one result. */
export const DEFAULT_MAX_LINES = 2_000;

/** Most bytes (UTF-8) of text a tool hands the model in one result. */
export const DEFAULT_MAX_BYTES = 50 * 1024;

/** How much text may be kept. */
export interface TruncationLimits {
  maxLines: number;
  maxBytes: number;
}

/** The default limits, `DEFAULT_MAX_LINES` and `DEFAULT_MAX_BYTES`. */
export const DEFAULT_LIMITS: Readonly<TruncationLimits> = Object.freeze({
  maxLines: DEFAULT_MAX_LINES,
  maxBytes: DEFAULT_MAX_BYTES,
});

/** What a truncation kept and what it cut, so a tool can tell the model. */
export interface Truncation {
  /** The kept text. */
  text: string;
  truncated: boolean;
  /** The limit that cut the text, when one did. */
  truncatedBy: "lines" | "bytes" | undefined;
  totalLines: number;
  totalBytes: number;
  /** Lines kept, counting a partly kept line. */
  keptLines: number;
  keptBytes: number;
  /** True when a single line was longer than `maxBytes` and only part of it is kept. */
  partialLine: boolean;
}

/**
 * Splits text into lines on `\n`. A trailing newline ends the last line rather than starting an empty one,
 * so `"a\nb\n"` has 2 lines and `""` has 0.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** The number of UTF-8 bytes of `text`. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8Head(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && isContinuationByte(bytes[end])) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8Tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - Math.max(0, maxBytes);
  while (start < bytes.length && isContinuationByte(bytes[start])) start++;
  return bytes.subarray(start).toString("utf8");
}

function untruncated(text: string, lines: number, bytes: number): Truncation {
  return {
    text,
    truncated: false,
    truncatedBy: undefined,
    totalLines: lines,
    totalBytes: bytes,
    keptLines: lines,
    keptBytes: bytes,
    partialLine: false,
  };
}

/**
 * Keeps the start of `text`: whole lines while both limits hold. When the first line alone is over
 * `maxBytes`, keeps as much of it as fits (`partialLine`). A kept text never ends inside a character.
 */
export function truncateHead(text: string, limits: TruncationLimits = DEFAULT_LIMITS): Truncation {
  return truncate(text, limits, "head");
}

/**
 * Keeps the end of `text` (for command output, where the last lines matter most): whole lines while both
 * limits hold. When the last line alone is over `maxBytes`, keeps its end (`partialLine`).
 */
export function truncateTail(text: string, limits: TruncationLimits = DEFAULT_LIMITS): Truncation {
  return truncate(text, limits, "tail");
}

function truncate(text: string, limits: TruncationLimits, from: "head" | "tail"): Truncation {
  const lines = splitLines(text);
  const totalBytes = byteLength(text);
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) {
    return untruncated(text, lines.length, totalBytes);
  }
  const ordered = from === "head" ? lines : [...lines].reverse();
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (const line of ordered) {
    if (kept.length >= limits.maxLines) break;
    const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > limits.maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  let partialLine = false;
  const first = ordered[0];
  if (kept.length === 0 && first !== undefined && limits.maxLines > 0) {
    kept.push(from === "head" ? cutUtf8Head(first, limits.maxBytes) : cutUtf8Tail(first, limits.maxBytes));
    partialLine = true;
  }
  if (from === "tail") kept.reverse();
  const keptText = kept.join("\n");
  return {
    text: keptText,
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    keptLines: kept.length,
    keptBytes: byteLength(keptText),
    partialLine,
  };
}

/** Cuts one line to `maxChars` characters, saying how long it was. */
export function truncateLine(line: string, maxChars: number): { text: string; truncated: boolean } {
  if (line.length <= maxChars) return { text: line, truncated: false };
  const code = line.charCodeAt(maxChars - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars;
  return { text: `${line.slice(0, end)}… [line truncated, ${line.length} chars]`, truncated: true };
}

/** A byte count for people: `812 B`, `50.0 KB`, `3.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
