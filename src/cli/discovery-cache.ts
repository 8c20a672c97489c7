import { basename, join } from "node:path";

/** The environment switch that turns the CLI's discovery cache off (`off`, `0` or `false`). */
export const DISCOVERY_CACHE_ENV = "SKILLWRIGHT_DISCOVERY_CACHE";

/**
 * Where the CLI keeps parsed skill heads for the project at `cwd`, and the key that ties them to this build:
 * `~/.skillwright/cache/discovery/{dir name}-{hash of cwd}.json`. Undefined (no cache) when the build is
 * unknown or the environment turns the cache off. Pure.
 */
export function discoveryCacheFor(input: {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  version: string | undefined;
  buildId: string | undefined;
}): { file: string; key: string } | undefined {
  const setting = input.env[DISCOVERY_CACHE_ENV]?.trim().toLowerCase();
  if (input.buildId === undefined || setting === "off" || setting === "0" || setting === "false") {
    return undefined;
  }
  const label =
    basename(input.cwd)
      .replace(/[^\w.-]/g, "_")
      .slice(0, 40) || "root";
  return {
    file: join(input.home, ".skillwright", "cache", "discovery", `${label}-${fnv1a(input.cwd)}.json`),
    key: `${input.version ?? "unknown"}+${input.buildId}`,
  };
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits: a file name, not a security boundary. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
