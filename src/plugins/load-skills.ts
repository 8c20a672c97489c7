import { basename, dirname, join } from "node:path";
import pLimit from "p-limit";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { explainMissingSkill } from "../discovery/explain.js";
import { dirProblem, scanRoot } from "../discovery/scan-dir.js";
import type { SkillRoot } from "../discovery/skill-roots.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { loadSkillFile, type SkillFileRef } from "../skill/load-skill.js";
import { isInside } from "../skill/path-inside.js";
import type { PluginRef, Skill } from "../skill/skill.js";
import { pathEscape } from "./confine.js";

/** How many plugin files are read at once. */
export const PLUGIN_FILE_CONCURRENCY = 16;

/** A dir or file a component is looked for in; `required` ones are reported when missing (manifest paths). */
export interface ComponentTarget {
  path: string;
  required: boolean;
}

/** Input of {@link loadPluginSkills}. */
export interface PluginSkillsInput {
  fs: FsOps;
  plugin: PluginRef;
  /** Skills dirs (each a dir of `<name>/SKILL.md`, or itself a skill dir), defaults first. */
  skills: ComponentTarget[];
  /** Commands dirs or single `.md` files, defaults first. */
  commands: ComponentTarget[];
  /** The plugin root's real path: a file whose real path leaves it is refused (`plugin-path-escape`). */
  realRoot: string;
  signal?: AbortSignal;
}

/**
 * Loads a plugin's skills, then its commands, each named `{plugin}:{name}` (aliases too), `source: "plugin"`.
 * A skills path that holds a `SKILL.md` is one skill named after its dir; a commands path may be one `.md`
 * file. The same file reached twice loads once; a second file with a taken name is `shadowed` (first wins, so
 * a skill beats a command). A file whose real path leaves the plugin root (a symlink out of it) is refused with
 * `plugin-path-escape`, and its text is never read. Never throws for bad content.
 */
export async function loadPluginSkills(
  input: PluginSkillsInput,
): Promise<{ skills: Skill[]; diagnostics: Diagnostic[] }> {
  const { fs, plugin } = input;
  const diagnostics: Diagnostic[] = [];
  const refs: SkillFileRef[] = [];
  for (const target of unique(input.skills)) {
    refs.push(...(await skillRefs(fs, plugin, target, diagnostics)));
  }
  for (const target of unique(input.commands)) {
    refs.push(...(await commandRefs(fs, plugin, target, diagnostics)));
  }
  input.signal?.throwIfAborted();

  const seenPath = new Set<string>();
  const distinct = refs.filter((ref) => !seenPath.has(ref.path) && seenPath.add(ref.path));
  const limit = pLimit(PLUGIN_FILE_CONCURRENCY);
  const reals = await Promise.all(
    distinct.map((ref) => limit(() => fs.realpath(ref.path).catch((error: unknown) => ({ error })))),
  );
  const loaded = await Promise.all(
    distinct.map((ref, i) =>
      limit(async () => {
        const real = reals[i];
        if (typeof real !== "string" && errorCode(real?.error) !== "ENOENT") {
          return { diagnostics: [dirProblem(ref.path, real?.error)] };
        }
        if (typeof real === "string" && !isInside(input.realRoot, real)) {
          return { diagnostics: [pathEscape(ref.path, real, input.realRoot)] };
        }
        const result = await loadSkillFile(fs, { ...ref, plugin, confine: input.realRoot });
        if (result.missing === true && ref.kind === "skill") {
          return { diagnostics: [await explainMissingSkill(fs, ref.baseDir)] };
        }
        return result;
      }),
    ),
  );

  const skills: Skill[] = [];
  const byReal = new Map<string, string>();
  const byName = new Map<string, Skill>();
  loaded.forEach((result, i) => {
    diagnostics.push(...result.diagnostics);
    const ref = distinct[i];
    const real = reals[i];
    if (!("skill" in result) || result.skill === undefined || ref === undefined) return;
    if (typeof real === "string") {
      const first = byReal.get(real);
      if (first !== undefined) {
        diagnostics.push(
          diagnostic("info", "duplicate-realpath", `same file as ${first}; loaded once`, ref.path),
        );
        return;
      }
      byReal.set(real, ref.path);
    }
    const skill = result.skill;
    if (skill.alias !== undefined) skill.alias = `${plugin.name}:${skill.alias}`;
    const winner = byName.get(skill.name);
    if (winner !== undefined) {
      diagnostics.push(
        diagnostic(
          "warning",
          "shadowed",
          `${skill.kind} "${skill.name}" at ${skill.filePath} is shadowed by the ${winner.kind} at ${winner.filePath}`,
          skill.filePath,
        ),
      );
      return;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  });
  return { skills, diagnostics };
}

function unique(targets: ComponentTarget[]): ComponentTarget[] {
  const seen = new Map<string, ComponentTarget>();
  for (const target of targets) {
    const first = seen.get(target.path);
    if (first === undefined) seen.set(target.path, { ...target });
    else first.required ||= target.required;
  }
  return [...seen.values()];
}

type Kind = "file" | "dir" | "missing" | "other";

async function kindAt(fs: FsOps, path: string, diagnostics: Diagnostic[]): Promise<Kind> {
  try {
    const kind = (await fs.stat(path)).kind;
    return kind === "file" || kind === "dir" ? kind : "other";
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    diagnostics.push(dirProblem(path, error));
    return "other";
  }
}

function missing(path: string, what: string): Diagnostic {
  return diagnostic("warning", "plugin-invalid", `${what} path from the manifest does not exist`, path);
}

function root(plugin: PluginRef, dir: string, layout: SkillRoot["layout"]): SkillRoot {
  return { dir, source: "plugin", layout, label: `plugin ${plugin.name}` };
}

async function skillRefs(
  fs: FsOps,
  plugin: PluginRef,
  target: ComponentTarget,
  diagnostics: Diagnostic[],
): Promise<SkillFileRef[]> {
  const kind = await kindAt(fs, target.path, diagnostics);
  if (kind === "missing") {
    if (target.required) diagnostics.push(missing(target.path, "skills"));
    return [];
  }
  if (kind === "file") {
    if (basename(target.path) !== "SKILL.md") {
      diagnostics.push(
        diagnostic(
          "warning",
          "plugin-invalid",
          "a skills path must be a directory (or a SKILL.md)",
          target.path,
        ),
      );
      return [];
    }
    const dir = dirname(target.path);
    return [singleSkill(dir, target.path)];
  }
  if (kind !== "dir") return [];
  const own = join(target.path, "SKILL.md");
  if ((await kindAt(fs, own, diagnostics)) === "file") return [singleSkill(target.path, own)];
  const scan = await scanRoot(fs, root(plugin, target.path, "skills"));
  diagnostics.push(...scan.diagnostics);
  return scan.files;
}

function singleSkill(dir: string, path: string): SkillFileRef {
  return { path, name: basename(dir), kind: "skill", source: "plugin", root: dirname(dir), baseDir: dir };
}

async function commandRefs(
  fs: FsOps,
  plugin: PluginRef,
  target: ComponentTarget,
  diagnostics: Diagnostic[],
): Promise<SkillFileRef[]> {
  const kind = await kindAt(fs, target.path, diagnostics);
  if (kind === "missing") {
    if (target.required) diagnostics.push(missing(target.path, "commands"));
    return [];
  }
  if (kind === "file") {
    if (!target.path.endsWith(".md")) {
      diagnostics.push(
        diagnostic("warning", "plugin-invalid", "a command file must end in .md", target.path),
      );
      return [];
    }
    const dir = dirname(target.path);
    return [
      {
        path: target.path,
        name: basename(target.path).slice(0, -3),
        kind: "command",
        source: "plugin",
        root: dir,
        baseDir: dir,
      },
    ];
  }
  if (kind !== "dir") return [];
  const scan = await scanRoot(fs, root(plugin, target.path, "commands"));
  diagnostics.push(...scan.diagnostics);
  return scan.files;
}
