import type { Engine } from "../engine/engine.js";
import type { CliArgs } from "./args.js";

/** What a CLI command may touch of the process: injected so tests run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  /**
   * Writes to stdout and resolves once the stream can take more (after `drain` when its buffer is full), so
   * large output is produced no faster than it is consumed. Absent: callers fall back to `stdout`.
   */
  writeStdout?: (text: string) => Promise<void>;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress bars redraw in place there). */
  stderrIsTTY?: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  /** The package's `bundled-skills/` dir. */
  bundledDir: string;
  /** The package's web page files (src/serve/web/), served by `serve` at `/`; absent: no page. */
  webDir?: string;
  /** The package version, for `--version`. */
  version?: string;
  /**
   * Identifies this build of the code (the bin's size and mtime). With `version`, it keys the discovery
   * cache, so a rebuilt CLI never trusts heads parsed by older code. No cache without it.
   */
  buildId?: string;
  /** Reads all of stdin (for `-p` without a prompt argument). */
  readStdin?: () => Promise<string>;
  /** Reads stdin line by line as it arrives (`--input-format stream-json`). */
  stdinLines?: () => AsyncIterable<string>;
  /** Asks a yes/no question on the terminal (default no); absent when stdin is not a terminal. */
  confirm?: (question: string) => Promise<boolean>;
  /** Runs the interactive mode; absent when there is no terminal. */
  interactive?: (engine: Engine, io: CliIo, args: CliArgs) => Promise<number>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM), for long-running commands. */
  waitForStop?: () => Promise<void>;
}
