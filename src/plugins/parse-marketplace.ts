import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { lazy } from "../lazy.js";
import { resolvePluginPath } from "./manifest.js";
import {
  type LoadedMarketplace,
  MARKETPLACE_ONLY_FIELDS,
  type MarketplacePlugin,
  marketplaceRoot,
} from "./marketplace.js";

// The zod side of marketplace files, loaded only when one is read (plugins/read-marketplace.ts).

/** One `plugins[]` entry's schema, built on first use. */
export const marketplaceEntrySchema = lazy(() =>
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

/** An `extraKnownMarketplaces` source that is read from disk (`directory` or `file`), built on first use. */
export const localMarketplaceSourceSchema = lazy(() =>
  z.looseObject({
    source: z.enum(["directory", "file"]),
    path: z.string().min(1),
  }),
);
/** An `extraKnownMarketplaces` entry: any `source` object with a `source` kind, built on first use. */
export const knownMarketplaceSchema = lazy(() =>
  z.looseObject({ source: z.looseObject({ source: z.string() }) }),
);
