import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import type { FsOps } from "../io/fs.js";
import type { ShellOps, ShellResult, ShellRunOptions } from "../io/shell.js";
import { type ResolveHost, resolveWithDns } from "../io/url-guard.js";
import { ABORTED_BEFORE_START, cappedResult, notStarted, OS_SANDBOX_MAX_OUTPUT_BYTES } from "./os-sandbox.js";
import type { Sandbox } from "./sandbox.js";
import { NO_NETWORK, type SandboxNetwork } from "./sandbox-network.js";
import { type SessionProxy, startSessionProxy } from "./session-proxy.js";

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
  /** What commands may reach (default none), through a proxy serve runs for the session. */
  network?: SandboxNetwork;
  /** How the proxy resolves a host before the private-address rule (default: the system's resolver). */
  resolve?: ResolveHost;
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

/** Where a command sees the folder holding its session's proxy socket (read-only). */
export const SESSION_PROXY_DIR = "/run/skillwright";
/** The loopback port inside the sandbox that a bridge forwards to the proxy socket. */
export const SESSION_PROXY_PORT = 3128;

/**
 * What a command with network runs first: a bridge (socat, one of the OS tier's dependencies) from the sandbox's
 * own loopback port to the proxy's socket, awaited until it listens (bash's `/dev/tcp`), then `"$0" -c "$1"` (the
 * command's shell and the command, passed as arguments so that nothing is quoted twice). The bridge dies with the
 * sandbox: bubblewrap's PID namespace ends when the command does.
 */
const BRIDGE_SCRIPT =
  `socat TCP-LISTEN:${SESSION_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr ` +
  `UNIX-CONNECT:${SESSION_PROXY_DIR}/proxy.sock 2>/dev/null & bridge=$!; ` +
  `until (: </dev/tcp/127.0.0.1/${SESSION_PROXY_PORT}) 2>/dev/null; do ` +
  `kill -0 "$bridge" 2>/dev/null || { echo "skillwright: the sandbox's network bridge (socat) did not start" >&2; ` +
  `exit 126; }; sleep 0.01; done; exec "$0" -c "$1"`;

/** The proxy variables HTTP clients (curl, Python's urllib and requests, pip, npm, git) read. */
const PROXY_ENV: Readonly<Record<string, string>> = (() => {
  const url = `http://127.0.0.1:${SESSION_PROXY_PORT}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url };
})();

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

/** What the model is told of a session's OS-tier shell whose commands have `network`. Pure. */
export function osSessionDescription(network: SandboxNetwork): string {
  const files =
    "Commands run on the server's real binaries (bash, python3 and its installed packages, …) inside an " +
    "operating-system sandbox that sees only this session's files: /workspace and its other mounts.";
  if (network.mode === "none")
    return `${files} There is no network, and nothing else of the server is visible.`;
  const reach =
    network.mode === "unrestricted"
      ? "public hosts"
      : network.allowedHosts.length === 0
        ? "no host"
        : `only ${network.allowedHosts.join(", ")}`;
  return (
    `${files} HTTP and HTTPS reach ${reach}, through the proxy in HTTP_PROXY and HTTPS_PROXY (a client that ` +
    "ignores them reaches nothing); nothing else of the server is visible."
  );
}

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
  const network = options.network ?? NO_NETWORK;
  let closed = false;
  // The session's proxy, started by its first command (none when the network is none), stopped by `close`.
  let proxy: Promise<{ dir: string; proxy: SessionProxy }> | undefined;
  const proxyDir = () => {
    proxy ??= (async () => {
      const dir = await mkdtemp(join(options.scratchDir, "skillwright-net-"));
      const started = await startSessionProxy(network, join(dir, "proxy.sock"), {
        resolve: options.resolve ?? resolveWithDns,
      });
      return { dir, proxy: started };
    })();
    return proxy.then((p) => p.dir);
  };
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
        let netDir: string | undefined;
        if (network.mode !== "none") {
          try {
            netDir = await proxyDir();
          } catch (error) {
            return notStarted(
              `the session's network proxy could not start: ${error instanceof Error ? error.message : error}`,
            );
          }
        }
        // The host's system folders are read before the last look at the abort, so that nothing is awaited between
        // it and the start: aborted while the files were copied out (or these read), start nothing (a process
        // started now would miss the abort, and a bubblewrap stopped while it sets up can leave its child behind).
        const system = await systemArgs();
        if (run.signal?.aborted) return cappedResult(ABORTED_BEFORE_START, max, run.timeoutMs);
        const env = {
          PATH: options.path ?? SESSION_SANDBOX_PATH,
          HOME: "/tmp",
          LANG: "C.UTF-8",
          ...(netDir === undefined ? {} : PROXY_ENV),
          ...run.env,
        };
        const shellName = run.shell ?? "bash";
        const args = [
          "bwrap",
          "--die-with-parent",
          // No --new-session: the host shell starts each command in a session of its own with no terminal
          // (nothing to inject keystrokes into), and the sandbox's processes staying in that process group is what
          // lets a deadline or an abort stop all of them at once (behind a new session, one stopped while
          // bubblewrap set up could outlive it and hold its output open).
          "--unshare-all",
          ...system,
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
          ...(netDir === undefined ? [] : ["--ro-bind", netDir, SESSION_PROXY_DIR]),
          "--chdir",
          run.cwd,
          "--clearenv",
          ...Object.entries(env).flatMap(([k, v]) => ["--setenv", k, v]),
          "--",
          ...(netDir === undefined
            ? [shellName, "-c", command]
            : ["bash", "-c", BRIDGE_SCRIPT, shellName, command]),
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
    description: options.description ?? osSessionDescription(network),
    close: async () => {
      closed = true;
      const running = await proxy?.catch(() => undefined);
      await running?.proxy.close();
      if (running !== undefined) await rm(running.dir, { recursive: true, force: true });
    },
  };
}
