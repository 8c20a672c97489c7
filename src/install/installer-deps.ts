import type { FileModeOps } from "../io/atomic-write.js";
import type { FetchDeps } from "./fetch-source.js";

/** What the install commands need: fetching's needs, file modes, the environment and two output lines. */
export interface InstallerDeps extends FetchDeps {
  modes: FileModeOps;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Prints a line for the user (stdout). */
  out: (line: string) => void;
  /** Prints a problem (stderr). */
  err: (line: string) => void;
  signal?: AbortSignal;
}
