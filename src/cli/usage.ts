import {
  CLI_COMMANDS,
  CLI_OPTIONS,
  COMMAND_NAMES,
  type CommandName,
  type OptionName,
  type OptionSpec,
  PLACE_OPTIONS,
  RUN_OPTIONS,
  SKILL_SOURCE_OPTIONS,
} from "./cli-table.js";

/** Where help's second column starts. */
const HELP_COLUMN = 28;
/** How wide help's lines may be (the second column wraps at it). */
const HELP_WIDTH = 110;

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). Pure. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/**
 * `  name  text`, the text starting at {@link HELP_COLUMN} (on the next line when the name is longer) and
 * wrapped there. Pure.
 */
function row(name: string, text: string): string {
  const head = `  ${name}`;
  const indent = " ".repeat(HELP_COLUMN);
  const lines = wrap(text, HELP_WIDTH - HELP_COLUMN).map((line) => `${indent}${line}`);
  const first = lines[0] ?? indent;
  if (head.length + 2 > HELP_COLUMN) return [head, ...lines].join("\n");
  return [`${head.padEnd(HELP_COLUMN)}${first.trimStart()}`, ...lines.slice(1)].join("\n");
}

/** An option's help row: `-p, --print`, `--cwd <dir>`. Pure. */
function optionRow(name: OptionName): string {
  const spec: OptionSpec = CLI_OPTIONS[name];
  const short = spec.short === undefined ? "" : `-${spec.short}, `;
  const value = spec.value === undefined ? "" : ` ${spec.value}`;
  return row(`${short}--${name}${value}`, spec.help);
}

/** The general help: how to run, the commands, the run and common options. Pure. */
export function generalHelp(): string {
  const commands = COMMAND_NAMES.map((name) => row(name, CLI_COMMANDS[name].summary));
  return [
    "Usage:",
    "  skillwright                        interactive session (needs ANTHROPIC_API_KEY)",
    '  skillwright -p "prompt" [options]  one headless turn; a prompt starting with /name runs that skill',
    "  skillwright <command> [options]",
    "",
    "Commands:",
    ...commands,
    "",
    "Run options (interactive and -p):",
    ...RUN_OPTIONS.map(optionRow),
    "",
    "Options of every command that loads skills:",
    ...[...PLACE_OPTIONS, ...SKILL_SOURCE_OPTIONS].map(optionRow),
    optionRow("help"),
    optionRow("version"),
    "",
    "Run `skillwright <command> --help` for a command's options and examples.",
    "",
  ].join("\n");
}

/** One command's help: usage, what it does, its options (then where it works), examples. Pure. */
export function commandHelp(name: CommandName): string {
  const spec = CLI_COMMANDS[name];
  const details: readonly string[] = "details" in spec ? spec.details : [];
  const options: OptionName[] = [
    ...spec.options,
    ...PLACE_OPTIONS,
    ...(spec.skills ? SKILL_SOURCE_OPTIONS : []),
    "help",
  ];
  return [
    ...spec.usage.map((usage, i) => `${i === 0 ? "Usage:" : "      "} skillwright ${usage}`),
    "",
    `${spec.summary.charAt(0).toUpperCase()}${spec.summary.slice(1)}.`,
    ...details,
    "",
    "Options:",
    ...options.map(optionRow),
    "",
    "Examples:",
    ...spec.examples.map((example) => `  ${example}`),
    "",
  ].join("\n");
}

/**
 * A command's usage lines as its argument errors print them (`usage: skillwright add <source> …`), from the same
 * table as its help. Pure.
 */
export function usageLines(name: CommandName): string {
  return `${CLI_COMMANDS[name].usage.map((usage, i) => `${i === 0 ? "usage:" : "      "} skillwright ${usage}`).join("\n")}\n`;
}

/** What follows an argument error: where to read the right usage. Pure. */
export function helpHint(command: CommandName | undefined): string {
  return command === undefined
    ? "Run `skillwright --help` for the commands and options."
    : `Run \`skillwright ${command} --help\` for its usage.`;
}
