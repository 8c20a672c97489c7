import { basename, dirname, join } from "node:path";
import type * as z from "zod";
import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { readJsonFile } from "./json-file.js";
import type { marketplaceEntrySchema } from "./parse-marketplace.js";

/** A marketplace file, relative to the marketplace root. */
export const MARKETPLACE_FILE = join(".claude-plugin", "marketplace.json");

/** Entry fields about the listing itself, not the plugin: left out of the manifest overlay. */
export const MARKETPLACE_ONLY_FIELDS = ["source", "category", "tags", "strict"] as const;

/** One `plugins[]` entry: a name and where the plugin lives (a relative path, or a remote source object). */
export type MarketplaceEntry = z.infer<ReturnType<typeof marketplaceEntrySchema>>;

/** A plugin listed by a marketplace. */
export interface MarketplacePlugin {
  name: string;
  /** The plugin dir for a relative `source`; undefined for remote sources. */
  root?: string;
  /** The kind of a remote source (`github`, `url`, `git-subdir`, `npm`, …). */
  remote?: string;
  /** The entry's manifest fields (see `LoadPluginOptions.overlay`). */
  overlay: Record<string, unknown>;
}

/** A parsed marketplace: its name, file, root and listed plugins in file order. */
export interface LoadedMarketplace {
  name: string;
  file: string;
  /** The dir relative sources are resolved against (the parent of `.claude-plugin/`). */
  root: string;
  plugins: MarketplacePlugin[];
}

/** The dir a marketplace file's relative sources start from: above `.claude-plugin/`, else its own dir. Pure. */
export function marketplaceRoot(file: string): string {
  const dir = dirname(file);
  return basename(dir) === ".claude-plugin" ? dirname(dir) : dir;
}

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
