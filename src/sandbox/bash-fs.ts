import { posix } from "node:path";
import type {
  BufferEncoding,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import { errorCode, type FileStat, type FsOps } from "../io/fs.js";
import { hasForbiddenCharacter } from "../io/path-limits.js";
import type { SandboxLimits } from "./sandbox-limits.js";

/** What each error code says, as a shell prints it (`cat: x: No such file or directory`). */
export const FS_ERROR_TEXT: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  ENOTEMPTY: "directory not empty",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EFBIG: "file too large",
  EINVAL: "invalid argument",
  ENAMETOOLONG: "file name too long",
  EDQUOT: "disk quota exceeded",
  ENOTSUP: "operation not supported",
};

/**
 * The devices a shell expects under `/dev`, as just-bash's own file system makes them: reads give nothing and
 * writes are discarded (`> /dev/null` is everywhere in real scripts). They live in the adapter, not in the
 * session's file system, so nothing is stored for them.
 */
export const SHELL_DEVICES = ["null", "zero", "stdin", "stdout", "stderr"] as const;
const DEV_DIR = "/dev";
const DEVICE_PATHS: ReadonlySet<string> = new Set(SHELL_DEVICES.map((name) => `${DEV_DIR}/${name}`));

/** What `stat` says of `/dev` and its devices; undefined for any other path. */
function deviceStat(path: string): FsStat | undefined {
  if (path !== DEV_DIR && !DEVICE_PATHS.has(path)) return undefined;
  const dir = path === DEV_DIR;
  return {
    isFile: !dir,
    isDirectory: dir,
    isSymbolicLink: false,
    mode: dir ? 0o40755 : 0o20666,
    size: 0,
    mtime: new Date(0),
  };
}

/** A Node-style error whose message names the code first, as just-bash's own file systems do. */
function shellError(code: string, syscall: string, path: string, why?: string): Error {
  const text = FS_ERROR_TEXT[code] ?? code.toLowerCase();
  const detail = why === undefined ? "" : ` (${why})`;
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${path}'${detail}`), { code, syscall, path });
}

/** An error of the underlying file system, re-worded for the shell (its code kept; its reason kept in brackets). */
function translated(error: unknown, syscall: string, path: string): Error {
  const code = errorCode(error);
  if (code === undefined) return error instanceof Error ? error : new Error(String(error));
  const message = error instanceof Error ? error.message : "";
  const why = /\(([^)]*)\)\s*$/.exec(message)?.[1];
  return shellError(code, syscall, path, why);
}

const fileMode = (kind: FileStat["kind"]): number => (kind === "dir" ? 0o40755 : 0o100644);

function fsStatOf(stat: FileStat): FsStat {
  return {
    isFile: stat.kind === "file",
    isDirectory: stat.kind === "dir",
    isSymbolicLink: stat.kind === "symlink",
    mode: fileMode(stat.kind),
    size: stat.size,
    mtime: new Date(stat.mtimeMs),
    identity: stat.fileId,
  };
}

function bytesOf(content: FileContent, encoding: BufferEncoding | undefined): Uint8Array {
  if (typeof content !== "string") return content;
  return new Uint8Array(Buffer.from(content, encoding === "utf-8" ? "utf8" : (encoding ?? "utf8")));
}

/** The options argument of just-bash's readFile and writeFile. */
type EncodingOption = { encoding?: BufferEncoding | null } | BufferEncoding | null | undefined;

function encodingOf(options: EncodingOption): BufferEncoding | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options === "string") return options;
  return options.encoding ?? undefined;
}

/**
 * just-bash's file system over one of ours: the shell sees exactly `fs` (its mounts decide what is read-only:
 * a write they refuse comes back as that error, `EROFS` printed as "read-only file system"), and nothing of the
 * host. Made for one command: `limits` bound what that command writes (each file's size, how many files, the
 * length, segments and characters of each path it creates; files are counted by path), and a write past them fails with `EFBIG`,
 * `EDQUOT` or `ENAMETOOLONG`/`EINVAL` before it reaches `fs`. Links are not supported (`ENOTSUP`); modes are
 * fixed (directories 755, files 644) and `chmod` changes nothing; `utimes` on a file rewrites it (so a
 * read-only mount refuses `touch` as it refuses a write).
 */
export function createBashFs(fs: FsOps, limits: SandboxLimits): IFileSystem {
  const written = new Set<string>();
  const guardWrite = (syscall: string, path: string, bytes: number): void => {
    const size = Buffer.byteLength(path, "utf8");
    if (size > limits.maxPathBytes) {
      throw shellError("ENAMETOOLONG", syscall, path, `a path is at most ${limits.maxPathBytes} bytes`);
    }
    if (path.split("/").filter((s) => s !== "").length > limits.maxPathSegments) {
      throw shellError(
        "ENAMETOOLONG",
        syscall,
        path,
        `a path has at most ${limits.maxPathSegments} segments`,
      );
    }
    if (hasForbiddenCharacter(path)) {
      throw shellError("EINVAL", syscall, path, "a path has no control or format characters");
    }
    if (bytes > limits.maxFileBytes) {
      throw shellError("EFBIG", syscall, path, `a file written here is at most ${limits.maxFileBytes} bytes`);
    }
    if (!written.has(path) && written.size >= limits.maxFilesWritten) {
      throw shellError("EDQUOT", syscall, path, `a command writes at most ${limits.maxFilesWritten} files`);
    }
    written.add(path);
  };
  const stat = async (path: string): Promise<FileStat> => {
    try {
      return await fs.stat(path);
    } catch (error) {
      throw translated(error, "stat", path);
    }
  };
  const statOrUndefined = async (path: string): Promise<FileStat | undefined> => {
    try {
      return await fs.stat(path);
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
      throw translated(error, "stat", path);
    }
  };
  const readBytes = async (path: string): Promise<Uint8Array> => {
    try {
      return await fs.readBytes(path);
    } catch (error) {
      throw translated(error, "open", path);
    }
  };
  const write = async (path: string, bytes: Uint8Array, syscall = "open"): Promise<void> => {
    guardWrite(syscall, path, bytes.byteLength);
    try {
      await fs.writeFile(path, bytes);
    } catch (error) {
      throw translated(error, syscall, path);
    }
  };
  const readdir = async (path: string) => {
    try {
      return await fs.readdir(path);
    } catch (error) {
      throw translated(error, "scandir", path);
    }
  };
  const copy = async (src: string, dest: string, recursive: boolean): Promise<void> => {
    const from = await stat(src);
    if (from.kind !== "dir") return write(dest, await readBytes(src), "copyfile");
    if (!recursive) throw shellError("EISDIR", "copyfile", src);
    guardWrite("mkdir", dest, 0);
    try {
      await fs.mkdir(dest);
    } catch (error) {
      throw translated(error, "mkdir", dest);
    }
    for (const entry of await readdir(src)) {
      await copy(posix.join(src, entry.name), posix.join(dest, entry.name), true);
    }
  };
  const inner: IFileSystem & Required<Pick<IFileSystem, "readdirWithFileTypes">> = {
    async readFile(path, options) {
      const bytes = await readBytes(path);
      const encoding = encodingOf(options);
      return Buffer.from(bytes).toString(encoding === undefined || encoding === "utf-8" ? "utf8" : encoding);
    },
    readFileBuffer: readBytes,
    async writeFile(path, content, options) {
      await write(path, bytesOf(content, encodingOf(options)));
    },
    async appendFile(path, content, options) {
      const added = bytesOf(content, encodingOf(options));
      const before = (await statOrUndefined(path)) === undefined ? new Uint8Array() : await readBytes(path);
      const joined = new Uint8Array(before.byteLength + added.byteLength);
      joined.set(before, 0);
      joined.set(added, before.byteLength);
      await write(path, joined);
    },
    exists: async (path) => (await statOrUndefined(path)) !== undefined,
    stat: async (path) => fsStatOf(await stat(path)),
    lstat: async (path) => fsStatOf(await stat(path)),
    async mkdir(path, options?: MkdirOptions) {
      const existing = await statOrUndefined(path);
      if (existing !== undefined) {
        if (options?.recursive === true && existing.kind === "dir") return;
        throw shellError("EEXIST", "mkdir", path);
      }
      if (options?.recursive !== true && (await statOrUndefined(posix.dirname(path))) === undefined) {
        throw shellError("ENOENT", "mkdir", path);
      }
      guardWrite("mkdir", path, 0);
      try {
        await fs.mkdir(path);
      } catch (error) {
        throw translated(error, "mkdir", path);
      }
    },
    readdir: async (path) => (await readdir(path)).map((e) => e.name).sort(),
    readdirWithFileTypes: async (path) =>
      (await readdir(path))
        .map((e) => ({
          name: e.name,
          isFile: e.kind === "file",
          isDirectory: e.kind === "dir",
          isSymbolicLink: e.kind === "symlink",
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    async rm(path, options?: RmOptions) {
      const existing = await statOrUndefined(path);
      if (existing === undefined) {
        if (options?.force === true) return;
        throw shellError("ENOENT", "rm", path);
      }
      if (existing.kind === "dir" && options?.recursive !== true) {
        if ((await readdir(path)).length > 0) throw shellError("ENOTEMPTY", "rmdir", path);
      }
      try {
        await fs.rm(path);
      } catch (error) {
        throw translated(error, "rm", path);
      }
    },
    cp: (src, dest, options?: CpOptions) => copy(src, dest, options?.recursive === true),
    async mv(src, dest) {
      await stat(src);
      guardWrite("rename", dest, 0);
      try {
        await fs.rename(src, dest);
      } catch (error) {
        throw translated(error, "rename", src);
      }
    },
    resolvePath: (base, path) => posix.resolve(base, path),
    getAllPaths: () => [],
    async chmod(path) {
      await stat(path);
    },
    async symlink(_target, linkPath) {
      throw shellError("ENOTSUP", "symlink", linkPath, "links are not supported here");
    },
    async link(_existing, newPath) {
      throw shellError("ENOTSUP", "link", newPath, "links are not supported here");
    },
    async readlink(path) {
      await stat(path);
      throw shellError("EINVAL", "readlink", path);
    },
    async realpath(path) {
      try {
        return await fs.realpath(path);
      } catch (error) {
        throw translated(error, "realpath", path);
      }
    },
    async utimes(path) {
      const existing = await stat(path);
      if (existing.kind === "file") await write(path, await readBytes(path), "utime");
    },
  };
  return withDevices(inner);
}

/** `fs` with {@link SHELL_DEVICES} under `/dev` in front of it: everything else goes to `fs` unchanged. */
function withDevices(fs: IFileSystem & Required<Pick<IFileSystem, "readdirWithFileTypes">>): IFileSystem {
  const device = (path: string) => DEVICE_PATHS.has(path);
  return {
    ...fs,
    readFile: async (path, options) => (device(path) ? "" : fs.readFile(path, options)),
    readFileBuffer: async (path) => (device(path) ? new Uint8Array() : fs.readFileBuffer(path)),
    writeFile: async (path, content, options) =>
      device(path) ? undefined : fs.writeFile(path, content, options),
    appendFile: async (path, content, options) =>
      device(path) ? undefined : fs.appendFile(path, content, options),
    exists: async (path) => deviceStat(path) !== undefined || fs.exists(path),
    stat: async (path) => deviceStat(path) ?? fs.stat(path),
    lstat: async (path) => deviceStat(path) ?? fs.lstat(path),
    readdir: async (path) => (path === DEV_DIR ? [...SHELL_DEVICES].sort() : fs.readdir(path)),
    readdirWithFileTypes: async (path) =>
      path === DEV_DIR
        ? [...SHELL_DEVICES]
            .sort()
            .map((name) => ({ name, isFile: true, isDirectory: false, isSymbolicLink: false }))
        : fs.readdirWithFileTypes(path),
    realpath: async (path) => (deviceStat(path) !== undefined ? path : fs.realpath(path)),
  };
}
