import { isRecord } from "../is-record.js";
import { satisfiesRange, type VersionConstraint } from "./plugin-versions.js";

/** A dependency as a manifest or marketplace entry declares it: a name, or `{ name, version?, marketplace? }`. */
export interface DeclaredDependency {
  name: string;
  /** A semver range over the dependency's release tags. */
  range?: string;
  /** Another marketplace to find it in (only when the root marketplace allows it). */
  marketplace?: string;
}

/**
 * Reads a `dependencies` array (Claude Code's form: a plugin name, `name@marketplace`, or an object with `name`,
 * optional `version` and `marketplace`). Returns an error value naming the first entry it cannot read. Pure.
 */
export function parseDependencies(raw: unknown): { dependencies: DeclaredDependency[] } | { error: string } {
  if (raw === undefined) return { dependencies: [] };
  if (!Array.isArray(raw)) return { error: "`dependencies` must be an array" };
  const dependencies: DeclaredDependency[] = [];
  for (const [index, item] of raw.entries()) {
    if (typeof item === "string" && item !== "") {
      const at = item.lastIndexOf("@");
      dependencies.push(
        at > 0 ? { name: item.slice(0, at), marketplace: item.slice(at + 1) } : { name: item },
      );
      continue;
    }
    if (!isRecord(item) || typeof item.name !== "string" || item.name === "") {
      return { error: `dependencies[${index}] needs a plugin name` };
    }
    if (item.version !== undefined && typeof item.version !== "string") {
      return { error: `dependencies[${index}].version must be a string` };
    }
    if (item.marketplace !== undefined && typeof item.marketplace !== "string") {
      return { error: `dependencies[${index}].marketplace must be a string` };
    }
    dependencies.push({
      name: item.name,
      ...(item.version === undefined ? {} : { range: item.version }),
      ...(item.marketplace === undefined ? {} : { marketplace: item.marketplace }),
    });
  }
  return { dependencies };
}

/** One plugin at the release chosen for it: where its files are and what it depends on. */
export interface Release {
  name: string;
  marketplace: string;
  /** The tagged version, or the manifest's when the release is the marketplace's listed copy. */
  version?: string;
  /** The release tag, when a range chose one. */
  tag?: string;
  commit?: string;
  /** The plugin's folder, ready to copy. */
  dir: string;
  dependencies: DeclaredDependency[];
}

/** A resolution that cannot succeed, with one line naming the plugins. */
export class ResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResolveError";
  }
}

/** What resolving needs: each plugin's release under its constraints, and the root marketplace's allow list. */
export interface ResolveSteps {
  /** The release of `name` in `marketplace` that meets every constraint; throws {@link ResolveError} if none. */
  release(name: string, marketplace: string, constraints: readonly VersionConstraint[]): Promise<Release>;
  /** `allowCrossMarketplaceDependenciesOn` of the root marketplace. */
  crossMarketplaceAllowed: readonly string[];
  /** Constraints already in force, from installed plugins that are not being replaced (by plugin name). */
  held: ReadonlyMap<string, readonly VersionConstraint[]>;
}

/**
 * Resolves a plugin and its dependencies, depth first, as Claude Code does: a dependency is found in the
 * declaring plugin's marketplace (another one only when the root marketplace's
 * `allowCrossMarketplaceDependenciesOn` names it), at the highest release tag meeting every range asked of it
 * (installed plugins' included). Returns the releases with each plugin after its dependencies. Throws
 * {@link ResolveError} for a cycle (naming the plugins around it), a range no release meets, a conflict between
 * ranges, or a dependency in a marketplace not allowed.
 */
export async function resolvePlugins(
  root: { name: string; marketplace: string; range?: string },
  steps: ResolveSteps,
): Promise<Release[]> {
  const asked = new Map<string, VersionConstraint[]>();
  const chosen = new Map<string, Release>();
  const order: Release[] = [];
  const stack: string[] = [];
  const visit = async (
    name: string,
    marketplace: string,
    constraint: VersionConstraint | undefined,
  ): Promise<void> => {
    const cycleAt = stack.indexOf(name);
    if (cycleAt >= 0) {
      throw new ResolveError(`dependency cycle: ${[...stack.slice(cycleAt), name].join(" → ")}`);
    }
    if (constraint !== undefined) asked.set(name, [...(asked.get(name) ?? []), constraint]);
    const done = chosen.get(name);
    if (done !== undefined) {
      if (constraint === undefined) return;
      if (done.version === undefined || !satisfiesRange(done.version, constraint.range)) {
        throw new ResolveError(
          `range-conflict: ${name} ${done.version ?? "(untagged)"} was chosen, but ${constraint.by} needs ${constraint.range}`,
        );
      }
      return;
    }
    stack.push(name);
    const release = await steps.release(name, marketplace, [
      ...(steps.held.get(name) ?? []),
      ...(asked.get(name) ?? []),
    ]);
    chosen.set(name, release);
    for (const dependency of release.dependencies) {
      const where = dependency.marketplace ?? marketplace;
      if (where !== root.marketplace && !steps.crossMarketplaceAllowed.includes(where)) {
        throw new ResolveError(
          `cross-marketplace: ${name} depends on ${dependency.name}@${where}, and marketplace "${root.marketplace}" does not list "${where}" in allowCrossMarketplaceDependenciesOn`,
        );
      }
      await visit(
        dependency.name,
        where,
        dependency.range === undefined ? undefined : { range: dependency.range, by: name },
      );
    }
    stack.pop();
    order.push(release);
  };
  await visit(
    root.name,
    root.marketplace,
    root.range === undefined ? undefined : { range: root.range, by: "--version" },
  );
  return order;
}
