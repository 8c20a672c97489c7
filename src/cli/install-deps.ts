import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../config/settings.js";
import type { InstallerDeps } from "../install/installer-deps.js";
import { createProcessRunner } from "../install/run-process.js";
import { createNodeFileModes } from "../io/atomic-write.js";
import { createNodeFs } from "../io/fs.js";
import type { CliIo } from "./io.js";
import { cliProgress } from "./progress.js";

/**
 * The install commands' I/O for a CLI run: the host file system, git/npm/tar through execa, `os.tmpdir()`,
 * progress on stderr while a source is fetched.
 */
export function installerDeps(io: CliIo): InstallerDeps {
  const fs = createNodeFs({ syncReads: false });
  return {
    fs,
    modes: createNodeFileModes(),
    run: createProcessRunner(io.env),
    makeTempDir: async () => realpath(await mkdtemp(join(tmpdir(), "skillwright-add-"))),
    pluginSettings: async () => (await loadSettings({ fs, home: io.home, projectDir: io.cwd })).settings,
    home: io.home,
    projectDir: io.cwd,
    cwd: io.cwd,
    env: io.env,
    out: (line) => io.stdout(`${line}\n`),
    err: (line) => io.stderr(`${line}\n`),
    progress: cliProgress(io, false),
  };
}
