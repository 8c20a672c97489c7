import { describe, expect, it } from "vitest";
import { mistypedCommand, parseCliArgs } from "../../src/cli/args.js";
import { CLI_COMMANDS, COMMAND_NAMES } from "../../src/cli/cli-table.js";
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

  it("a command's help lists --json exactly when the command prints JSON", () => {
    for (const name of COMMAND_NAMES) {
      expect(commandHelp(name).includes("--json "), name).toBe(CLI_COMMANDS[name].json);
    }
  });
});
