import { dirname, join } from "node:path";
import {
  capabilityText,
  gainedCapabilities,
  gainText,
  type SkillCapability,
} from "../approvals/capabilities.js";
import { capabilityBody, inspectSkill } from "../approvals/skill-approvals.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, errorMessage, pathKind } from "../io/fs.js";
import { collectSkill } from "../lint/collect.js";
import { lintScore } from "../lint/score.js";
import { lintModels, skillFindings } from "../lint/skill-findings.js";
import type { Skill } from "../skill/skill.js";
import { type FetchedSource, fetchSource, isBareRepository } from "./fetch-source.js";
import { type FolderHash, hashFolder } from "./folder-hash.js";
import type { InstallScope } from "./install-scope.js";
import {
  type InstallSource,
  isContainedSubpath,
  lockedSource,
  parseInstallSource,
} from "./install-source.js";
import type { InstallerDeps } from "./installer-deps.js";
import {
  describeProblem,
  installedDrift,
  type LockProblem,
  type UpstreamState,
  upstreamChange,
} from "./lock-check.js";
import { copySkillDir, type FoundSkill, findSkills, refusalOf } from "./skill-tree.js";
import {
  type LockEntry,
  parseLock,
  type ScopePlaces,
  type SkillsLock,
  scopePlaces,
  serializeLock,
} from "./skills-lock.js";

/** Options every install command takes. */
export interface ScopeOptions {
  scope: InstallScope;
  /** Change nothing; fail when the lock, the installed files (and for add/update the source) differ. */
  frozen: boolean;
}

/** What `add` and `update` print after installing: installing a skill grants it nothing. */
export const NOT_APPROVED_NOTE =
  "Installing is not approving: a project skill's allowed-tools, hooks, inline shell and fork still need your approval before they run.";

/**
 * What `add` and `update` print after installing into the user scope: skills there are the user's own and run
 * without a question (see `decideSkill`), so the note says so instead of promising an approval step.
 */
export const USER_SCOPE_NOTE =
  "User skills (~/.claude/skills) run without asking, as skills you put there yourself: check the capabilities above, or install with --scope project to be asked before they run.";

const HIDDEN_STAGING_PREFIX = ".skillwright-staging-";

type ReadLock = { lock: SkillsLock } | { error: string };

async function readLock(deps: InstallerDeps, file: string): Promise<ReadLock> {
  let text: string | undefined;
  try {
    text = await deps.fs.readFile(file);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return { error: `${file}: ${errorMessage(error)}` };
  }
  const parsed = parseLock(text);
  return "error" in parsed ? { error: `${file}: ${parsed.error}` } : parsed;
}

async function writeLock(deps: InstallerDeps, file: string, lock: SkillsLock): Promise<void> {
  await deps.fs.mkdir(dirname(file));
  await writeFileAtomic(deps.fs, file, serializeLock(lock));
}

async function installedHash(deps: InstallerDeps, dir: string): Promise<FolderHash | undefined> {
  if ((await pathKind(deps.fs, dir)) !== "dir") return undefined;
  return hashFolder(deps.fs, dir);
}

/** A skill ready to install: where it is, its source hash and its lock entry; for an update, the copy it replaces. */
interface Candidate {
  found: FoundSkill;
  entry: LockEntry;
  installed?: FoundSkill;
}

/** Every power `skill` carries (grants, hooks, inline shell, fork, scripts), as an approval pins them. */
async function capabilitiesOf(deps: InstallerDeps, skill: Skill): Promise<SkillCapability[]> {
  const body = await capabilityBody(skill, deps.signal);
  return (await inspectSkill(deps.fs, skill, body, deps.modes)).capabilities;
}

/** The installed copy of the skill locked as `name`, when there is one that loads. */
async function installedSkill(deps: InstallerDeps, dir: string): Promise<FoundSkill | undefined> {
  if ((await pathKind(deps.fs, join(dir, "SKILL.md"))) !== "file") return undefined;
  return (await findSkills(deps.fs, dir, dir).catch(() => []))[0];
}

/**
 * Prints what the skill can do and its lint result, scored as `skillwright lint` scores it; with `installed`
 * (the copy an update would replace), what it can do that the installed copy could not.
 */
async function report(deps: InstallerDeps, found: FoundSkill, installed?: FoundSkill): Promise<void> {
  deps.out(`${found.installName} (${found.skillPath})`);
  const skill = found.skill;
  if (skill === undefined) return;
  const capabilities = await capabilitiesOf(deps, skill);
  deps.out(capabilities.length === 0 ? "  can: nothing beyond its instructions" : "  can:");
  for (const capability of capabilities) deps.out(`    ${capabilityText(capability)}`);
  if (installed?.skill !== undefined) {
    const gains = gainedCapabilities(await capabilitiesOf(deps, installed.skill), capabilities);
    deps.out(
      gains.length === 0
        ? "  gains: nothing the installed copy could not do"
        : `  gains over the installed copy: ${gains.map(gainText).join(", ")}`,
    );
  }
  const collected = await collectSkill(deps.fs, join(found.dir, "SKILL.md"));
  const findings = skillFindings(collected, lintModels(deps.env), "SKILL.md");
  deps.out(`  lint: score ${lintScore(findings)}, ${findings.length} finding(s)`);
  for (const f of findings)
    deps.out(`    ${f.severity.padEnd(7)} ${f.code} ${f.file}:${f.line}: ${f.message}`);
}

function entryFor(
  source: InstallSource,
  fetched: FetchedSource,
  found: FoundSkill,
  sourceHash: FolderHash,
): LockEntry {
  const ref = source.kind === "git" ? source.ref : undefined;
  return {
    source: source.lockSource,
    ...(source.kind === "git" && source.sourceUrl !== undefined ? { sourceUrl: source.sourceUrl } : {}),
    ...(ref === undefined ? {} : { ref }),
    sourceType: source.sourceType,
    skillPath: found.skillPath,
    computedHash: sourceHash.computedHash,
    skillwright: {
      ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
      ...(fetched.version === undefined ? {} : { version: fetched.version }),
    },
  };
}

/**
 * Copies each candidate into a hidden staging dir beside the installed skills, then renames each into place
 * (a copy already there is moved aside first and removed at the end) and writes the lock with each entry and
 * its installed files' hashes. On a failure before the lock is written, the moved copies are put back and the
 * staging dir removed: nothing half-installed stays. Throws the failure.
 */
async function installCandidates(
  deps: InstallerDeps,
  places: ScopePlaces,
  lock: SkillsLock,
  candidates: readonly Candidate[],
): Promise<void> {
  const staging = join(places.skillsDir, `${HIDDEN_STAGING_PREFIX}${crypto.randomUUID().slice(0, 8)}`);
  const movedAside: { target: string; aside: string }[] = [];
  const placed: string[] = [];
  await deps.fs.mkdir(staging);
  try {
    const entries: [string, LockEntry][] = [];
    for (const { found, entry } of candidates) {
      const staged = join(staging, found.installName);
      await copySkillDir(deps.fs, deps.modes, found.dir, staged);
      const files = (await hashFolder(deps.fs, staged)).files;
      entries.push([found.installName, { ...entry, skillwright: { ...entry.skillwright, files } }]);
    }
    for (const { found } of candidates) {
      const target = join(places.skillsDir, found.installName);
      if ((await pathKind(deps.fs, target)) !== undefined) {
        const aside = join(staging, `${found.installName}.previous`);
        await deps.fs.rename(target, aside);
        movedAside.push({ target, aside });
      }
      await deps.fs.rename(join(staging, found.installName), target);
      placed.push(target);
    }
    const next: SkillsLock = { ...lock, skills: { ...lock.skills, ...Object.fromEntries(entries) } };
    await writeLock(deps, places.lockFile, next);
    lock.skills = next.skills;
  } catch (error) {
    for (const target of placed) await deps.fs.rm(target).catch(() => undefined);
    for (const { target, aside } of movedAside) await deps.fs.rename(aside, target).catch(() => undefined);
    throw error;
  } finally {
    await deps.fs.rm(staging).catch(() => undefined);
  }
}

/**
 * Checks, reports and installs `candidates`: refused ones (links out of the source, validation errors, a
 * folder in the way that no lock entry owns, local edits an install would overwrite) stop everything before
 * anything is written. Returns the exit code.
 */
async function checkAndInstall(
  deps: InstallerDeps,
  scope: InstallScope,
  places: ScopePlaces,
  lock: SkillsLock,
  realRoot: string,
  candidates: readonly Candidate[],
): Promise<number> {
  const refusals: string[] = [];
  for (const { found, installed } of candidates) {
    await report(deps, found, installed);
    const refusal = await refusalOf(deps.fs, realRoot, found);
    if (refusal !== undefined) {
      refusals.push(`${found.installName}: refused: ${refusal}`);
      continue;
    }
    const target = join(places.skillsDir, found.installName);
    const locked = lock.skills[found.installName];
    const present = await installedHash(deps, target).catch(() => undefined);
    if ((await pathKind(deps.fs, target)) !== undefined && locked === undefined) {
      refusals.push(
        `${found.installName}: refused: ${target} exists and no lock entry owns it; remove or rename it first`,
      );
    } else if (locked !== undefined && present !== undefined) {
      const drift = installedDrift(locked, present);
      if (drift !== undefined) {
        refusals.push(
          `${found.installName}: refused: ${describeProblem(drift)}; installing would overwrite those edits (remove it first)`,
        );
      }
    }
  }
  if (refusals.length > 0) {
    for (const line of refusals) deps.err(line);
    deps.err("nothing was installed");
    return 1;
  }
  try {
    await installCandidates(deps, places, lock, candidates);
  } catch (error) {
    deps.err(`install failed, nothing was installed: ${errorMessage(error)}`);
    return 1;
  }
  for (const { found } of candidates) {
    deps.out(`installed ${found.installName} → ${join(places.skillsDir, found.installName)}`);
  }
  deps.out(`lock: ${places.lockFile}`);
  deps.out(scope === "user" ? USER_SCOPE_NOTE : NOT_APPROVED_NOTE);
  return 0;
}

/** A git source given as a path to a bare repository is a git source. */
async function resolveSource(deps: InstallerDeps, source: InstallSource): Promise<InstallSource> {
  if (source.kind !== "local" || !(await isBareRepository(deps.fs, source.path))) return source;
  return {
    kind: "git",
    url: source.path,
    sourceType: "git",
    lockSource: source.path,
    sourceUrl: source.path,
  };
}

async function withFetched<T>(
  deps: InstallerDeps,
  source: InstallSource,
  use: (fetched: FetchedSource, realRoot: string) => Promise<T>,
): Promise<T> {
  const fetched = await fetchSource(deps, source, deps.signal);
  try {
    return await use(fetched, await deps.fs.realpath(fetched.root));
  } finally {
    await fetched.cleanup().catch(() => undefined);
  }
}

/**
 * `skillwright add <source> [--skill NAME]... [--scope project|user] [--frozen]`: fetches the source, prints
 * each chosen skill's capabilities and lint result, refuses (writing nothing) a skill that escapes the source,
 * fails validation or would overwrite what the lock does not own, then installs and locks the rest. With
 * `frozen`, checks instead that the lock, the installed copies and the source agree. Returns the exit code.
 */
export async function addSkills(
  deps: InstallerDeps,
  input: string,
  options: ScopeOptions & { skills: readonly string[] },
): Promise<number> {
  const parsed = parseInstallSource(input, { cwd: deps.cwd, home: deps.home });
  if ("error" in parsed) {
    deps.err(parsed.error);
    return 2;
  }
  if (parsed.source.kind === "marketplace") {
    // A marketplace registered with `plugin marketplace add`: the plugin is installed whole, as `plugin install`.
    const { readKnownMarketplaces } = await import("./marketplaces.js");
    const known = await readKnownMarketplaces(deps);
    if ("marketplaces" in known && known.marketplaces[parsed.source.marketplace] !== undefined) {
      const { installPlugin } = await import("./plugin-installer.js");
      return installPlugin(deps, input, { frozen: options.frozen, yes: false });
    }
  }
  const places = scopePlaces(options.scope, { projectDir: deps.projectDir, home: deps.home });
  const read = await readLock(deps, places.lockFile);
  if ("error" in read) {
    deps.err(`cannot read the lock: ${read.error}`);
    return 1;
  }
  const source = await resolveSource(deps, parsed.source);
  try {
    return await withFetched(deps, source, async (fetched, realRoot) => {
      const searchReal = await deps.fs.realpath(fetched.searchDir).catch(() => undefined);
      if (searchReal === undefined || !(searchReal === realRoot || searchReal.startsWith(`${realRoot}/`))) {
        deps.err(`refused: ${fetched.searchDir} is not a folder inside the source`);
        return 1;
      }
      const all = await findSkills(deps.fs, fetched.root, fetched.searchDir);
      if (all.length === 0) {
        deps.err(`no SKILL.md found in ${input}`);
        return 1;
      }
      const wanted = options.skills;
      const chosen = wanted.length === 0 ? all : all.filter((f) => wanted.includes(f.installName));
      const unknown = wanted.filter((name) => !all.some((f) => f.installName === name));
      if (unknown.length > 0) {
        deps.err(
          `no skill named ${unknown.join(", ")} in ${input}; it has: ${all.map((f) => f.installName).join(", ")}`,
        );
        return 1;
      }
      const twice = chosen.filter((f, i) => chosen.findIndex((g) => g.installName === f.installName) !== i);
      if (twice.length > 0) {
        deps.err(
          `refused: ${twice.map((f) => `${f.installName} (${f.skillPath})`).join(", ")}: another skill of the source has the same name; pick one with --skill`,
        );
        return 1;
      }
      const candidates: Candidate[] = [];
      for (const found of chosen) {
        const sourceHash = await hashFolder(deps.fs, found.dir);
        candidates.push({ found, entry: entryFor(source, fetched, found, sourceHash) });
      }
      if (options.frozen) return frozenVerdict(deps, places, read.lock, candidates);
      return checkAndInstall(deps, options.scope, places, read.lock, realRoot, candidates);
    });
  } catch (error) {
    deps.err(errorMessage(error));
    return 1;
  }
}

/** `--frozen` on add/update: every candidate is locked with its source's hash and installed as locked. */
async function frozenVerdict(
  deps: InstallerDeps,
  places: ScopePlaces,
  lock: SkillsLock,
  candidates: readonly Candidate[],
): Promise<number> {
  let failed = false;
  for (const { found, entry } of candidates) {
    const locked = lock.skills[found.installName];
    const problems: string[] = [];
    if (locked === undefined) problems.push("not in the lock");
    else {
      const moved = upstreamChange(locked, { kind: "found", computedHash: entry.computedHash });
      if (moved !== undefined) problems.push(describeProblem(moved));
      const drift = installedDrift(
        locked,
        await installedHash(deps, join(places.skillsDir, found.installName)),
      );
      if (drift !== undefined) problems.push(describeProblem(drift));
    }
    if (problems.length > 0) failed = true;
    for (const p of problems) deps.err(`✗ ${found.installName}: ${p}`);
    if (problems.length === 0) deps.out(`✓ ${found.installName}: matches the lock`);
  }
  if (failed) deps.err("--frozen: the lock and the installed files differ; nothing was changed");
  return failed ? 1 : 0;
}

/**
 * The scope's places, its lock and the entries `names` select (all when none is named), or the exit code after
 * saying why not (an unreadable lock, a name the lock does not have; `unknownNote` is added to the latter).
 */
async function lockedSkills(
  deps: InstallerDeps,
  scope: InstallScope,
  names: readonly string[],
  unknownNote = "",
): Promise<
  | { places: ScopePlaces; read: { lock: SkillsLock }; selected: { entries: [string, LockEntry][] } }
  | { code: number }
> {
  const places = scopePlaces(scope, { projectDir: deps.projectDir, home: deps.home });
  const read = await readLock(deps, places.lockFile);
  if ("error" in read) {
    deps.err(`cannot read the lock: ${read.error}`);
    return { code: 1 };
  }
  const selected = selectEntries(read.lock, names);
  if ("error" in selected) {
    deps.err(unknownNote === "" ? selected.error : `${selected.error} (${places.lockFile})${unknownNote}`);
    return { code: 1 };
  }
  return { places, read, selected };
}

/** The locked entries to look at: `names`, or all; an unknown name is an error value. Pure. */
function selectEntries(
  lock: SkillsLock,
  names: readonly string[],
): { entries: [string, LockEntry][] } | { error: string } {
  const all = Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) return { entries: all };
  const unknown = names.filter((n) => lock.skills[n] === undefined);
  if (unknown.length > 0) return { error: `not in the lock: ${unknown.join(", ")}` };
  return { entries: all.filter(([name]) => names.includes(name)) };
}

function sourceKey(entry: LockEntry): string {
  return JSON.stringify([entry.sourceType, entry.sourceUrl ?? entry.source, entry.ref ?? ""]);
}

/** Each group of entries that share a source, fetched once, with what the source holds for each entry. */
async function eachUpstream(
  deps: InstallerDeps,
  entries: readonly [string, LockEntry][],
  visit: (
    name: string,
    entry: LockEntry,
    upstream: UpstreamState,
    found: { source: InstallSource; fetched: FetchedSource; realRoot: string; skill: FoundSkill } | undefined,
  ) => Promise<void>,
): Promise<void> {
  const groups = new Map<string, [string, LockEntry][]>();
  for (const item of entries) {
    const key = sourceKey(item[1]);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  for (const group of groups.values()) {
    const first = group[0];
    if (first === undefined) continue;
    const parsed = lockedSource(first[1], { cwd: deps.projectDir, home: deps.home });
    if ("error" in parsed) {
      for (const [name, entry] of group)
        await visit(name, entry, { kind: "unreachable", reason: parsed.error }, undefined);
      continue;
    }
    const source = await resolveSource(deps, parsed.source);
    let fetched: FetchedSource;
    try {
      fetched = await fetchSource(deps, source, deps.signal);
    } catch (error) {
      for (const [name, entry] of group) {
        await visit(name, entry, { kind: "unreachable", reason: errorMessage(error) }, undefined);
      }
      continue;
    }
    try {
      const realRoot = await deps.fs.realpath(fetched.root);
      for (const [name, entry] of group) {
        const skillPath = entry.skillPath ?? "SKILL.md";
        const skillDir = join(fetched.root, dirname(skillPath));
        if (
          !isContainedSubpath(skillPath) ||
          (await pathKind(deps.fs, join(fetched.root, skillPath))) !== "file"
        ) {
          await visit(name, entry, { kind: "gone" }, undefined);
          continue;
        }
        const hash = await hashFolder(deps.fs, skillDir);
        const [skill] = await findSkills(deps.fs, fetched.root, skillDir);
        await visit(
          name,
          entry,
          {
            kind: "found",
            computedHash: hash.computedHash,
            ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
          },
          skill === undefined
            ? undefined
            : { source, fetched, realRoot, skill: { ...skill, installName: name } },
        );
      }
    } finally {
      await fetched.cleanup().catch(() => undefined);
    }
  }
}

/**
 * `skillwright check [NAME]... [--scope] [--frozen]`: for each locked skill, whether its installed copy still
 * matches the lock (file by file when we wrote the lock, else by `computedHash`) and, unless `frozen`, whether
 * its upstream still has the locked content. Prints a line per skill; exit 1 naming each that moved or drifted.
 */
export async function checkSkills(
  deps: InstallerDeps,
  names: readonly string[],
  options: ScopeOptions,
): Promise<number> {
  const locked = await lockedSkills(deps, options.scope, names);
  if ("code" in locked) return locked.code;
  const { places, selected } = locked;
  if (selected.entries.length === 0) {
    deps.out(`no skills in ${places.lockFile}`);
    return 0;
  }
  const problems = new Map<string, LockProblem[]>();
  for (const [name, entry] of selected.entries) {
    const drift = installedDrift(entry, await installedHash(deps, join(places.skillsDir, name)));
    problems.set(name, drift === undefined ? [] : [drift]);
  }
  if (!options.frozen) {
    await eachUpstream(deps, selected.entries, async (name, entry, upstream, found) => {
      const change = upstreamChange(entry, upstream);
      if (change === undefined) return;
      problems.get(name)?.push(change);
      // What the moved upstream would bring (read now: the fetched copy goes when this visit ends).
      if (change.kind !== "upstream-moved" || found === undefined) return;
      deps.out(`upstream of ${name}:`);
      await report(deps, found.skill, await installedSkill(deps, join(places.skillsDir, name)));
    });
  }
  let failed = false;
  for (const [name, found] of problems) {
    if (found.length === 0)
      deps.out(`✓ ${name}: matches the lock${options.frozen ? "" : " and its upstream"}`);
    for (const problem of found) {
      failed = true;
      deps.err(`✗ ${name}: ${describeProblem(problem)}`);
    }
  }
  return failed ? 1 : 0;
}

/**
 * `skillwright update [NAME]... [--scope] [--frozen]`: re-fetches each locked skill's source and installs the
 * skills whose upstream content changed (capabilities and lint printed first, the same refusals as `add`),
 * moving their lock entries; a skill with local edits is refused, not overwritten. With `frozen`, changes
 * nothing and fails when an upstream moved or an installed copy drifted.
 */
export async function updateSkills(
  deps: InstallerDeps,
  names: readonly string[],
  options: ScopeOptions,
): Promise<number> {
  const locked = await lockedSkills(deps, options.scope, names);
  if ("code" in locked) return locked.code;
  const { places, read, selected } = locked;
  let code = 0;
  await eachUpstream(deps, selected.entries, async (name, entry, upstream, found) => {
    const change = upstreamChange(entry, upstream);
    const drift = installedDrift(entry, await installedHash(deps, join(places.skillsDir, name)));
    if (options.frozen) {
      for (const problem of [change, drift]) {
        if (problem === undefined) continue;
        code = 1;
        deps.err(`✗ ${name}: ${describeProblem(problem)}`);
      }
      if (change === undefined && drift === undefined) deps.out(`✓ ${name}: matches the lock`);
      return;
    }
    if (change === undefined) {
      deps.out(`${name}: up to date`);
      return;
    }
    if (change.kind !== "upstream-moved" || found === undefined) {
      code = 1;
      deps.err(`✗ ${name}: ${describeProblem(change)}`);
      return;
    }
    const sourceHash = await hashFolder(deps.fs, found.skill.dir);
    const next = entryFor(found.source, found.fetched, found.skill, sourceHash);
    const merged: LockEntry = { ...entry, ...next, source: entry.source };
    const installed = await installedSkill(deps, join(places.skillsDir, name));
    const result = await checkAndInstall(deps, options.scope, places, read.lock, found.realRoot, [
      { found: found.skill, entry: merged, ...(installed === undefined ? {} : { installed }) },
    ]);
    if (result !== 0) code = result;
  });
  if (options.frozen && code !== 0)
    deps.err("--frozen: the lock and the installed files differ; nothing was changed");
  return code;
}

/** `skillwright remove NAME...`: deletes each locked skill's installed folder and its lock entry. */
export async function removeSkills(
  deps: InstallerDeps,
  names: readonly string[],
  options: Pick<ScopeOptions, "scope">,
): Promise<number> {
  if (names.length === 0) {
    deps.err("remove needs the name of an installed skill");
    return 2;
  }
  const locked = await lockedSkills(
    deps,
    options.scope,
    names,
    "; skillwright removes only skills it locked",
  );
  if ("code" in locked) return locked.code;
  const { places, read, selected } = locked;
  const skills = { ...read.lock.skills };
  for (const [name] of selected.entries) delete skills[name];
  try {
    await writeLock(deps, places.lockFile, { ...read.lock, skills });
    for (const [name] of selected.entries) {
      await deps.fs.rm(join(places.skillsDir, name));
      deps.out(`removed ${name} (${join(places.skillsDir, name)})`);
    }
  } catch (error) {
    deps.err(`remove failed: ${errorMessage(error)}`);
    return 1;
  }
  return 0;
}
