import { isAbsolute, join, relative, resolve } from "node:path";
import { commandWords } from "./command-words.js";

/** Where a command runs and which directories it may touch without asking (the project and its added dirs). */
export interface CommandDirs {
  /** The working directory: relative paths resolve against it, and it is always allowed. */
  cwd: string;
  /** More allowed directories (`--add-dir`, settings `permissions.additionalDirectories`), absolute. */
  additional?: readonly string[];
  /** For `~` paths; without it a `~` path is never inside. */
  home?: string;
}

/** Write targets that are not files: writing there changes nothing on disk. */
export const HARMLESS_WRITE_TARGETS: ReadonlySet<string> = new Set([
  "/dev/null",
  "/dev/stdout",
  "/dev/stderr",
]);

/** Commands that only print or list, whatever their arguments (SPEC §14.8). */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set(["echo", "printf", "pwd", "true", "ls"]);

/** `git` subcommands that only read (SPEC §14.8). */
export const READ_ONLY_GIT_SUBCOMMANDS: ReadonlySet<string> = new Set(["status", "log", "diff"]);

/** A write a command would make to a file outside the allowed directories. */
export interface OutsideWrite {
  /** The command that writes (`echo` for `echo x > f`, `tee`, or the operator when there is no command). */
  command: string;
  /** The absolute target path, or the target as written when it cannot be resolved (`$VAR/x`). */
  path: string;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Commands that run the command after them (`sudo tee /etc/x`, `env A=1 tee f`, `xargs tee f`). */
export const COMMAND_WRAPPERS: ReadonlySet<string> = new Set([
  "builtin",
  "command",
  "env",
  "exec",
  "nice",
  "nohup",
  "stdbuf",
  "sudo",
  "time",
  "timeout",
  "xargs",
]);

/**
 * Where `tee` runs in a simple command's words: first, or after wrappers with their options, numbers and
 * assignments. Undefined when it does not.
 */
function teeIndex(words: readonly string[]): number | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "tee") return i;
    const wrapperPart =
      ASSIGNMENT.test(word) || COMMAND_WRAPPERS.has(word) || (i > 0 && /^(?:-.*|\d+[smhd]?)$/.test(word));
    if (!wrapperPart) return undefined;
  }
  return undefined;
}

/** The allowed directories, cwd first. */
export function allowedDirs(dirs: CommandDirs): string[] {
  return [dirs.cwd, ...(dirs.additional ?? [])];
}

/**
 * The absolute path a word names, or undefined when it cannot be known before the command runs (it holds a
 * variable, or `~` without a home dir). Pure.
 */
export function resolveWordPath(word: string, isDynamic: boolean, dirs: CommandDirs): string | undefined {
  if (isDynamic) return undefined;
  if (word === "~" || word.startsWith("~/")) {
    return dirs.home === undefined ? undefined : join(dirs.home, word.slice(1));
  }
  if (word.startsWith("~")) return undefined;
  return isAbsolute(word) ? resolve(word) : resolve(dirs.cwd, word);
}

/** True when `path` (absolute) is one of the allowed directories or inside one. Lexical; pure. */
export function isInsideAllowed(path: string, dirs: CommandDirs): boolean {
  return allowedDirs(dirs).some((dir) => {
    const rel = relative(dir, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  });
}

/**
 * The files one simple command would write outside the allowed directories: output redirections (`>`, `>>`,
 * `>|`, `&>`, `2>`, …, but not fd duplications like `2>&1` or the targets in `HARMLESS_WRITE_TARGETS`) and the
 * file arguments of `tee` (also behind `COMMAND_WRAPPERS`: `sudo tee /etc/x`). A target that cannot be resolved statically (a variable, `~user`, braces) counts as
 * outside. Pure.
 */
export function outsideWrites(part: string, dirs: CommandDirs): OutsideWrite[] {
  const parsed = commandWords(part);
  const name = parsed.words.find((w) => !ASSIGNMENT.test(w));
  const out: OutsideWrite[] = [];
  const check = (command: string, target: string, isDynamic: boolean) => {
    if (HARMLESS_WRITE_TARGETS.has(target)) return;
    // Brace expansion (`tee {a,/etc/x}`) names paths the lexical check cannot see: unresolvable.
    const path = target.includes("{") ? undefined : resolveWordPath(target, isDynamic, dirs);
    if (path === undefined) out.push({ command, path: target });
    else if (!isInsideAllowed(path, dirs)) out.push({ command, path });
  };
  for (const redirect of parsed.redirects) {
    if (!redirect.output || redirect.fd) continue;
    check(name ?? redirect.op, redirect.target, /[$`]/.test(redirect.target));
  }
  const teeAt = teeIndex(parsed.words);
  if (teeAt !== undefined) {
    for (let i = teeAt + 1; i < parsed.words.length; i++) {
      const word = parsed.words[i] ?? "";
      if (word.startsWith("-") && word !== "-") continue;
      check("tee", word, parsed.dynamic[i] ?? false);
    }
  }
  return out;
}

/**
 * True when one simple command only reads (SPEC §14.8): `echo`, `printf`, `pwd`, `true` and `ls` with any
 * arguments; `cat` whose every file argument is inside the allowed directories (no variables, no braces); `git status|log|diff` (without
 * `--output`). It must not start with a variable assignment (`GIT_EXTERNAL_DIFF=x git diff` runs x), name its
 * command through a variable, or redirect output anywhere but a harmless target (`2>&1`, `> /dev/null`); an
 * input redirection must read from inside the allowed directories. Pure.
 */
export function isReadOnlyCommand(part: string, dirs: CommandDirs): boolean {
  const parsed = commandWords(part);
  const [name, ...args] = parsed.words;
  if (name === undefined || ASSIGNMENT.test(name) || parsed.dynamic[0] === true) return false;
  for (const redirect of parsed.redirects) {
    if (redirect.fd) continue;
    if (redirect.output) {
      if (!HARMLESS_WRITE_TARGETS.has(redirect.target)) return false;
      continue;
    }
    const path = resolveWordPath(redirect.target, /[$`]/.test(redirect.target), dirs);
    if (path === undefined || !isInsideAllowed(path, dirs)) return false;
  }
  if (READ_ONLY_COMMANDS.has(name)) return true;
  if (name === "cat") {
    return args.every((arg, i) => {
      if (arg.startsWith("-") && arg !== "-") return true;
      // Brace expansion (`{a,/etc/x}`) names paths the lexical check cannot see.
      if (arg.includes("{")) return false;
      const path = resolveWordPath(arg, parsed.dynamic[i + 1] ?? false, dirs);
      return path !== undefined && isInsideAllowed(path, dirs);
    });
  }
  if (name === "git") {
    const sub = args[0];
    return (
      sub !== undefined && READ_ONLY_GIT_SUBCOMMANDS.has(sub) && !args.some((a) => a.startsWith("--output"))
    );
  }
  return false;
}

/** Commands whose operands are files they create, change or remove; the path named is the first operand. */
export const FILE_CHANGING_COMMANDS: ReadonlySet<string> = new Set([
  "touch",
  "rm",
  "rmdir",
  "mkdir",
  "unlink",
]);

/** Commands that change the file named by their last operand (`cp a b`, `mv a b`, `chmod +x f`). */
export const LAST_OPERAND_COMMANDS: ReadonlySet<string> = new Set(["cp", "mv", "ln", "chmod", "chown"]);

/** What one simple command changes, as far as the command line tells: its program and one path it touches. */
export interface CommandTouch {
  /** The program name: the first word that is not a `NAME=value` assignment. */
  command: string;
  /**
   * The absolute path it writes (an output redirection, a `tee` file, or an operand of a command in
   * {@link FILE_CHANGING_COMMANDS} / {@link LAST_OPERAND_COMMANDS}); undefined when none is known statically.
   */
  path?: string;
}

/**
 * The program of one simple command and the first path it would write, for the text that says what needs
 * approval (SPEC §14.9). Undefined for an empty command. Lexical; pure.
 */
export function commandTouch(part: string, dirs: CommandDirs): CommandTouch | undefined {
  const parsed = commandWords(part);
  const at = parsed.words.findIndex((w) => !ASSIGNMENT.test(w));
  const command = parsed.words[at];
  if (command === undefined) return undefined;
  const known = (word: string, isDynamic: boolean) =>
    HARMLESS_WRITE_TARGETS.has(word) || word.includes("{")
      ? undefined
      : resolveWordPath(word, isDynamic, dirs);
  for (const redirect of parsed.redirects) {
    if (!redirect.output || redirect.fd || HARMLESS_WRITE_TARGETS.has(redirect.target)) continue;
    const path = known(redirect.target, /[$`]/.test(redirect.target));
    return path === undefined ? { command } : { command, path };
  }
  const operands: { word: string; index: number }[] = [];
  for (let i = at + 1; i < parsed.words.length; i++) {
    const word = parsed.words[i] ?? "";
    if (!word.startsWith("-") || word === "-") operands.push({ word, index: i });
  }
  const target =
    FILE_CHANGING_COMMANDS.has(command) || command === "tee"
      ? operands[0]
      : LAST_OPERAND_COMMANDS.has(command) && operands.length > 1
        ? operands.at(-1)
        : undefined;
  if (target === undefined) return { command };
  const path = known(target.word, parsed.dynamic[target.index] ?? false);
  return path === undefined ? { command } : { command, path };
}
