import { basename, dirname, join } from "node:path";

/** A marketplace file, relative to the marketplace root. */
export const MARKETPLACE_FILE = join(".claude-plugin", "marketplace.json");

/** Entry fields about the listing itself, not the plugin: left out of the manifest overlay. */
export const MARKETPLACE_ONLY_FIELDS = ["source", "category", "tags", "strict"] as const;

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
