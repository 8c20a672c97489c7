import { type Diagnostic, type DiagnosticCode, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";

/** Plugin JSON files (manifest, marketplace, hooks, MCP config) larger than this are refused. */
export const MAX_PLUGIN_JSON_BYTES = 1_000_000;

/** A JSON file read: its value, absent (ENOENT/ENOTDIR), or a problem already turned into a diagnostic. */
export type JsonFileResult =
  | { kind: "ok"; value: unknown }
  | { kind: "missing" }
  | { kind: "invalid"; diagnostic: Diagnostic };

/**
 * Reads and parses a JSON file (BOM stripped). Never throws: a missing file is `missing`; an unreadable,
 * oversized or malformed one is an error diagnostic with `code`.
 */
export async function readJsonFile(fs: FsOps, path: string, code: DiagnosticCode): Promise<JsonFileResult> {
  let text: string;
  try {
    const head = await fs.readHead(path, MAX_PLUGIN_JSON_BYTES);
    if (!head.complete) {
      return {
        kind: "invalid",
        diagnostic: diagnostic(
          "error",
          "file-too-large",
          `${head.size} bytes is over the ${MAX_PLUGIN_JSON_BYTES}-byte limit; skipped`,
          path,
        ),
      };
    }
    text = head.text;
  } catch (error) {
    const c = errorCode(error);
    if (c === "ENOENT" || c === "ENOTDIR") return { kind: "missing" };
    if (c === "EISDIR" || c === "ENOTREG") {
      return {
        kind: "invalid",
        diagnostic: diagnostic(
          "error",
          code,
          "expected a JSON file, found a directory or other non-file",
          path,
        ),
      };
    }
    return {
      kind: "invalid",
      diagnostic: diagnostic("error", "file-unreadable", `cannot read: ${errorMessage(error)}`, path),
    };
  }
  try {
    return { kind: "ok", value: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch (error) {
    return {
      kind: "invalid",
      diagnostic: diagnostic("error", code, `invalid JSON: ${errorMessage(error)}`, path),
    };
  }
}
