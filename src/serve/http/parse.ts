import type { Context } from "hono";
import type { z } from "zod";
import { invalid, notImplemented } from "../errors.js";
import { type UnstorableField, unstorableIn } from "../store/storable-text.js";

/** The zod issues as one readable line: `field.path: message; …`. Pure. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** What a 400 says of client text that cannot be stored, naming where it is (`where`: a field, a parameter). Pure. */
export function unstorableMessage(where: string, found: UnstorableField): string {
  const what =
    found.reason === "NUL"
      ? "a NUL character (\\u0000)"
      : "a lone surrogate (half of a UTF-16 pair, with no UTF-8 form)";
  return `${where}: holds ${what}, which cannot be stored: remove it`;
}

/**
 * The one check of client text before it can reach the database: refuses (400, naming the field) a NUL or a
 * lone surrogate anywhere in `value` (every string and key at any depth), which PostgreSQL's `text` and
 * `jsonb` cannot hold. `where` names `value` itself (a field, a parameter); its inner fields are named by
 * their path under it. Pure.
 */
export function checkStorable(value: unknown, where: string): void {
  const found = unstorableIn(value);
  if (found === undefined) return;
  throw invalid(unstorableMessage(found.path === "" ? where : found.path, found));
}

/**
 * Refuses (400, see {@link checkStorable}) a request whose path segments or query parameters (names and
 * values, decoded) hold a NUL or a lone surrogate: they reach the database as `text` parameters.
 */
export function checkStorableUrl(c: Context): void {
  // A NUL reaches a URL only percent-encoded (a raw one is refused by the HTTP parser), a lone surrogate never.
  if (!c.req.url.includes("%")) return;
  const url = new URL(c.req.url);
  for (const segment of url.pathname.split("/")) checkStorable(decodedSegment(segment), "the request path");
  for (const [name, value] of url.searchParams) {
    checkStorable(name, "a query parameter's name");
    checkStorable(value, `the query parameter ${name}`);
  }
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Parses the JSON body against `schema` (strict: unknown fields are refused); a 400 says what is wrong: not
 * JSON, text that cannot be stored ({@link checkStorable}, naming its field), or what the schema refuses.
 */
export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw invalid("the request body is not valid JSON");
  }
  checkStorable(raw, "the request body");
  const result = schema.safeParse(raw);
  if (!result.success) throw invalid(describeIssues(result.error.issues));
  return result.data;
}

/**
 * Refuses (501) a request that sets any of `names`: query parameters of the SDK's `call` (e.g.
 * `sessions.list`) that serve does not implement, rather than answering as if they were not there.
 */
export function refuseUnservedQuery(c: Context, call: string, names: readonly string[]): void {
  // An array parameter comes as `name[]` from the SDK.
  const name = names.find((n) => c.req.query(n) !== undefined || c.req.query(`${n}[]`) !== undefined);
  if (name !== undefined) throw notImplemented(`the ${call} parameter ${name}`);
}

/** A boolean query parameter (`true`/`false`); anything else is a 400. */
export function boolQuery(c: Context, name: string): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw invalid(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** Applies a metadata patch: a string sets a key, null deletes it. Pure. */
export function patchMetadata(
  current: Record<string, string>,
  patch: Record<string, string | null> | null | undefined,
): Record<string, string> {
  if (patch === undefined) return current;
  if (patch === null) return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
