import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { isInside } from "../skill/path-inside.js";

/** The diagnostic for a file whose real path leaves the plugin root. */
export function pathEscape(path: string, real: string, root: string): Diagnostic {
  return diagnostic(
    "error",
    "plugin-path-escape",
    `resolves to ${real}, outside the plugin root ${root}; refused`,
    path,
  );
}

/**
 * Checks that `path` (after every symlink) stays inside `realRoot`, the plugin root's real path. Returns the
 * `plugin-path-escape` diagnostic when it leaves it, undefined when it stays inside or does not exist (the
 * caller reports a missing file its own way). Never throws.
 */
export async function checkConfined(
  fs: FsOps,
  path: string,
  realRoot: string,
): Promise<Diagnostic | undefined> {
  let real: string;
  try {
    real = await fs.realpath(path);
  } catch {
    // Missing, looping or unreadable: the read that follows reports it.
    return undefined;
  }
  return isInside(realRoot, real) ? undefined : pathEscape(path, real, realRoot);
}
