import type { Context } from "hono";
import { invalid } from "../errors.js";

/** `view=basic|full` (absent: `fallback`); anything else is a 400. */
export function viewQuery(c: Context, fallback: "basic" | "full"): boolean {
  const view = c.req.query("view") ?? fallback;
  if (view !== "basic" && view !== "full")
    throw invalid(`view must be basic or full, got ${JSON.stringify(view)}`);
  return view === "full";
}

/** An RFC 3339 time query parameter (`created_at[gte]`, …) as ISO 8601, or undefined; a bad one is a 400. */
export function timeQuery(c: Context, name: string): string | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw invalid(`${name} must be an RFC 3339 time, got ${JSON.stringify(value)}`);
  return time.toISOString();
}

/** The most items a list page with `view=full` holds, as the API caps it. */
export const FULL_VIEW_LIMIT = 20;
