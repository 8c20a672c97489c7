import { join } from "node:path";

/** The environment switch that turns the CLI's discovery cache off (`off`, `0` or `false`). */
export const DISCOVERY_CACHE_ENV = "SKILLWRIGHT_DISCOVERY_CACHE";

/**
 * Where the CLI keeps parsed skill heads (`~/.skillwright/cache/discovery`, one file per project, see
 * `discovery/cache-file.ts`) and the key that ties them to this build. Undefined (no cache) when the build is
 * unknown or the environment turns the cache off. Pure.
 */
export function discoveryCacheFor(input: {
  home: string;
  env: Record<string, string | undefined>;
  version: string | undefined;
  buildId: string | undefined;
}): { dir: string; key: string } | undefined {
  const setting = input.env[DISCOVERY_CACHE_ENV]?.trim().toLowerCase();
  if (input.buildId === undefined || setting === "off" || setting === "0" || setting === "false") {
    return undefined;
  }
  return {
    dir: join(input.home, ".skillwright", "cache", "discovery"),
    key: `${input.version ?? "unknown"}+${input.buildId}`,
  };
}
