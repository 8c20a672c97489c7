/** True for a plain JSON-style object: not null, not an array. The one shape check for parsed JSON and YAML. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
