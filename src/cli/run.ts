import { resolve } from "node:path";
import { createEngine } from "../engine.js";
import { parseCliArgs } from "./args.js";
import { doctorCommand } from "./commands/doctor.js";
import { listCommand } from "./commands/list.js";
import { showCommand } from "./commands/show.js";
import { validateCommand } from "./commands/validate.js";
import type { CliIo } from "./io.js";

export const USAGE = `Usage: skillwright <command> [options]

Commands:
  list [--json]                 every skill found, with source, path, description and flags
  doctor [--json]               roots scanned, counts per source, diagnostics, ignored files
  show <name> [args...]         a skill's frontmatter as parsed and its body
  validate <path> [--spec]      check a skill file or dir (exit 1 on errors); --spec adds the Agent Skills profile

Options:
  --cwd <dir>       work as if started in <dir>
  --home <dir>      use <dir> as the home dir (user skills, settings)
  --add-dir <dir>   also load skills from <dir>/.claude/skills (repeatable)
  --json            machine-readable output
`;

/** Runs one CLI invocation and returns the exit code. All process access comes through `io`. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    io.stderr(`${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const args = parsed.args;
  if (args.help || args.command === undefined || args.command === "help") {
    io.stdout(USAGE);
    return 0;
  }
  const cwd = resolve(io.cwd, args.cwd ?? ".");
  const home = resolve(io.cwd, args.home ?? io.home);
  const scoped: CliIo = { ...io, cwd, home };
  const engine = createEngine({
    cwd,
    home,
    env: io.env,
    addDirs: args.addDirs.map((d) => resolve(cwd, d)),
    bundledDir: io.bundledDir,
  });
  switch (args.command) {
    case "list":
      return listCommand(engine, scoped, args.json);
    case "doctor":
      return doctorCommand(engine, scoped, args.json);
    case "show": {
      const [name, ...rest] = args.positionals;
      if (name === undefined) {
        io.stderr(`show needs a skill name\n\n${USAGE}`);
        return 2;
      }
      return showCommand(engine, scoped, name, rest, args.json);
    }
    case "validate": {
      const [target] = args.positionals;
      if (target === undefined) {
        io.stderr(`validate needs a path\n\n${USAGE}`);
        return 2;
      }
      return validateCommand(engine.fs, scoped, target, args.spec, args.json);
    }
    default:
      io.stderr(`Unknown command: ${args.command}\n\n${USAGE}`);
      return 2;
  }
}
