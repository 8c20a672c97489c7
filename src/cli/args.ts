import { parseArgs } from "node:util";

/** Options shared by every subcommand. */
export const COMMON_OPTIONS = {
  cwd: { type: "string" },
  home: { type: "string" },
  "add-dir": { type: "string", multiple: true },
  json: { type: "boolean" },
  spec: { type: "boolean" },
  model: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export interface CommonArgs {
  command: string | undefined;
  positionals: string[];
  cwd: string | undefined;
  home: string | undefined;
  addDirs: string[];
  json: boolean;
  spec: boolean;
  model: string | undefined;
  help: boolean;
}

export type ParsedArgs = { ok: true; args: CommonArgs } | { ok: false; message: string };

/** Parses the offline subcommands' arguments. Pure; errors are values with a message for the user. */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: COMMON_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...rest] = positionals;
    return {
      ok: true,
      args: {
        command,
        positionals: rest,
        cwd: values.cwd,
        home: values.home,
        addDirs: values["add-dir"] ?? [],
        json: values.json ?? false,
        spec: values.spec ?? false,
        model: values.model,
        help: values.help ?? false,
      },
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
