import { invalid } from "../errors.js";

/** A list page as the SDK's `PageCursor` reads it. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
  next_page: string | null;
  prev_page: null;
}

/** Where a page starts: after the row with sequence number `after` (undefined: from the start). */
export interface PageRequest {
  limit: number;
  after: number | undefined;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Parses `limit` and `page` query parameters; a bad value is a 400 naming it. Pure. */
export function pageRequest(limit: string | undefined, page: string | undefined): PageRequest {
  let n = DEFAULT_LIMIT;
  if (limit !== undefined) {
    n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
      throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`);
    }
  }
  return { limit: n, after: page === undefined || page === "" ? undefined : decodeCursor(page) };
}

/** The opaque `next_page` cursor for a row's sequence number. */
export function encodeCursor(seq: number): string {
  return `page_${Buffer.from(`s${seq}`).toString("base64url")}`;
}

function decodeCursor(page: string): number {
  const decoded = page.startsWith("page_") ? Buffer.from(page.slice(5), "base64url").toString() : "";
  const seq = Number(decoded.slice(1));
  if (!decoded.startsWith("s") || !Number.isSafeInteger(seq) || seq < 0) {
    throw invalid(`page ${JSON.stringify(page)} is not a cursor this server returned`);
  }
  return seq;
}

/**
 * Builds a page from rows fetched with `LIMIT limit + 1` (the extra row only says there is more). Pure.
 */
export function toPage<T extends { id: string }>(
  rows: readonly { item: T; seq: number }[],
  limit: number,
): Page<T> {
  const hasMore = rows.length > limit;
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return {
    data: kept.map((row) => row.item),
    has_more: hasMore,
    first_id: kept[0]?.item.id ?? null,
    last_id: last?.item.id ?? null,
    next_page: hasMore && last !== undefined ? encodeCursor(last.seq) : null,
    prev_page: null,
  };
}
