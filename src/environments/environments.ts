import { join } from "node:path";
import type { FsOps } from "../io/fs.js";
import { UnknownEnvironmentError } from "./unknown-environment-error.js";

/** A named environment: a folder holding `settings.json`, `agents/` and `skills/` (SPEC §17). */
export interface EnvironmentRef {
  name: string;
  /** `~/.skillwright/environments/{name}`. */
  dir: string;
}

/** Where named environments live: `{home}/.skillwright/environments`. Pure. */
export function environmentsDir(home: string): string {
  return join(home, ".skillwright", "environments");
}

/** True when `name` can name an environment folder: one plain path segment, not hidden. Pure. */
export function isEnvironmentName(name: string): boolean {
  return name !== "" && !name.startsWith(".") && !/[/\\\0]/.test(name);
}

/** The environments that exist (the non-hidden folders of {@link environmentsDir}), sorted. Never throws. */
export async function listEnvironments(fs: FsOps, home: string): Promise<string[]> {
  const entries = await fs.readdir(environmentsDir(home)).catch(() => []);
  const names: string[] = [];
  for (const entry of entries) {
    if (!isEnvironmentName(entry.name)) continue;
    const kind =
      entry.kind === "symlink"
        ? await fs.stat(join(environmentsDir(home), entry.name)).then(
            (s) => s.kind,
            () => undefined,
          )
        : entry.kind;
    if (kind === "dir") names.push(entry.name);
  }
  return names.sort();
}

/**
 * The environment called `name`. Rejects with {@link UnknownEnvironmentError} (listing the ones that exist) when
 * there is no such folder or the name is not one plain segment.
 */
export async function resolveEnvironment(fs: FsOps, home: string, name: string): Promise<EnvironmentRef> {
  const available = await listEnvironments(fs, home);
  if (!isEnvironmentName(name) || !available.includes(name)) {
    throw new UnknownEnvironmentError(name, available, environmentsDir(home));
  }
  return { name, dir: join(environmentsDir(home), name) };
}
