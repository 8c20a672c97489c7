import type { SqlRow } from "./driver.js";

/** A column as text (`""` when null): for ids and names the schema declares NOT NULL. */
export function text(row: SqlRow, column: string): string {
  const value = row[column];
  return value === null || value === undefined ? "" : String(value);
}

/** A nullable text column. */
export function textOrNull(row: SqlRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
}

/** A number column; `pg` returns bigint as a string, PGlite as a number. */
export function num(row: SqlRow, column: string): number {
  return Number(row[column]);
}

/** A timestamptz column as ISO 8601 (both drivers return a Date; a string is parsed). */
export function iso(row: SqlRow, column: string): string {
  const value = row[column];
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/** A nullable timestamptz column as ISO 8601. */
export function isoOrNull(row: SqlRow, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : iso(row, column);
}

/** A bytea column as bytes (`pg` returns a Buffer, PGlite a Uint8Array). */
export function bytes(row: SqlRow, column: string): Uint8Array {
  const value = row[column];
  return value instanceof Uint8Array ? value : new Uint8Array();
}

/** A jsonb column as a plain object (`{}` when it is not one). */
export function record(row: SqlRow, column: string): Record<string, unknown> {
  const value = row[column];
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}
