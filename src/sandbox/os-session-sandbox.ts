import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import type { FsOps } from "../io/fs.js";
import type { ShellOps, ShellResult, ShellRunOptions } from "../io/shell.js";
import { ABORTED_BEFORE_START, cappedResult, notStarted, OS_SANDBOX_MAX_OUTPUT_BYTES } from "./os-sandbox.js";
import type { Sandbox } from "./sandbox.js";

/** One folder of the session's file system the command sees at the same path. */
export interface SessionMount {
  /** Absolute, as the session sees it: `/workspace`, `/mnt/skills`, `/mnt/memory/notes`. */
  path: string;
  /** Whether what the command writes there goes back to the session's file system. */
  writable: boolean;
}

/** What {@link createOsSessionSandbox} needs. */
export interface OsSessionSandboxOptions {
  /** The session's own file system (in a server: its mounts over the database). */
  fs: FsOps;
  mounts: readonly SessionMount[];
  /** A host folder for the per-command private copies (e.g. the OS temp folder); each is removed after use. */
  scratchDir: string;
  /** The host's shell: it starts bubblewrap. */
  hostShell: ShellOps;
  /** `PATH` inside (default {@link SESSION_SANDBOX_PATH}). */
  path?: string;
  description?: string;
  /** The most of a command's stdout and stderr together kept (default `OS_SANDBOX_MAX_OUTPUT_BYTES`). */
  maxOutputBytes?: number;
  /** Bytes the copy of the session's files may take; past it the command does not run. */
  maxCopyBytes?: number;
}

/** `PATH` for a session's commands. */
export const SESSION_SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";
/** Default bound on the bytes copied out of the session's file system for one command. */
export const SESSION_SANDBOX_MAX_COPY_BYTES = 256 * 1024 * 1024;
/** The host's system folders a session's commands see read-only (or as the symlinks they are). */
export const SESSION_SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;
/** The few files of the host's `/etc` programs need (the loader's cache, certificates, names); nothing else. */
export const SESSION_ETC_PATHS = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/localtime",
  "/etc/mime.types",
  "/etc/fonts",
] as const;

/** Quotes one word for `bash -c`. Pure. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** bubblewrap's arguments for the host's system folders: read-only binds, or the symlinks they are. */
async function systemArgs(): Promise<string[]> {
  const args: string[] = [];
  for (const path of [...SESSION_SYSTEM_PATHS, ...SESSION_ETC_PATHS]) {
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) continue;
    if (info.isSymbolicLink()) args.push("--symlink", await readlink(path), path);
    else args.push("--ro-bind", path, path);
  }
  return args;
}

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Copies the session's folder `from` to the host folder `to`; returns each file's digest by relative path. */
async function copyOut(
  fs: FsOps,
  from: string,
  to: string,
  budget: { left: number },
): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    await mkdir(join(to, rel), { recursive: true });
    const entries = await fs.readdir(posix.join(from, rel)).catch(() => []);
    for (const entry of entries) {
      const child = posix.join(rel, entry.name);
      if (entry.kind === "dir") await walk(child);
      else if (entry.kind === "file") {
        const bytes = await fs.readBytes(posix.join(from, child));
        budget.left -= bytes.byteLength;
        if (budget.left < 0) throw new Error("the session's files are too large to copy for a command");
        await writeFile(join(to, child), bytes);
        digests.set(child, digest(bytes));
      }
    }
  };
  await walk("");
  return digests;
}

/**
 * Writes back to the session's folder `to` what changed in the host folder `from`: new and changed files (and
 * their folders), files removed. Symlinks and other special files a command left are not followed or copied.
 */
async function writeBack(fs: FsOps, from: string, to: string, before: Map<string, string>): Promise<void> {
  const seen = new Set<string>();
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(from, rel), { withFileTypes: true })) {
      const child = posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        await fs.mkdir(posix.join(to, child));
        await walk(child);
      } else if (entry.isFile()) {
        seen.add(child);
        const bytes = await readFile(join(from, child));
        if (before.get(child) === digest(bytes)) continue;
        await fs.mkdir(posix.dirname(posix.join(to, child)));
        await fs.writeFile(posix.join(to, child), bytes);
      }
    }
  };
  await walk("");
  for (const rel of before.keys()) if (!seen.has(rel)) await fs.rm(posix.join(to, rel)).catch(() => {});
}

/** What the model is told of a session's OS-tier shell. */
export const OS_SESSION_SANDBOX_DESCRIPTION =
  "Commands run on the server's real binaries (bash, python3 and its installed packages, …) inside an " +
  "operating-system sandbox that sees only this session's files: /workspace and its other mounts. There is no " +
  "network, and nothing else of the server is visible.";

/**
 * The `os` tier for a session whose files are not on the host (a served session's, in the database): before
 * each command its mounts are copied to a private host folder, bubblewrap runs the command with those folders
 * at the same paths (`/workspace`, `/mnt/skills`, …), the host's system folders read-only, a private `/tmp`, no
 * network, no other host path (home folders, other sessions' copies), an environment of its own; afterwards what
 * changed in the writable mounts is written back to the session's file system and the copy removed. bubblewrap
 * is run directly: the sandbox runtime binds the host's `/` at the same paths, so it cannot show the session's
 * folders at theirs. A missing bubblewrap is the host shell's `startError`: the caller checks the dependencies
 * first (`missingLinuxPrograms`).
 */
export function createOsSessionSandbox(
  options: OsSessionSandboxOptions,
): Sandbox & { close(): Promise<void> } {
  const max = options.maxOutputBytes ?? OS_SANDBOX_MAX_OUTPUT_BYTES;
  let closed = false;
  const shell: ShellOps = {
    async run(command: string, run: ShellRunOptions): Promise<ShellResult> {
      if (closed) return notStarted("the OS sandbox was closed: no command runs in it");
      const dir = await mkdtemp(join(options.scratchDir, "skillwright-os-"));
      try {
        const budget = { left: options.maxCopyBytes ?? SESSION_SANDBOX_MAX_COPY_BYTES };
        const copies: Map<string, string>[] = [];
        try {
          for (const [i, mount] of options.mounts.entries())
            copies.push(await copyOut(options.fs, mount.path, join(dir, String(i)), budget));
        } catch (error) {
          return notStarted(error instanceof Error ? error.message : String(error));
        }
        // Aborted while its files were copied out: start nothing (a process started now would miss the abort).
        if (run.signal?.aborted) return cappedResult(ABORTED_BEFORE_START, max, run.timeoutMs);
        const env = { PATH: options.path ?? SESSION_SANDBOX_PATH, HOME: "/tmp", LANG: "C.UTF-8", ...run.env };
        const args = [
          "bwrap",
          "--die-with-parent",
          "--new-session",
          "--unshare-all",
          ...(await systemArgs()),
          "--proc",
          "/proc",
          "--dev",
          "/dev",
          "--tmpfs",
          "/tmp",
          ...options.mounts.flatMap((m, i) => [
            m.writable ? "--bind" : "--ro-bind",
            join(dir, String(i)),
            m.path,
          ]),
          "--chdir",
          run.cwd,
          "--clearenv",
          ...Object.entries(env).flatMap(([k, v]) => ["--setenv", k, v]),
          "--",
          run.shell ?? "bash",
          "-c",
          command,
        ];
        const { env: _inside, ...outside } = run;
        // `exec`: bwrap takes the shell's place, so it is the process group the host shell stops on a deadline
        // or an abort (left behind a shell, it and its sandbox outlived the stop).
        const result = await options.hostShell.run(`exec ${args.map(quote).join(" ")}`, {
          ...outside,
          cwd: dir,
          // Not bash: with its stdin a socket (node's pipes) bash reads the server user's ~/.bashrc first.
          shell: "sh",
        });
        for (const [i, mount] of options.mounts.entries()) {
          const before = copies[i];
          if (mount.writable && before !== undefined)
            await writeBack(options.fs, join(dir, String(i)), mount.path, before);
        }
        return cappedResult(result, max, run.timeoutMs);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
  return {
    tier: "os",
    fs: options.fs,
    shell,
    description: options.description ?? OS_SESSION_SANDBOX_DESCRIPTION,
    close: async () => {
      closed = true;
    },
  };
}
