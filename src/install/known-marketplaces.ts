import { isAbsolute, join, resolve } from "node:path";
import * as z from "zod";
import { SHORTHAND_GIT_HOST } from "./install-source.js";

/** Where a registered marketplace comes from: a git repository (cloned, tags and all) or a folder read in place. */
export const MarketplaceSource = z.discriminatedUnion("source", [
  z.object({ source: z.literal("git"), url: z.string().min(1) }),
  z.object({ source: z.literal("directory"), path: z.string().min(1) }),
]);
export type MarketplaceSource = z.infer<typeof MarketplaceSource>;

/** A registered marketplace: its source, the folder its catalog is read from, when it was last fetched. */
export const KnownMarketplace = z.looseObject({
  source: MarketplaceSource,
  installLocation: z.string(),
  lastUpdated: z.string(),
});
export type KnownMarketplace = z.infer<typeof KnownMarketplace>;

const KnownMarketplaces = z.record(z.string(), KnownMarketplace);
export type KnownMarketplaces = z.infer<typeof KnownMarketplaces>;

/** `{home}/.skillwright/plugins`: the registered marketplaces' file and clones live here. Pure. */
export function pluginsHome(home: string): string {
  return join(home, ".skillwright", "plugins");
}

/** The registry file (Claude Code keeps its own in `~/.claude/plugins/known_marketplaces.json`). Pure. */
export function knownMarketplacesFile(home: string): string {
  return join(pluginsHome(home), "known_marketplaces.json");
}

/** Where a git marketplace named `name` is cloned. Pure. */
export function marketplaceCloneDir(home: string, name: string): string {
  return join(pluginsHome(home), "marketplaces", name);
}

/** Parses the registry's text; a missing file (`undefined`) is none; bad text is an error value. Pure. */
export function parseKnownMarketplaces(
  text: string | undefined,
): { marketplaces: KnownMarketplaces } | { error: string } {
  if (text === undefined) return { marketplaces: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = KnownMarketplaces.safeParse(json);
  if (parsed.success) return { marketplaces: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
}

/** The registry's text: names sorted, two-space JSON, a final newline. Pure. */
export function serializeKnownMarketplaces(marketplaces: KnownMarketplaces): string {
  const sorted = Object.fromEntries(
    Object.keys(marketplaces)
      .sort()
      .map((k) => [k, marketplaces[k]]),
  );
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * Reads `plugin marketplace add`'s argument: a local path (absolute, `./`, `../`, `~/`: a git repository there
 * is cloned, any other folder read in place, decided when it is read), an absolute git URL (`https://`, `ssh://`,
 * `git://`, `file://`, `git@host:path`), or `owner/repo` on GitHub. Pure.
 */
export function parseMarketplaceArgument(
  input: string,
  places: { cwd: string; home: string },
): { kind: "path"; path: string } | { kind: "git"; url: string } | { error: string } {
  const text = input.trim();
  if (text === "") return { error: "the marketplace source is empty" };
  if (text === "~" || text.startsWith("~/")) return { kind: "path", path: join(places.home, text.slice(2)) };
  if (isAbsolute(text) || text === "." || text.startsWith("./") || text.startsWith("../")) {
    return { kind: "path", path: resolve(places.cwd, text) };
  }
  if (/^(https?|ssh|git|file):\/\//.test(text) || /^[^@/\s]+@[^:/\s]+:/.test(text)) {
    return { kind: "git", url: text };
  }
  const shorthand = text.match(/^([A-Za-z0-9][\w.-]*)\/([\w.-]+?)(?:\.git)?$/);
  if (shorthand?.[1] !== undefined && shorthand[2] !== undefined) {
    return { kind: "git", url: `${SHORTHAND_GIT_HOST}/${shorthand[1]}/${shorthand[2]}.git` };
  }
  return {
    error: `cannot read "${input}" as a marketplace: give a local path (./dir), an absolute git URL, or owner/repo`,
  };
}
