import { posix } from "node:path";
import type { FsOps } from "../../src/io/fs.js";

/**
 * `fs` with the trees under `prefixes` read-only, as a served session's skill and read-only memory mounts are:
 * a write, mkdir, rename or rm that touches them rejects with `EROFS` and changes nothing.
 */
export function readOnlyAt(fs: FsOps, prefixes: readonly string[]): FsOps {
  const inside = (path: string) => {
    const normal = posix.normalize(path);
    return prefixes.some((prefix) => normal === prefix || normal.startsWith(`${prefix}/`));
  };
  const refuse = (syscall: string, path: string) =>
    Promise.reject(
      Object.assign(new Error(`EROFS: ${syscall} '${path}' (mounted read-only)`), {
        code: "EROFS",
        syscall,
        path,
      }),
    );
  return {
    ...fs,
    writeFile: (path, data) => (inside(path) ? refuse("open", path) : fs.writeFile(path, data)),
    mkdir: (path) => (inside(path) ? refuse("mkdir", path) : fs.mkdir(path)),
    rename: (from, to) => (inside(from) || inside(to) ? refuse("rename", from) : fs.rename(from, to)),
    rm: (path) => (inside(path) ? refuse("rm", path) : fs.rm(path)),
  };
}
