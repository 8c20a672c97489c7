import type { Context } from "hono";
import type { z } from "zod";
import { invalid, notImplemented } from "../errors.js";

/** The zod issues as one readable line: `field.path: message; …`. Pure. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Parses the JSON body against `schema` (strict: unknown fields are refused); a 400 says what is wrong. */
export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw invalid("the request body is not valid JSON");
  }
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
