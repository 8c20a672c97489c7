import { basename } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FileHead, type FsOps } from "../io/fs.js";
import { isValidSkillName, MAX_NAME_LENGTH } from "./fields.js";
import { fileReferences } from "./file-references.js";
import {
  type ParsedFrontmatter,
  parseFrontmatterLazily,
  parseFrontmatterWith,
  parseSimpleFrontmatter,
  type SplitFile,
  splitFrontmatter,
  type YamlParser,
} from "./frontmatter-core.js";
import { hasControlChar, neutralizeMarkup, stripControlChars } from "./neutralize-markup.js";
import { isInside } from "./path-inside.js";
import { DEFAULT_DESCRIPTION, firstBodyLine, normalizeMeta } from "./schema.js";
import type { PluginRef, Skill, SkillKind, SkillMeta, SkillTier } from "./skill.js";
import type { SkillTerms } from "./skill-terms.js";

/** Files larger than this are skipped with a diagnostic (SPEC §1). */
export const MAX_SKILL_FILE_BYTES = 1_000_000;
/** Discovery reads this much of each file first; more only when the frontmatter runs past it. */
export const HEAD_BYTES = 4_096;

export interface SkillFileRef {
  /** The file as found (not its realpath). */
  path: string;
  /** The name the skill answers to before any namespace: the dir name, or `ns:sub` for commands. */
  name: string;
  kind: SkillKind;
  source: SkillTier;
  root: string;
  /** `Base directory for this skill:`; the dir holding SKILL.md, or the commands dir. */
  baseDir: string;
  plugin?: PluginRef;
  /**
   * A real dir the file must stay inside (a plugin's root): the body is read only while the file's real path
   * is still under it, so a link swapped after discovery cannot point the read elsewhere.
   */
  confine?: string;
  /**
   * A frontmatter `name` that is not a valid skill name is a display title (`title`), not an invalid alias: set
   * for a named environment's skills (`name: Release Notes` in `release-notes/skill.md`).
   */
  titleName?: boolean;
}

export interface LoadResult {
  skill?: Skill;
  diagnostics: Diagnostic[];
  /** True when the file does not exist (the caller may explain why a dir holds no SKILL.md). */
  missing?: boolean;
  /** The file's identity (`{dev}:{ino}`), for dedup of the same file reached through links. */
  fileId?: string;
}

/**
 * What reading a skill file's head gave, as plain data (no functions): what a discovery cache can keep. `meta`
 * is absent when the file could not be read or was too large.
 */
export interface HeadResult {
  meta?: SkillMeta;
  diagnostics: Diagnostic[];
  missing?: boolean;
  fileId?: string;
  /** The head fields' search terms, kept by the discovery cache with the head (absent when read now). */
  terms?: SkillTerms;
}

/**
 * Loads one skill file, reading only its head (the frontmatter and the first body line); the body is read
 * again by `loadBody` when the skill is expanded. Never throws: every problem is a diagnostic, and only an
 * unreadable or oversized file, or a name holding a wrapper tag or control character, yields no skill.
 */
export async function loadSkillFile(
  fs: FsOps,
  ref: SkillFileRef,
  loadYaml?: () => Promise<YamlParser>,
): Promise<LoadResult> {
  return skillFromHead(fs, ref, await readSkillHead(fs, ref, loadYaml));
}

/** The {@link LoadResult} for a head read now or kept from an earlier read of the same file. */
export function skillFromHead(fs: FsOps, ref: SkillFileRef, head: HeadResult): LoadResult {
  const result: LoadResult = { diagnostics: head.diagnostics };
  if (head.missing === true) result.missing = true;
  if (head.fileId !== undefined) result.fileId = head.fileId;
  if (head.meta !== undefined) {
    result.skill = skillFromMeta(fs, ref, head.meta);
    // Not enumerable: a cache's by-product, not the skill's data (JSON, copies and comparisons leave it out).
    if (head.terms !== undefined)
      Object.defineProperty(result.skill, "terms", { value: head.terms, writable: true, configurable: true });
  }
  return result;
}

/**
 * Reads and parses one skill file's head into plain data. Never throws. `loadYaml` supplies the `yaml` parser
 * when a head needs it (a caller reading many heads passes one `lazyYaml()`); by default it is imported.
 */
export async function readSkillHead(
  fs: FsOps,
  ref: SkillFileRef,
  loadYaml?: () => Promise<YamlParser>,
): Promise<HeadResult> {
  const refused = refusedName(ref);
  if (refused !== undefined) return refused;
  let head: FileHead;
  try {
    head = await fs.readHead(ref.path, HEAD_BYTES);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { diagnostics: [], missing: true };
    if (await isDirectory(fs, ref.path)) return { diagnostics: [fileIsDirectory(ref)] };
    return { diagnostics: [unreadable(ref.path, error)] };
  }
  if (head.size > MAX_SKILL_FILE_BYTES) return tooLarge(ref, head);
  let split = splitHead(head);
  let binary = head.binary;
  let firstLine = firstBodyLine(split.body);
  if (needsMore(head, split, firstLine)) {
    try {
      const whole = await fs.readBytes(ref.path);
      binary = whole.includes(0);
      split = splitFrontmatter(Buffer.from(whole).toString("utf8"));
      firstLine = firstBodyLine(split.body);
    } catch (error) {
      return { diagnostics: [unreadable(ref.path, error)] };
    }
  }
  // Synchronous unless the block needs `yaml`: an await per skill costs more than the parse.
  const parsed =
    split.frontmatter === undefined
      ? undefined
      : (parseSimpleFrontmatter(split.frontmatter) ??
        (await parseFrontmatterLazily(split.frontmatter, loadYaml)));
  return headFromSplit(ref, head, split, firstLine, binary, parsed);
}

/** A head whose frontmatter needs the `yaml` parser: `finish` parses it with the one given. */
export interface YamlHead {
  finish(yaml: YamlParser): HeadResult;
}

/**
 * {@link readSkillHead} in one synchronous step, through `readHeadSync`, for the heads that need nothing else:
 * the result, a {@link YamlHead} when the frontmatter needs `yaml` (a caller finishes those together once it
 * has loaded it), or undefined when the head needs more than the head read (an error to explain, a frontmatter
 * running past the head): the caller then uses {@link readSkillHead}. `keep` is passed to `readHeadSync`: a
 * file it declines is not read and gives only its `fileId`. Never throws.
 */
export function readSkillHeadSync(
  readHeadSync: (path: string, maxBytes: number, keep?: (fileId: string) => boolean) => FileHead,
  ref: SkillFileRef,
  keep?: (fileId: string) => boolean,
): HeadResult | YamlHead | undefined {
  const refused = refusedName(ref);
  if (refused !== undefined) return refused;
  let head: FileHead;
  try {
    head = readHeadSync(ref.path, HEAD_BYTES, keep);
  } catch {
    return undefined;
  }
  // Declined by `keep` (a file already read through another path): only its identity, for the dedup.
  if (head.skipped === true) return { diagnostics: [], fileId: head.fileId };
  if (head.size > MAX_SKILL_FILE_BYTES) return tooLarge(ref, head);
  const split = splitHead(head);
  const firstLine = firstBodyLine(split.body);
  if (needsMore(head, split, firstLine)) return undefined;
  if (split.frontmatter === undefined) {
    return headFromSplit(ref, head, split, firstLine, head.binary, undefined);
  }
  const parsed = parseSimpleFrontmatter(split.frontmatter);
  if (parsed !== undefined) return headFromSplit(ref, head, split, firstLine, head.binary, parsed);
  const frontmatter = split.frontmatter;
  return {
    finish: (yaml) =>
      headFromSplit(ref, head, split, firstLine, head.binary, parseFrontmatterWith(frontmatter, yaml)),
  };
}

/** A name is echoed verbatim in the listing and in tool calls: one holding a wrapper tag could forge a block. */
function refusedName(ref: SkillFileRef): HeadResult | undefined {
  if (neutralizeMarkup(ref.name) === ref.name && !hasControlChar(ref.name)) return undefined;
  return {
    diagnostics: [
      diagnostic(
        "error",
        "name-invalid",
        `skill name "${stripControlChars(ref.name)}" holds markup or control characters that could forge the listing; skipped`,
        ref.path,
      ),
    ],
  };
}

function tooLarge(ref: SkillFileRef, head: FileHead): HeadResult {
  return {
    // The file's identity, so that another path to the same file is a duplicate, not a second error.
    fileId: head.fileId,
    diagnostics: [
      diagnostic(
        "error",
        "file-too-large",
        `${head.size} bytes is over the ${MAX_SKILL_FILE_BYTES}-byte limit; skipped`,
        ref.path,
      ),
    ],
  };
}

/** A partial head is cut to whole lines: a fence or first body line cut at the boundary is not trusted. */
function splitHead(head: FileHead): SplitFile {
  return splitFrontmatter(head.complete ? head.text : head.text.slice(0, head.text.lastIndexOf("\n") + 1));
}

/** True when a partial head ends inside the frontmatter or before the first body line (`firstLine`). */
function needsMore(head: FileHead, split: SplitFile, firstLine: string | undefined): boolean {
  return !head.complete && (split.unclosed || firstLine === undefined);
}

/** The head's result once its frontmatter is parsed (`parsed` undefined: there is none). Pure. */
function headFromSplit(
  ref: SkillFileRef,
  head: FileHead,
  split: SplitFile,
  firstLine: string | undefined,
  binary: boolean,
  parsed: ParsedFrontmatter | undefined,
): HeadResult {
  const diagnostics: Diagnostic[] = [];
  if (binary)
    diagnostics.push(diagnostic("warning", "file-binary", "file contains NUL bytes (binary?)", ref.path));
  if (head.size === 0) {
    diagnostics.push(
      diagnostic(
        "info",
        "file-empty",
        `${basename(ref.path)} is empty (0 bytes): the skill loads with no instructions and the description "${DEFAULT_DESCRIPTION}"`,
        ref.path,
      ),
    );
  }
  if (split.unclosed) {
    diagnostics.push(diagnostic("warning", "frontmatter-unclosed", unclosedMessage(split.body), ref.path));
  }
  if (ref.kind === "skill" && !isValidSkillName(ref.name)) {
    diagnostics.push(
      diagnostic(
        "warning",
        "name-invalid",
        `skill directory name "${ref.name}" is not a valid Agent Skills name (lowercase letters, digits and single hyphens, at most ${MAX_NAME_LENGTH} chars); it loads as "${ref.name}", but other agents may refuse it`,
        ref.path,
      ),
    );
  }
  let data: Record<string, unknown> = {};
  if (parsed !== undefined) {
    data = parsed.data;
    for (const message of parsed.duplicateKeys ?? []) {
      diagnostics.push(diagnostic("warning", "yaml-invalid", `${message}; the last value is used`, ref.path));
    }
    if (parsed.yamlError !== undefined) {
      diagnostics.push(
        diagnostic(
          "warning",
          "yaml-invalid",
          `frontmatter is not valid YAML (${parsed.yamlError}); read it line by line instead`,
          ref.path,
        ),
      );
    }
  }
  const { meta, diagnostics: fieldDiagnostics } = normalizeMeta({
    data,
    kind: ref.kind,
    dirName: ref.name,
    firstBodyLine: firstLine,
    path: ref.path,
    ...(ref.titleName === true ? { titleName: true } : {}),
  });
  for (const d of fieldDiagnostics) diagnostics.push(d);
  return { meta, diagnostics, fileId: head.fileId };
}

function skillFromMeta(fs: FsOps, ref: SkillFileRef, meta: SkillMeta): Skill {
  // `loadBody` keeps only what it reads: capturing `ref` kept every SkillFileRef alive for the skill's life.
  const path = ref.path;
  const confine = ref.confine;
  // `Object.assign`, not `{ ...meta, name, … }`: V8 (11) gives each object built that way a hidden class of its
  // own, kilobytes per skill and a few ms per thousand. Same properties, same order.
  const skill: Skill = Object.assign({}, meta, {
    name: ref.plugin === undefined ? ref.name : `${ref.plugin.name}:${ref.name}`,
    source: ref.source,
    kind: ref.kind,
    filePath: path,
    baseDir: ref.baseDir,
    root: ref.root,
    loadBody: async () => {
      if (confine !== undefined) await assertConfined(fs, path, confine);
      return splitFrontmatter(await fs.readFile(path)).body;
    },
  });
  if (ref.plugin !== undefined) skill.plugin = ref.plugin;
  if (ref.kind === "skill") skill.references = fileReferences(fs, ref.baseDir);
  return skill;
}

/**
 * Why an unclosed frontmatter is unclosed, for the diagnostic: names a line that looks like a closing fence but
 * is not exactly `---` (`----`, `--- x`, `...`) when there is one. Pure.
 */
export function unclosedMessage(body: string): string {
  let near: { index: number; text: string } | undefined;
  let index = 0;
  for (let start = 0; start <= body.length; index += 1) {
    const end = body.indexOf("\n", start);
    const stop = end === -1 ? body.length : end;
    // Most lines start with a letter: only those whose first non-blank is `-` or `.` (or not ASCII) are trimmed.
    let p = start;
    while (p < stop && (body.charCodeAt(p) === 32 || body.charCodeAt(p) === 9)) p += 1;
    const c = body.charCodeAt(p);
    if (index > 0 && p < stop && (c === 45 || c === 46 || c > 127 || c < 32)) {
      const line = body.slice(start, stop);
      const trimmed = (line.endsWith("\r") ? line.slice(0, -1) : line).trim();
      if (/^(-{2,}|\.{3})/.test(trimmed) && trimmed !== "---") {
        near = { index, text: trimmed };
        break;
      }
    }
    if (end === -1) break;
    start = end + 1;
  }
  const cause =
    near === undefined
      ? "no later line is exactly ---"
      : `line ${near.index + 1} "${near.text.slice(0, 40)}" is not a closing fence (it must be exactly ---)`;
  return `frontmatter opens with --- on line 1 but never closes: ${cause}; the whole file, fields included, is read as the body`;
}

async function isDirectory(fs: FsOps, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).kind === "dir";
  } catch {
    return false;
  }
}

function fileIsDirectory(ref: SkillFileRef): Diagnostic {
  const file = basename(ref.path);
  return diagnostic(
    "error",
    "not-a-file",
    `${file} is a directory, not a file: a skill is a directory holding a file named ${file}; skipped`,
    ref.path,
  );
}

/** Rejects when `path`'s real path has left `root` (see {@link SkillFileRef.confine}). */
async function assertConfined(fs: FsOps, path: string, root: string): Promise<void> {
  const real = await fs.realpath(path);
  if (!isInside(root, real)) {
    throw new Error(`${path} now resolves to ${real}, outside ${root}; not read`);
  }
}

function unreadable(path: string, error: unknown): Diagnostic {
  const code = errorCode(error);
  if (code === "ELOOP") return diagnostic("error", "symlink-loop", "symlink loop; skipped", path);
  if (code === "ENOENT")
    return diagnostic("error", "symlink-broken", "file vanished or is a broken link", path);
  return diagnostic("error", "file-unreadable", `cannot read: ${errorMessage(error)}`, path);
}
