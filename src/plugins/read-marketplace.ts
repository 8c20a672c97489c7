import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { readJsonFile } from "./json-file.js";
import type { LoadedMarketplace } from "./marketplace.js";

/** Reads and parses a marketplace file (zod loads only for a file that exists). Never throws; a missing file gives no marketplace and no diagnostic. */
export async function readMarketplace(
  fs: FsOps,
  file: string,
): Promise<{ marketplace?: LoadedMarketplace; diagnostics: Diagnostic[]; missing?: boolean }> {
  const read = await readJsonFile(fs, file, "plugin-invalid");
  if (read.kind === "missing") return { diagnostics: [], missing: true };
  if (read.kind === "invalid") return { diagnostics: [read.diagnostic] };
  const { parseMarketplace } = await import("./parse-marketplace.js");
  return parseMarketplace(read.value, file);
}
