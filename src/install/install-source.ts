import { isAbsolute, resolve } from "node:path";

/** The git host `owner/repo[/path]` shorthand points at. */
export const SHORTHAND_GIT_HOST = "https://github.com";

/**
 * Where `skillwright add` takes skills from. Each kind carries what its lock entry records: `lockSource` (the
 * entry's `source`), `sourceType`, and for git the clone URL and ref.
 */
export type InstallSource =
  | {
      kind: "git";
      /** The clone URL (any git remote: https, ssh, `file://`, a path to a repository). */
      url: string;
      /** A branch or tag (`url#ref`); the remote's default branch when absent. */
      ref?: string;
      /** A folder inside the repository to look in (`owner/repo/path`). */
      subpath?: string;
      /** `github` for github.com, else `git`. */
      sourceType: "github" | "git";
      lockSource: string;
      /** The entry's `sourceUrl`: written for generic git sources only, as the `skills` installer does. */
      sourceUrl?: string;
    }
  | { kind: "local"; path: string; sourceType: "local"; lockSource: string }
  | { kind: "npm"; spec: string; sourceType: "npm"; lockSource: string }
  | {
      kind: "marketplace";
      plugin: string;
      marketplace: string;
      sourceType: "marketplace";
      lockSource: string;
    };

function isLocalPath(input: string): boolean {
  return (
    isAbsolute(input) ||
    input === "." ||
    input === ".." ||
    input.startsWith("./") ||
    input.startsWith("../") ||
    input === "~" ||
    input.startsWith("~/")
  );
}

/** Whether a relative path stays inside its base: no `..` segment, not absolute. Pure. */
export function isContainedSubpath(subpath: string): boolean {
  if (isAbsolute(subpath) || subpath.startsWith("\\")) return false;
  return !subpath.split(/[/\\]/).some((segment) => segment === "..");
}

function splitRef(input: string): { base: string; ref?: string } {
  const hash = input.indexOf("#");
  if (hash < 0 || hash === input.length - 1) return { base: input };
  return { base: input.slice(0, hash), ref: decodeURIComponent(input.slice(hash + 1)) };
}

function githubSource(owner: string, repo: string, ref: string | undefined, subpath: string | undefined) {
  const name = repo.replace(/\.git$/, "");
  return {
    kind: "git" as const,
    url: `${SHORTHAND_GIT_HOST}/${owner}/${name}.git`,
    ...(ref === undefined ? {} : { ref }),
    ...(subpath === undefined || subpath === "" ? {} : { subpath }),
    sourceType: "github" as const,
    lockSource: `${owner}/${name}`,
  };
}

/**
 * Reads a source argument: `npm:<name>[@version]` or a path ending in `.tgz` (an npm package); a local path
 * (absolute, `./`, `../`, `~/`; a path to a bare repository is turned into a git source when it is read); a
 * git URL (`https://`, `http://`, `ssh://`, `git://`, `file://`, `git@host:path`, anything ending in `.git`),
 * with `#ref`; `plugin@marketplace`; `owner/repo[/path]` on github.com. Returns an error value for a subpath
 * that climbs out (`..`) or an input that is none of these. Pure (`home` and `cwd` resolve paths).
 */
export function parseInstallSource(
  input: string,
  places: { cwd: string; home: string },
): { source: InstallSource } | { error: string } {
  const text = input.trim();
  if (text === "") return { error: "the source is empty" };
  if (text.startsWith("npm:")) {
    const spec = text.slice(4);
    if (spec === "") return { error: "npm: needs a package name (npm:<name>[@version])" };
    const resolved = spec.endsWith(".tgz") && isLocalPath(spec) ? resolve(places.cwd, spec) : spec;
    return { source: { kind: "npm", spec: resolved, sourceType: "npm", lockSource: `npm:${resolved}` } };
  }
  if (isLocalPath(text)) {
    const path =
      text === "~"
        ? places.home
        : text.startsWith("~/")
          ? resolve(places.home, text.slice(2))
          : resolve(places.cwd, text);
    if (path.endsWith(".tgz")) {
      return { source: { kind: "npm", spec: path, sourceType: "npm", lockSource: `npm:${path}` } };
    }
    return { source: { kind: "local", path, sourceType: "local", lockSource: path } };
  }
  const { base, ref } = splitRef(text);
  const github = base.match(/^https?:\/\/github\.com\/([^/]+)\/([^/#]+?)(?:\.git)?\/?$/);
  if (github?.[1] !== undefined && github[2] !== undefined) {
    return { source: githubSource(github[1], github[2], ref, undefined) };
  }
  if (/^(https?|ssh|git|file):\/\//.test(base) || /^[^@/\s]+@[^:/\s]+:/.test(base) || base.endsWith(".git")) {
    return {
      source: {
        kind: "git",
        url: base,
        ...(ref === undefined ? {} : { ref }),
        sourceType: "git",
        lockSource: base,
        sourceUrl: base,
      },
    };
  }
  const market = base.match(/^([A-Za-z0-9][\w.-]*)@([A-Za-z0-9][\w.-]*)$/);
  if (market?.[1] !== undefined && market[2] !== undefined) {
    return {
      source: {
        kind: "marketplace",
        plugin: market[1],
        marketplace: market[2],
        sourceType: "marketplace",
        lockSource: base,
      },
    };
  }
  const shorthand = base.match(/^([A-Za-z0-9][\w.-]*)\/([\w.-]+)(?:\/(.+?))?\/?$/);
  if (shorthand?.[1] !== undefined && shorthand[2] !== undefined && !base.includes(":")) {
    const subpath = shorthand[3];
    if (subpath !== undefined && !isContainedSubpath(subpath)) {
      return { error: `the path "${subpath}" climbs out of the repository` };
    }
    return { source: githubSource(shorthand[1], shorthand[2], ref, subpath) };
  }
  return {
    error: `cannot read "${input}" as a source: give a git URL, owner/repo[/path], plugin@marketplace, npm:<name>, or a local path (./dir)`,
  };
}

/**
 * The source a lock entry was installed from, read back: a generic git entry's `sourceUrl` (else `source`),
 * `owner/repo` for github, and the same forms as {@link parseInstallSource} for the rest. Pure.
 */
export function lockedSource(
  entry: { source: string; sourceUrl?: string | undefined; sourceType: string; ref?: string | undefined },
  places: { cwd: string; home: string },
): { source: InstallSource } | { error: string } {
  const withRef = (s: string) => (entry.ref === undefined || entry.ref === "" ? s : `${s}#${entry.ref}`);
  switch (entry.sourceType) {
    case "github":
      return parseInstallSource(withRef(entry.sourceUrl ?? entry.source), places);
    case "git":
    case "gitlab": {
      const url = entry.sourceUrl ?? entry.source;
      // A bare path to a repository is a git source here, whatever form it has.
      const parsed = parseInstallSource(withRef(url), places);
      if ("source" in parsed && parsed.source.kind === "local") {
        return {
          source: {
            kind: "git",
            url,
            ...(entry.ref === undefined ? {} : { ref: entry.ref }),
            sourceType: "git",
            lockSource: entry.source,
            sourceUrl: url,
          },
        };
      }
      return parsed;
    }
    case "local":
      return { source: { kind: "local", path: entry.source, sourceType: "local", lockSource: entry.source } };
    case "npm":
    case "marketplace":
      return parseInstallSource(entry.source, places);
    default:
      return { error: `source type "${entry.sourceType}" is not one skillwright can fetch` };
  }
}
