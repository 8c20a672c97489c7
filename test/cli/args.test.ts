import { describe, expect, it } from "vitest";
import { mistypedCommand, parseCliArgs } from "../../src/cli/args.js";
import {
  acceptedOptions,
  CLI_COMMANDS,
  CLI_OPTIONS,
  COMMAND_NAMES,
  type CommandName,
  type OptionName,
} from "../../src/cli/cli-table.js";
import { commandHelp, generalHelp, usageLines } from "../../src/cli/usage.js";

describe("parseCliArgs: the table drives parsing", () => {
  it.each([
    {
      argv: ["--verison"],
      message: "unknown option --verison (did you mean --version?)",
      command: undefined,
    },
    { argv: ["list", "--jsno"], message: "unknown option --jsno (did you mean --json?)", command: "list" },
    { argv: ["--cwd", "list", "--zzzzzz"], message: "unknown option --zzzzzz", command: undefined },
    { argv: ["-x"], message: "unknown option -x", command: undefined },
    { argv: ["lsit"], message: 'unknown command "lsit" (did you mean list?)', command: "list" },
    {
      argv: ["add", "src", "--json"],
      message: "add prints no JSON: --json is not one of its options",
      command: "add",
    },
    { argv: ["list", "--port", "0"], message: "--port is not an option of list", command: "list" },
    {
      argv: ["add", "x", "--cwd", ".", "--add-dir", "d"],
      message: "--add-dir is not an option of add",
      command: "add",
    },
    {
      argv: ["-p", "hi", "--json"],
      message: "--json is not an option of a run: use --output-format json",
      command: undefined,
    },
    {
      argv: ["-p", "hi", "--db", "d"],
      message: "--db is not an option of a run (-p or interactive)",
      command: undefined,
    },
    {
      argv: ["serve", "--port", "http"],
      message: '--port takes a whole number from 0 to 65535, got "http"',
      command: "serve",
    },
  ])("$argv → $message", ({ argv, message, command }) => {
    const parsed = parseCliArgs(argv);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain(message);
    expect(parsed.command).toBe(command);
  });

  it.each([
    { argv: ["list", "--json"], command: "list", positionals: [] },
    { argv: ["frobnicate"], command: undefined, positionals: ["frobnicate"] },
    { argv: ["-p", "lsit"], command: undefined, positionals: ["lsit"] },
    { argv: ["lsit", "the", "files"], command: undefined, positionals: ["lsit", "the", "files"] },
    { argv: ["show", "greet", "Ada"], command: "show", positionals: ["greet", "Ada"] },
  ])("$argv parses", ({ argv, command, positionals }) => {
    const parsed = parseCliArgs(argv);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.args.command).toBe(command);
    expect(parsed.args.positionals).toEqual(positionals);
  });
});

describe("mistypedCommand", () => {
  it.each([
    [["lsit"], "list"],
    [["List"], "list"],
    [["doctr"], "doctor"],
    [["tests"], "test"],
    [["hello"], undefined],
    [["frobnicate"], undefined],
    [["fix the bug"], undefined],
    [["lsit", "now"], undefined],
  ])("%j → %s", (positionals, want) => {
    expect(mistypedCommand(positionals)).toBe(want);
  });
});

describe("help from the table", () => {
  it("every command has a usage, examples, and help lines of at most 110 characters", () => {
    for (const name of COMMAND_NAMES) {
      const help = commandHelp(name);
      expect(help.startsWith(`Usage: skillwright ${name}`), name).toBe(true);
      expect(CLI_COMMANDS[name].examples.length, name).toBeGreaterThan(0);
      for (const line of help.split("\n")) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(110);
      expect(usageLines(name)).toMatch(new RegExp(`^usage: skillwright ${name}`));
    }
    for (const line of generalHelp().split("\n")) expect(line.length, line).toBeLessThanOrEqual(110);
  });

  it("each command refuses exactly the options it does not take, and its help lists those it takes", () => {
    const refusal = /is not an option|prints no JSON/;
    const commands: (CommandName | undefined)[] = [undefined, ...COMMAND_NAMES];
    for (const command of commands) {
      const accepted = acceptedOptions(command);
      for (const [name, spec] of Object.entries(CLI_OPTIONS)) {
        // With -p the command's word is the prompt: a run, tested as one.
        if (name === "print") continue;
        const option = [`--${name}`, ...(spec.type === "string" ? ["1"] : [])];
        const parsed = parseCliArgs(command === undefined ? ["-p", "hi", ...option] : [command, ...option]);
        const refused = !parsed.ok && refusal.test(parsed.message);
        expect(refused, `${command ?? "a run"} ${name}`).toBe(!accepted.has(name as OptionName));
      }
      if (command === undefined) continue;
      const help = commandHelp(command);
      for (const name of accepted) {
        const shown = CLI_OPTIONS[name].help !== "" && name !== "version";
        if (shown) expect(help, `${command} --${name}`).toContain(`--${name}`);
      }
      expect(help.includes("--json "), command).toBe(accepted.has("json"));
    }
    // Commands differ: serve's options are not list's, and a run takes neither serve's nor --json.
    expect(acceptedOptions("serve").has("port")).toBe(true);
    expect(acceptedOptions("list").has("port")).toBe(false);
    expect(acceptedOptions(undefined).has("json")).toBe(false);
    expect(acceptedOptions("doctor").has("skill-catalog")).toBe(true);
  });
});
