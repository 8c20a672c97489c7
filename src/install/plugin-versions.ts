import semver from "semver";

/** The separator of a plugin release tag: `{plugin}--v{version}` (Claude Code's convention). */
export const PLUGIN_TAG_SEPARATOR = "--v";

/** A plugin's release tag for a version. Pure. */
export function pluginTag(plugin: string, version: string): string {
  return `${plugin}${PLUGIN_TAG_SEPARATOR}${version}`;
}

/**
 * The versions a marketplace's tags release of `plugin`: each tag `{plugin}--v{semver}` (the whole plugin name
 * before the separator, so `a--v1.0.0` is not a release of `a-b`), highest first. Other tags are ignored. Pure.
 */
export function taggedVersions(plugin: string, tags: readonly string[]): string[] {
  const prefix = `${plugin}${PLUGIN_TAG_SEPARATOR}`;
  const versions = tags
    .filter((tag) => tag.startsWith(prefix))
    .map((tag) => tag.slice(prefix.length))
    .filter((version) => semver.valid(version) === version);
  return semver.rsort([...new Set(versions)]);
}

/** A range a plugin's version must satisfy, and who asked for it (`--version`, or the plugin that depends on it). */
export interface VersionConstraint {
  range: string;
  by: string;
}

/** The chosen version, or why none can be. */
export type VersionPick =
  | { kind: "version"; version: string }
  | { kind: "invalid-range"; constraint: VersionConstraint }
  | { kind: "none"; available: string[] };

/**
 * The highest of `versions` that satisfies every constraint (npm's range syntax: `^2.0`, `~2.1.0`, `>=1.4`,
 * `1.0.0 - 2.0.0`, `||`; a prerelease only when a range opts in with one), as Claude Code picks a dependency's
 * tag. Pure.
 */
export function pickVersion(
  versions: readonly string[],
  constraints: readonly VersionConstraint[],
): VersionPick {
  for (const constraint of constraints) {
    if (semver.validRange(constraint.range) === null) return { kind: "invalid-range", constraint };
  }
  const sorted = semver.rsort([...versions]);
  const found = sorted.find((v) => constraints.every((c) => semver.satisfies(v, c.range)));
  return found === undefined ? { kind: "none", available: sorted } : { kind: "version", version: found };
}

/** Whether a version satisfies a range (false for an invalid one). Pure. */
export function satisfiesRange(version: string, range: string): boolean {
  return semver.validRange(range) !== null && semver.satisfies(version, range);
}

/** Whether `range` is a range npm's rules read. Pure. */
export function isValidRange(range: string): boolean {
  return semver.validRange(range) !== null;
}
