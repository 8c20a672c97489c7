import { basename, dirname, join } from "node:path";
import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { readJsonFile } from "./json-file.js";
import { resolvePluginPath } from "./manifest.js";

/** A marketplace file, relative to the marketplace root. */
export const MARKETPLACE_FILE = join(".claude-plugin", "marketplace.json");

/** Entry fields about the listing itself, not the plugin: left out of the manifest overlay. */
export const MARKETPLACE_ONLY_FIELDS = ["source", "category", "tags", "strict"] as const;

const marketplaceEntrySchema = lazy(() =>
  z.looseObject({
    name: z.string().min(1),
    source: z.union([z.string().min(1), z.looseObject({ source: z.string() })]),
  }),
);
/** One `plugins[]` entry: a name and where the plugin lives (a relative path, or a remote source object). */
export type MarketplaceEntry = z.infer<ReturnType<typeof marketplaceEntrySchema>>;

/** `.claude-plugin/marketplace.json` (Claude Code's format). Entries are checked one by one. */
const marketplaceSchema = lazy(() =>
  z.looseObject({
    name: z.string().min(1),
    metadata: z.looseObject({ pluginRoot: z.string().optional() }).optional(),
    plugins: z.array(z.unknown()),
  }),
);

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

/**
 * Validates parsed marketplace JSON. Never throws: a file without `name` or `plugins` is an error and no
 * marketplace; a bad entry is a warning and skipped; a relative source leading outside the marketplace root is
 * an error and the entry skipped; a second entry with a taken name is `shadowed`. `metadata.pluginRoot` is
 * prefixed to sources written without `./`. Pure.
 */
export function parseMarketplace(
  json: unknown,
  file: string,
): { marketplace?: LoadedMarketplace; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const parsed = marketplaceSchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    diagnostics.push(
      diagnostic(
        "error",
        "plugin-invalid",
        `invalid marketplace: ${where}${issue?.message ?? "invalid"}`,
        file,
      ),
    );
    return { diagnostics };
  }
  const root = marketplaceRoot(file);
  const pluginRoot = parsed.data.metadata?.pluginRoot;
  const plugins: MarketplacePlugin[] = [];
  parsed.data.plugins.forEach((raw, index) => {
    const entry = marketplaceEntrySchema().safeParse(raw);
    if (!entry.success) {
      diagnostics.push(
        diagnostic(
          "warning",
          "plugin-invalid",
          `plugins[${index}]: needs a \`name\` and a \`source\`; skipped`,
          file,
        ),
      );
      return;
    }
    const { name, source } = entry.data;
    if (plugins.some((p) => p.name === name)) {
      diagnostics.push(
        diagnostic("warning", "shadowed", `plugins[${index}]: "${name}" is listed twice; first wins`, file),
      );
      return;
    }
    const overlay: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry.data)) {
      if (!(MARKETPLACE_ONLY_FIELDS as readonly string[]).includes(key) && key !== "__proto__")
        overlay[key] = value;
    }
    if (typeof source !== "string") {
      plugins.push({ name, remote: source.source, overlay });
      return;
    }
    const relative =
      pluginRoot === undefined || source.startsWith("./") || source.startsWith("../")
        ? source
        : `${pluginRoot.replace(/\/+$/, "")}/${source}`;
    const resolved = resolvePluginPath(root, relative);
    if (!resolved.ok) {
      diagnostics.push(
        diagnostic("error", "plugin-invalid", `plugin "${name}": source ${resolved.reason}`, file),
      );
      return;
    }
    plugins.push({ name, root: resolved.path, overlay });
  });
  return { marketplace: { name: parsed.data.name, file, root, plugins }, diagnostics };
}

/** Reads and parses a marketplace file. Never throws; a missing file gives no marketplace and no diagnostic. */
export async function readMarketplace(
  fs: FsOps,
  file: string,
): Promise<{ marketplace?: LoadedMarketplace; diagnostics: Diagnostic[]; missing?: boolean }> {
  const read = await readJsonFile(fs, file, "plugin-invalid");
  if (read.kind === "missing") return { diagnostics: [], missing: true };
  if (read.kind === "invalid") return { diagnostics: [read.diagnostic] };
  return parseMarketplace(read.value, file);
}
