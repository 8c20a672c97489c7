import { resolve } from "node:path";
import type { Engine } from "../engine/engine.js";
import { resolveEnvironment } from "../environments/environments.js";
import { UnknownEnvironmentError } from "../environments/unknown-environment-error.js";
import { noticeUnapproved } from "./approval-notices.js";
import { type CliArgs, parseCliArgs } from "./args.js";
import { isCommandName } from "./cli-table.js";
import { discoveryCacheFor } from "./discovery-cache.js";
import type { CliIo } from "./io.js";
import { commandHelp, generalHelp, helpHint, usageLines } from "./usage.js";

/** Runs one CLI invocation and returns the exit code. All process access comes through `io`. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) {
    io.stderr(`skillwright: ${parsed.message}\n${helpHint(parsed.command)}\n`);
    return 2;
  }
  const args = parsed.args;
  for (const warning of parsed.warnings) io.stderr(`skillwright: warning: ${warning}\n`);
  if (args.help || args.command === "help") {
    const help = helpFor(args);
    if (help === undefined) {
      io.stderr(`skillwright: no command "${args.positionals[0]}"\n${helpHint(undefined)}\n`);
      return 2;
    }
    io.stdout(help);
    return 0;
  }
  if (args.version) {
    io.stdout(`${io.version ?? "unknown"}\n`);
    return 0;
  }
  const cwd = resolve(io.cwd, args.cwd ?? ".");
  const home = resolve(io.cwd, args.home ?? io.home);
  const scoped: CliIo = { ...io, cwd, home };
  const badPath = await checkPaths(args, io);
  if (badPath !== undefined) {
    io.stderr(`skillwright: ${badPath}\n`);
    return 2;
  }
  // The server commands need no engine over the local skills: they serve the store's.
  if (args.command === "serve") return (await import("./commands/serve.js")).serveCommand(scoped, args);
  if (args.command === "keys") return (await import("./commands/keys.js")).keysCommand(scoped, args);
  // The install commands read and write skill folders and the lock, not the skills an engine would load.
  if (args.command === "add") return (await import("./commands/add.js")).addCommand(scoped, args);
  if (args.command === "update") return (await import("./commands/update.js")).updateCommand(scoped, args);
  if (args.command === "check") return (await import("./commands/check.js")).checkCommand(scoped, args);
  if (args.command === "remove") return (await import("./commands/remove.js")).removeCommand(scoped, args);
  if (args.command === "plugin" && args.positionals[0] !== "validate") {
    return (await import("./commands/plugin.js")).pluginCommand(scoped, args);
  }
  // Each command loads only what it needs: start-up time is most of a short command's cost.
  if (args.command === undefined && args.print) preloadHeadless();
  const [{ createEngine }, { createNodeFs }] = await Promise.all([
    import("../engine/engine.js"),
    import("../io/fs.js"),
  ]);
  if (args.environment !== undefined) {
    try {
      await resolveEnvironment(createNodeFs(), home, args.environment);
    } catch (error) {
      if (!(error instanceof UnknownEnvironmentError)) throw error;
      io.stderr(`skillwright: ${error.message}\n`);
      return 2;
    }
  }
  const discoveryCache = discoveryCacheFor({ home, env: io.env, version: io.version, buildId: io.buildId });
  const engine = createEngine({
    // Synchronous reads, the default: much faster for a cold scan.
    fs: createNodeFs(),
    cwd,
    home,
    env: io.env,
    addDirs: args.addDirs.map((d) => resolve(io.cwd, d)),
    pluginDirs: args.pluginDirs.map((d) => resolve(io.cwd, d)),
    mcpConfigs: args.mcpConfigs.map((c) => (c.trimStart().startsWith("{") ? c : resolve(io.cwd, c))),
    // The offline commands start no MCP server unless asked (`--start-mcp`); runs start the approved ones.
    startMcp: args.command === undefined || args.startMcp,
    ...(args.strictMcpConfig ? { strictMcpConfig: true } : {}),
    skillsDirs: args.skillsDirs.map((d) => resolve(io.cwd, d)),
    skills: {
      ...(args.onlySkills === undefined ? {} : { only: args.onlySkills }),
      disabled: args.noSkills,
    },
    bundledDir: io.bundledDir,
    ...(args.environment === undefined ? {} : { environment: args.environment }),
    // Interactive sessions follow skill files as they change; `-p` runs only when asked (`--watch`).
    ...(args.command === undefined && (args.watch || !args.print) ? { watch: true } : {}),
    ...(io.version === undefined ? {} : { version: io.version }),
    ...(discoveryCache === undefined ? {} : { discoveryCache }),
  });
  try {
    return await dispatch(engine, scoped, args, io);
  } finally {
    await engine.close();
  }
}

/** Why a path argument cannot be used, or undefined (see `checkPathArguments`). */
async function checkPaths(args: CliArgs, io: CliIo): Promise<string | undefined> {
  const [{ checkPathArguments }, { createNodeFs }] = await Promise.all([
    import("./path-arguments.js"),
    import("../io/fs.js"),
  ]);
  return checkPathArguments(args, { fs: createNodeFs(), cwd: io.cwd, env: io.env });
}

/**
 * The help `--help` or `help` asks for: a command's own (`add --help`, `help add`), else the general help;
 * undefined when `help` names no command. Pure.
 */
function helpFor(args: CliArgs): string | undefined {
  if (args.command !== undefined && args.command !== "help") return commandHelp(args.command);
  const [asked] = args.command === "help" ? args.positionals : [];
  if (asked === undefined) return generalHelp();
  return isCommandName(asked) ? commandHelp(asked) : undefined;
}

/**
 * Starts loading what a `-p` run needs after the engine (the headless command, the model SDK) beside the
 * engine's modules instead of after them: Node reads a module graph's files in parallel, so the run waits for
 * one round of module loading instead of four. The imports the run makes later get these same modules; a
 * load that fails here fails again there, where it is reported.
 */
function preloadHeadless(): void {
  import("./commands/headless.js").catch(() => undefined);
  import("../agent/model-client.js").catch(() => undefined);
  import("../agent/sdk.js").catch(() => undefined);
}

async function dispatch(engine: Engine, scoped: CliIo, args: CliArgs, io: CliIo): Promise<number> {
  switch (args.command) {
    case undefined: {
      await noticeUnapproved(engine, io);
      if (args.print && args.inputFormat === "stream-json") {
        return (await import("./commands/headless.js")).headlessCommand(engine, scoped, args, undefined);
      }
      if (args.print) {
        const prompt =
          args.positionals.length > 0 ? args.positionals.join(" ") : ((await io.readStdin?.()) ?? "");
        if (prompt.trim() === "") {
          io.stderr("skillwright -p needs a prompt (as an argument or on stdin)\n");
          return 2;
        }
        return (await import("./commands/headless.js")).headlessCommand(engine, scoped, args, prompt);
      }
      if (io.interactive === undefined) {
        io.stderr(
          `Interactive mode needs a terminal; use -p "prompt" for one headless turn.\n${helpHint(undefined)}\n`,
        );
        return 2;
      }
      return io.interactive(engine, scoped, args);
    }
    case "list":
      return (await import("./commands/list.js")).listCommand(engine, scoped, args.json);
    case "stats":
      return (await import("./commands/stats.js")).statsCommand(engine, scoped, {
        json: args.json,
        session: args.session,
      });
    case "search":
      return (await import("./commands/search.js")).searchCommand(engine, scoped, {
        query: args.positionals.join(" "),
        json: args.json,
        limit: args.limit,
      });
    case "doctor":
      return (await import("./commands/doctor.js")).doctorCommand(engine, scoped, {
        json: args.json,
        model: args.model,
        strict: args.strict,
        prompt: args.prompt ? args : undefined,
        firstPrompt: args.firstPrompt,
      });
    case "show": {
      const [name, ...rest] = args.positionals;
      if (name === undefined) {
        io.stderr(`skillwright: show needs a skill name\n${helpHint("show")}\n`);
        return 2;
      }
      return (await import("./commands/show.js")).showCommand(engine, scoped, name, rest, {
        json: args.json,
        runShell: args.runShell,
      });
    }
    case "validate": {
      const [target] = args.positionals;
      if (target === undefined) {
        io.stderr(`skillwright: validate needs a path\n${helpHint("validate")}\n`);
        return 2;
      }
      return (await import("./commands/validate.js")).validateCommand(
        engine.fs,
        scoped,
        target,
        args.spec,
        args.json,
      );
    }
    case "dev":
      return (await import("./commands/dev.js")).devCommand(scoped, args);
    case "plugin": {
      const [sub, dir] = args.positionals;
      if (sub !== "validate" || dir === undefined) {
        io.stderr(usageLines("plugin"));
        return 2;
      }
      return (await import("./commands/plugin-validate.js")).pluginValidateCommand(
        engine.fs,
        scoped,
        resolve(scoped.cwd, dir),
        args.json,
      );
    }
    case "mcp":
      return (await import("./commands/mcp.js")).mcpCommand(engine, scoped, args.positionals);
    case "hooks":
    case "permissions":
      return (await import("./commands/project-approval.js")).projectApprovalCommand(
        engine,
        scoped,
        args.command === "hooks" ? "hooks" : "permissions",
        args.positionals,
      );
    case "approve":
      return (await import("./commands/approve.js")).approveCommand(engine, scoped, args.positionals, {
        all: args.all,
      });
    case "lint":
      return (await import("./commands/lint.js")).lintCommand(engine.fs, scoped, args.positionals, {
        json: args.json,
        minScore: args.minScore,
      });
    case "to-prompt":
      return (await import("./commands/to-prompt.js")).toPromptCommand(engine.fs, scoped, args.positionals);
    case "tune": {
      const [name, ...rest] = args.positionals;
      if (name === undefined || rest.length > 0) {
        io.stderr(`skillwright: tune needs one skill name\n${helpHint("tune")}\n`);
        return 2;
      }
      return (await import("./commands/tune.js")).tuneCommand(engine, scoped, name, {
        json: args.json,
        model: args.model,
        candidates: args.candidates,
        seed: args.seed,
        yes: args.yes,
        write: args.write,
      });
    }
    case "test":
      return (await import("./commands/test.js")).testCommand(engine, scoped, args.positionals, {
        json: args.json,
        model: args.model,
        junit: args.junit,
        update: args.update,
        baseline: args.baseline,
        runs: args.runs,
        yes: args.yes,
      });
    default:
      io.stderr(`skillwright: ${args.command} cannot run here\n${helpHint(undefined)}\n`);
      return 2;
  }
}
