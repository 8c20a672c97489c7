import { describe, expect, it } from "vitest";
import {
  type DeclaredDependency,
  parseDependencies,
  type Release,
  ResolveError,
  type ResolveSteps,
  resolvePlugins,
} from "../../src/install/plugin-resolve.js";
import { pickVersion, type VersionConstraint } from "../../src/install/plugin-versions.js";

/** A marketplace in memory: each plugin's tagged versions and what each version depends on. */
function steps(
  catalog: Record<string, Record<string, DeclaredDependency[]>>,
  options: { allowed?: string[]; held?: Map<string, VersionConstraint[]> } = {},
): ResolveSteps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    crossMarketplaceAllowed: options.allowed ?? [],
    held: options.held ?? new Map(),
    async release(name, marketplace, constraints): Promise<Release> {
      asked.push(`${name}@${marketplace}`);
      const versions = catalog[`${name}@${marketplace}`];
      if (versions === undefined) throw new ResolveError(`no ${name}@${marketplace}`);
      const pick = pickVersion(Object.keys(versions), constraints);
      if (pick.kind !== "version") throw new ResolveError(`${name}: ${pick.kind}`);
      return {
        name,
        marketplace,
        version: pick.version,
        dir: `/x/${name}`,
        dependencies: versions[pick.version] ?? [],
      };
    },
  };
}

const names = (releases: Release[]) => releases.map((r) => `${r.name}@${r.version}`);

describe("resolvePlugins", () => {
  it("puts dependencies first, at the highest version every range allows (held ranges too)", async () => {
    const s = steps(
      {
        "app@m": { "1.0.0": [{ name: "lib", range: "^2.0" }, { name: "log" }] },
        "lib@m": { "2.0.0": [], "2.1.5": [], "2.2.0": [], "3.0.0": [] },
        "log@m": { "0.1.0": [] },
      },
      { held: new Map([["lib", [{ range: "~2.1", by: "other" }]]]) },
    );
    expect(names(await resolvePlugins({ name: "app", marketplace: "m" }, s))).toEqual([
      "lib@2.1.5",
      "log@0.1.0",
      "app@1.0.0",
    ]);
  });

  it("names the plugins around a cycle, a range conflict, and a marketplace not allowed", async () => {
    const cycle = steps({
      "a@m": { "1.0.0": [{ name: "b" }] },
      "b@m": { "1.0.0": [{ name: "c" }] },
      "c@m": { "1.0.0": [{ name: "b" }] },
    });
    await expect(resolvePlugins({ name: "a", marketplace: "m" }, cycle)).rejects.toThrow(
      "dependency cycle: b → c → b",
    );
    const conflict = steps({
      "a@m": { "1.0.0": [{ name: "b" }, { name: "c" }] },
      "b@m": { "1.0.0": [{ name: "d", range: "~2.1" }] },
      "c@m": { "1.0.0": [{ name: "d", range: "~3.0" }] },
      "d@m": { "2.1.0": [], "3.0.0": [] },
    });
    await expect(resolvePlugins({ name: "a", marketplace: "m" }, conflict)).rejects.toThrow(
      "range-conflict: d 2.1.0 was chosen, but c needs ~3.0",
    );
    const cross = { "a@m": { "1.0.0": [{ name: "x", marketplace: "other" }] }, "x@other": { "1.0.0": [] } };
    await expect(resolvePlugins({ name: "a", marketplace: "m" }, steps(cross))).rejects.toThrow(
      'cross-marketplace: a depends on x@other, and marketplace "m" does not list "other"',
    );
    expect(
      names(await resolvePlugins({ name: "a", marketplace: "m" }, steps(cross, { allowed: ["other"] }))),
    ).toEqual(["x@1.0.0", "a@1.0.0"]);
  });

  it("reads Claude Code's dependency forms and refuses what it cannot read", () => {
    expect(parseDependencies(["log", "x@other", { name: "lib", version: "~2.1.0" }])).toEqual({
      dependencies: [{ name: "log" }, { name: "x", marketplace: "other" }, { name: "lib", range: "~2.1.0" }],
    });
    expect(parseDependencies({ lib: "^1" })).toEqual({ error: "`dependencies` must be an array" });
    expect(parseDependencies([{ version: "1" }])).toEqual({ error: "dependencies[0] needs a plugin name" });
  });
});
