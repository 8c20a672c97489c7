// The CLI behaves as the CLIs people know (issue #45 item 2), through the shipped bin: a command's own short
// help, a did-you-mean for a typo'd command or option (exit 2, no parser text), one clear error for a path that
// is not there, and `--json` only where a command prints JSON.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills/greet/SKILL.md":
      "---\ndescription: Greets the user. Use when greeted.\n---\nHi.\n",
    "broken.json": "{ not json",
  });
});
afterAll(() => tree.cleanup());

describe("per-command help", () => {
  it("`add --help` is add's own: its usage, options and examples, short, on stdout, exit 0", async () => {
    const result = await cli(tree, ["add", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("Usage: skillwright add <source> [--skill NAME] [--scope project|user] [--frozen]");
    expect(result.stdout).toContain("--skill <name>");
    expect(result.stdout).toContain("--frozen");
    expect(result.stdout).toMatch(/Examples:\n {2}skillwright add /);
    // Not the general help: no other command's usage, none of the run options.
    expect(result.stdout).not.toContain("skillwright serve");
    expect(result.stdout).not.toContain("--output-format");
    expect(result.stdout).not.toContain("--json");
    expect(lines.length).toBeLessThan(25);
  });

  it("`help add` prints the same help; `help nosuch` is an error", async () => {
    const viaFlag = await cli(tree, ["add", "--help"]);
    const viaCommand = await cli(tree, ["help", "add"]);
    expect(viaCommand.code).toBe(0);
    expect(viaCommand.stdout).toBe(viaFlag.stdout);
    const unknown = await cli(tree, ["help", "nosuch"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no command "nosuch"');
  });

  it("each command's help differs from the general help and names the command", async () => {
    const general = await cli(tree, ["--help"]);
    for (const command of ["list", "serve", "lint"]) {
      const own = await cli(tree, [command, "--help"]);
      expect(own.code).toBe(0);
      expect(own.stdout).toContain(`Usage: skillwright ${command}`);
      expect(own.stdout).not.toBe(general.stdout);
    }
  });
});

describe("typos", () => {
  it("a single word close to a command is a did-you-mean, exit 2, and starts nothing", async () => {
    const result = await cli(tree, ["lsit"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('unknown command "lsit" (did you mean list?)');
    expect(result.stderr).not.toContain("Interactive mode");
  });

  it("any other word stays a prompt (here: no terminal for the interactive mode)", async () => {
    const result = await cli(tree, ["frobnicate"]);
    expect(result.stderr).not.toContain("unknown command");
    expect(result.stderr).toContain("Interactive mode needs a terminal");
  });

  it("with -p, even a word close to a command is the prompt", async () => {
    const result = await cli(tree, ["-p", "lsit"]);
    expect(result.stderr).not.toContain("unknown command");
    expect(result.stderr).toContain("no API key is set");
  });

  it("an unknown option gets a did-you-mean and exit 2, never the parser's own message", async () => {
    const result = await cli(tree, ["--verison"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "skillwright: unknown option --verison (did you mean --version?)\n" +
        "Run `skillwright --help` for the commands and options.\n",
    );
  });

  it("an unknown option after a command points at that command's help", async () => {
    const result = await cli(tree, ["list", "--jsno"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option --jsno (did you mean --json?)");
    expect(result.stderr).toContain("skillwright list --help");
  });

  it("--json where a command prints no JSON is refused, exit 2", async () => {
    const result = await cli(tree, ["add", "./somewhere", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("add prints no JSON");
  });
});

describe("options a command does not take", () => {
  it.each([
    [["list", "--port", "0"], "--port is not an option of list", "list"],
    [["serve", "--scope", "user"], "--scope is not an option of serve", "serve"],
    [["-p", "hello", "--db", "somewhere"], "--db is not an option of a run (-p or interactive)", undefined],
    [["-p", "hello", "--json"], "--json is not an option of a run: use --output-format json", undefined],
  ])(
    "%j: one line naming the option and where help is, exit 2, nothing run",
    async (argv, message, command) => {
      const result = await cli(tree, argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const hint =
        command === undefined
          ? "Run `skillwright --help` for the commands and options."
          : `Run \`skillwright ${command} --help\` for its usage.`;
      expect(result.stderr).toBe(`skillwright: ${message}\n${hint}\n`);
    },
  );

  it("the options a command does take still work beside the common ones", async () => {
    const result = await cli(tree, [
      "list",
      "--json",
      "--cwd",
      tree.path("home/repo"),
      "--home",
      tree.path("home"),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"greet"');
  });
});

describe("path arguments", () => {
  it.each([
    [["list", "--cwd", "/nope/not-here"]],
    [["doctor", "--strict", "--cwd", "/nope/not-here"]],
    [["-p", "hello", "--cwd", "/nope/not-here"]],
  ])("%j: one clear error naming the flag, exit 2", async (argv) => {
    const result = await cli(tree, argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("skillwright: --cwd /nope/not-here: no such folder\n");
  });

  it("--cwd naming a file is refused too", async () => {
    const result = await cli(tree, ["list", "--cwd", tree.path("broken.json")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not a folder");
  });

  it.each([["--add-dir"], ["--skills-dir"], ["--plugin-dir"]])("%s naming a missing folder", async (flag) => {
    const result = await cli(tree, ["list", flag, "missing-dir"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`skillwright: ${flag} missing-dir: no such folder\n`);
  });

  it("--debug-file in a missing folder is refused before the run", async () => {
    const result = await cli(tree, ["-p", "hello", "--debug-file", "/nope/not-here/debug.jsonl"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillwright: --debug-file /nope/not-here/debug.jsonl: its folder /nope/not-here: no such folder\n",
    );
  });

  it("a missing or broken --mcp-config file is an error, not a --verbose note", async () => {
    const missing = await cli(tree, ["list", "--mcp-config", "missing.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^skillwright: --mcp-config missing\.json: .*no such file/i);
    const broken = await cli(tree, ["list", "--mcp-config", tree.path("broken.json")]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`--mcp-config ${tree.path("broken.json")}: `);
  });

  it("the same command with usable paths works", async () => {
    const result = await cli(tree, ["list", "--json", "--cwd", tree.path("home/repo")]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "greet" })]),
    );
  });
});

describe("validate and lint agree", () => {
  let skills: TmpTree;
  beforeAll(async () => {
    skills = await tmpTree({
      "nul/SKILL.md": "---\nname: nul\ndescription: Has a NUL. Use when testing.\n---\nHello \u0000 world\n",
      "broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\nBody.\n",
    });
  });
  afterAll(() => skills.cleanup());

  it.each([["nul"], ["broken"]])("%s fails validate (default profile) and lint", async (name) => {
    const validate = await cli(skills, ["validate", name], ".");
    expect(validate.code, validate.stdout).toBe(1);
    expect(validate.stdout).toMatch(/error {3}(file-binary|yaml-invalid):/);
    const lint = await cli(skills, ["lint", name], ".");
    expect(lint.code, lint.stdout).toBe(1);
    expect(lint.stdout).toMatch(/error {3}(file-binary|yaml-invalid) /);
  });

  it("the README's example skills (examples/skills/*) pass lint and validate", async () => {
    const examples = fileURLToPath(new URL("../../examples/skills", import.meta.url));
    const lint = await cli(tree, ["lint", examples]);
    expect(lint.code, lint.stdout).toBe(0);
    const validate = await cli(tree, ["validate", examples]);
    expect(validate.code, validate.stdout).toBe(0);
  });
});
