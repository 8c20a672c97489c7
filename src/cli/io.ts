/** What a CLI command may touch of the process: injected so tests run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  /** The package's `bundled-skills/` dir. */
  bundledDir: string;
}
