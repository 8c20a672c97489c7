// The part of the `semver` package (npm's own range rules, which Claude Code resolves plugin dependencies with)
// that src/install/plugin-versions.ts uses; the package ships no types.
declare module "semver" {
  interface RangeOptions {
    includePrerelease?: boolean;
  }
  /** The normalized version, or null when `version` is not one. */
  export function valid(version: string): string | null;
  /** The normalized range, or null when `range` is not one. */
  export function validRange(range: string, options?: RangeOptions): string | null;
  export function satisfies(version: string, range: string, options?: RangeOptions): boolean;
  /** Sorted highest first. */
  export function rsort(versions: string[]): string[];
  const semver: {
    valid: typeof valid;
    validRange: typeof validRange;
    satisfies: typeof satisfies;
    rsort: typeof rsort;
  };
  export default semver;
}
