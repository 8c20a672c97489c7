import { parseArgs } from "node:util";
import { INSTALL_SCOPES, type InstallScope } from "../install/install-scope.js";
import type { SkillListingPlacement } from "../prompt/session-prompt.js";
import {
  DEFAULT_SERVE_SANDBOX,
  SERVE_SANDBOX_TIERS,
  type ServeSandboxTier,
  serveSandboxTier,
} from "../serve/sessions/served-sandbox-tier.js";
import { similarNames } from "../skill-tool/did-you-mean.js";
import {
  acceptedOptions,
  CLI_OPTIONS,
  COMMAND_NAMES,
  type CommandName,
  isCommandName,
  isOptionName,
  type OptionName,
} from "./cli-table.js";

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--input-format`: the prompt as text (argument or stdin), or user messages as JSON lines on stdin. */
export const INPUT_FORMATS = ["text", "stream-json"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** `--skill-listing`: where the skill listing goes (default `messages`). */
export const SKILL_LISTING_PLACEMENTS = [
  "messages",
  "system",
] as const satisfies readonly SkillListingPlacement[];

export interface CliArgs {
  /** A command, or undefined for a run (headless with `print`, else interactive). */
  command: CommandName | undefined;
  positionals: string[];
  print: boolean;
  outputFormat: OutputFormat;
  inputFormat: InputFormat;
  model: string | undefined;
  effort: string | undefined;
  allowedTools: string[];
  disallowedTools: string[];
  addDirs: string[];
  pluginDirs: string[];
  mcpConfigs: string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig: boolean;
  /** `--skills-dir` dirs: plain folders of skills. */
  skillsDirs: string[];
  /** `--skills a,b`: only these skills (names or globs) are enabled; undefined: no restriction. */
  onlySkills: string[] | undefined;
  /** `--no-skills a,b`: these skills (names or globs) are disabled. */
  noSkills: string[];
  /** `--env NAME`: the named environment `~/.skillwright/environments/NAME/`. */
  environment: string | undefined;
  /** `--watch`: reload skills when their files change (interactive mode always does). */
  watch: boolean;
  /** `--verbose`: more detail on stderr. */
  verbose: boolean;
  resume: string | undefined;
  maxTurns: number | undefined;
  debugFile: string | undefined;
  appendSystemPrompt: string | undefined;
  /** `--system-prompt`: replaces the base system prompt (wins over `.skillwright/SYSTEM.md`). */
  systemPrompt: string | undefined;
  /** `--skill-listing system`: the skill listing in the system prompt instead of a `<system-reminder>`. */
  skillListing: SkillListingPlacement;
  /** `doctor --prompt`: print the assembled system prompt with each part's origin. */
  prompt: boolean;
  /** `doctor --first-prompt TEXT`: the listing (and visibility) of a session opened with this prompt. */
  firstPrompt: string | undefined;
  runShell: boolean;
  cwd: string | undefined;
  home: string | undefined;
  json: boolean;
  spec: boolean;
  /** `doctor --strict`: exit 1 when any warning or error diagnostic is found. */
  strict: boolean;
  script: string | undefined;
  port: number | undefined;
  /** `serve --host H`: the address to listen on. */
  host: string | undefined;
  /** `serve`/`keys --db DIR|URL`: the PGlite dir or PostgreSQL URL. */
  db: string | undefined;
  /** `serve --api-key KEY`: admitted to the default workspace; `keys --server URL --api-key KEY`: the operator key. */
  apiKey: string | undefined;
  /** `keys … --server URL`: administer keys through that running `serve` instead of opening the store. */
  server: string | undefined;
  /** `serve --host-tools`: served sessions get the built-in file and shell tools, in the cwd. */
  hostTools: boolean;
  /** `serve --mcp-allow-host HOST` (repeatable): agent MCP servers may be on these hosts even when private. */
  mcpAllowHosts: string[];
  /** `serve --sandbox TIER`: where sessions without `--host-tools` run code (default `simulated`). */
  sandbox: ServeSandboxTier;
  /** Whether `--sandbox` was given (a tier asked for by name that cannot run is refused, not replaced). */
  sandboxGiven: boolean;
  /**
   * `serve --sandbox-allow-host HOST` (repeatable): sessions' sandboxed commands may reach these hosts even on
   * a loopback or private address (their environment's networking still decides the rest).
   */
  sandboxAllowHosts: string[];
  /** `serve --prices FILE`: the operator's price table (JSON), checked when serve starts. */
  prices: string | undefined;
  /** `keys create --workspace W`; `keys list`/`revoke --workspace W` keep to that workspace. */
  workspace: string | undefined;
  /** `list`/`doctor --start-mcp`: start the approved MCP servers (the offline commands never do otherwise). */
  startMcp: boolean;
  /** `lint --min-score N`: exit 1 when any skill scores below N (0–100). */
  minScore: number | undefined;
  /** `search --limit N`: how many matches (default 10, as the `SkillSearch` tool). */
  limit: number | undefined;
  /** `test --junit FILE`: also write JUnit XML there. */
  junit: string | undefined;
  /** `test --update`: rewrite expected exact bodies that differ. */
  update: boolean;
  /** `test --baseline`: each session and graded case with the skill and without it. */
  baseline: boolean;
  /** `test --runs N`: runs per side of a baseline. */
  runs: number | undefined;
  /** `tune --candidates N`: how many descriptions to ask the model for. */
  candidates: number | undefined;
  /** `tune --seed N`: the seed of the working/held-out split. */
  seed: number | undefined;
  /** `tune --write`: write the proposed description into the skill's SKILL.md. */
  write: boolean;
  /** `--yes`: go on without asking (`test --baseline`'s model calls; `plugin install/update` gaining powers). */
  yes: boolean;
  /** `stats --session ID`: that session's context, per skill. */
  session: string | undefined;
  /** `add`/`update`/`check`/`remove --scope project|user` (default project). */
  scope: InstallScope;
  /** `add --skill NAME` (repeatable): only these skills of the source. */
  skill: string[];
  /** `add`/`update`/`check --frozen`: change nothing; fail when the lock and the installed files differ. */
  frozen: boolean;
  /** `approve --all`: every skill that waits for approval or is held. */
  all: boolean;
  /** `plugin install --version RANGE` (read as `--plugin-version`): a semver range over release tags. */
  pluginVersion: string | undefined;
  help: boolean;
  version: boolean;
}

/**
 * A parse: the arguments and any warnings to print (a deprecated flag), or why they are wrong (with the command
 * they were for, when one was named, so the message can point at its help).
 */
export type ParsedArgs =
  | { ok: true; args: CliArgs; warnings: string[] }
  | { ok: false; message: string; command?: CommandName };

/** `--allowedTools "Read,Bash(git add:*)" Edit` → each rule; commas and spaces outside parentheses split. */
export function splitToolList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = "";
    for (const char of value) {
      if (char === "(") depth += 1;
      if (char === ")" && depth > 0) depth -= 1;
      if (depth === 0 && (char === "," || char === " ")) {
        if (current.trim() !== "") out.push(current.trim());
        current = "";
      } else current += char;
    }
    if (current.trim() !== "") out.push(current.trim());
  }
  return out;
}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`--${name} takes a positive whole number, got "${value}"`);
  return n;
}

/** `--port N`: 0 to 65535; 0 lets the system choose (the bound port is printed). */
function portNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 65_535)
    throw new Error(`--port takes a whole number from 0 to 65535, got "${value}"`);
  return n;
}

function installScope(value: string | undefined): InstallScope {
  const scope = INSTALL_SCOPES.find((s) => s === (value ?? "project"));
  if (scope === undefined)
    throw new Error(`--scope must be one of ${INSTALL_SCOPES.join(", ")}, got "${value ?? ""}"`);
  return scope;
}

function sandboxTier(value: string | undefined): ServeSandboxTier {
  if (value === undefined) return DEFAULT_SERVE_SANDBOX;
  const tier = serveSandboxTier(value);
  if (tier === undefined)
    throw new Error(`--sandbox must be one of ${SERVE_SANDBOX_TIERS.join(", ")}, got "${value}"`);
  return tier;
}

function searchLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 1_000)
    throw new Error(`--limit takes a whole number from 1 to 1000, got "${value}"`);
  return n;
}

function baselineRuns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 50)
    throw new Error(`--runs takes a whole number from 1 to 50, got "${value}"`);
  return n;
}

function tuneCandidates(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 10)
    throw new Error(`--candidates takes a whole number from 1 to 10, got "${value}"`);
  return n;
}

function splitSeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 0xffffffff)
    throw new Error(`--seed takes a whole number from 0 to 4294967295, got "${value}"`);
  return n;
}

function minScore(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 100)
    throw new Error(`--min-score takes a whole number from 0 to 100, got "${value}"`);
  return n;
}

/**
 * `--skill-listing` (or its old name `--skill-catalog`, which still works and warns): the placement, default
 * `messages`. Throws on a value that is not a placement, or on both flags disagreeing. Pure.
 */
export function skillListingFlag(
  listing: string | undefined,
  catalog: string | undefined,
): { placement: SkillListingPlacement; warnings: string[] } {
  const warnings =
    catalog === undefined ? [] : ["--skill-catalog is deprecated and will be removed: use --skill-listing"];
  if (listing !== undefined && catalog !== undefined && listing !== catalog) {
    throw new Error(
      `--skill-listing ${listing} and --skill-catalog ${catalog} disagree: give --skill-listing alone`,
    );
  }
  const given = listing ?? catalog;
  const flag = listing === undefined && catalog !== undefined ? "--skill-catalog" : "--skill-listing";
  const placement = SKILL_LISTING_PLACEMENTS.find((m) => m === (given ?? "messages"));
  if (placement === undefined) {
    throw new Error(`${flag} must be one of ${SKILL_LISTING_PLACEMENTS.join(", ")}, got "${given ?? ""}"`);
  }
  return { placement, warnings };
}

/** The options a did-you-mean may offer: every long name but the aliases help does not show. */
const SHOWN_OPTIONS = Object.entries(CLI_OPTIONS)
  .filter(([, spec]) => spec.help !== "")
  .map(([name]) => name);

/** `--name` or `-x` as typed, with a did-you-mean when an option is close. Pure. */
function unknownOptionMessage(rawName: string, name: string): string {
  const [close] = similarNames(name, SHOWN_OPTIONS, 1);
  return `unknown option ${rawName}${close === undefined ? "" : ` (did you mean --${close}?)`}`;
}

/**
 * The first option of `argv` that the table does not know, as a message (with the command named before it, if
 * any), or undefined when all are known. Parsed loosely (unknown options are tokens, not errors) so the message
 * is ours, never the parser's. Pure.
 */
function unknownOption(argv: readonly string[]): { message: string; command?: CommandName } | undefined {
  const { tokens } = parseArgs({
    args: [...argv],
    options: CLI_OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const first = tokens.find((token) => token.kind === "positional");
  const command = first !== undefined && isCommandName(first.value) ? first.value : undefined;
  for (const token of tokens) {
    if (token.kind === "option" && !isOptionName(token.name)) {
      const message = unknownOptionMessage(token.rawName, token.name);
      return command === undefined ? { message } : { message, command };
    }
  }
  return undefined;
}

/**
 * The command a run's single word was probably meant to be (`lsit` → list), or undefined when the word is not
 * close to one: any other word stays a prompt, as Claude Code treats it. Pure.
 */
export function mistypedCommand(positionals: readonly string[]): CommandName | undefined {
  const [word] = positionals;
  if (positionals.length !== 1 || word === undefined || /\s/.test(word)) return undefined;
  const [close] = similarNames(word, COMMAND_NAMES, 1);
  return close !== undefined && isCommandName(close) ? close : undefined;
}

/**
 * The first option given that `command` does not take (see `acceptedOptions`), as a message, or undefined. Pure.
 */
function refusedOption(
  command: CommandName | undefined,
  values: Record<string, unknown>,
): string | undefined {
  const accepted = acceptedOptions(command);
  const given = Object.keys(values).filter(
    (name): name is OptionName => isOptionName(name) && values[name] !== undefined,
  );
  const name = given.find((n) => !accepted.has(n));
  if (name === undefined) return undefined;
  if (command === undefined) {
    return name === "json"
      ? "--json is not an option of a run: use --output-format json"
      : `--${name} is not an option of a run (-p or interactive)`;
  }
  if (name === "json") return `${command} prints no JSON: --json is not one of its options`;
  return `--${name} is not an option of ${command}`;
}

/**
 * `plugin … --version RANGE` (Claude Code's spelling) as `--plugin-version RANGE`: after the `plugin` command,
 * a `--version` followed by a value that is not an option is the range, not "print the version". Pure.
 */
function pluginVersionArgs(argv: readonly string[]): readonly string[] {
  if (argv.find((a) => !a.startsWith("-")) !== "plugin") return argv;
  return argv.flatMap((arg, i) => {
    if (arg.startsWith("--version=")) return [`--plugin-version=${arg.slice("--version=".length)}`];
    const next = argv[i + 1];
    return arg === "--version" && next !== undefined && !next.startsWith("-") ? ["--plugin-version"] : [arg];
  });
}

/** Parses the command line. Pure; errors are values with a message for the user. */
export function parseCliArgs(given: readonly string[]): ParsedArgs {
  const argv = pluginVersionArgs(given);
  const unknown = unknownOption(argv);
  if (unknown !== undefined) return { ok: false, ...unknown };
  let command: CommandName | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: CLI_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const first = positionals[0];
    if (!values.print && first !== undefined && isCommandName(first)) command = first;
    if (command === undefined && !values.print) {
      const meant = mistypedCommand(positionals);
      if (meant !== undefined) {
        return {
          ok: false,
          message: `unknown command "${first}" (did you mean ${meant}?); to send it as a prompt, use -p "${first}"`,
          command: meant,
        };
      }
    }
    const refused = refusedOption(command, values);
    if (refused !== undefined) throw new Error(refused);
    const format = values["output-format"] ?? "text";
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      throw new Error(`--output-format must be one of ${OUTPUT_FORMATS.join(", ")}, got "${format}"`);
    }
    const inputFormat = INPUT_FORMATS.find((f) => f === (values["input-format"] ?? "text"));
    if (inputFormat === undefined) {
      throw new Error(
        `--input-format must be one of ${INPUT_FORMATS.join(", ")}, got "${values["input-format"] ?? ""}"`,
      );
    }
    if (inputFormat === "stream-json" && format !== "stream-json") {
      throw new Error("--input-format stream-json needs --output-format stream-json");
    }
    const { placement: skillListing, warnings } = skillListingFlag(
      values["skill-listing"],
      values["skill-catalog"],
    );
    return {
      ok: true,
      warnings,
      args: {
        command,
        positionals: command === undefined ? positionals : positionals.slice(1),
        print: values.print ?? false,
        outputFormat: format as OutputFormat,
        inputFormat,
        model: values.model,
        effort: values.effort,
        allowedTools: splitToolList([...(values.allowedTools ?? []), ...(values["allowed-tools"] ?? [])]),
        disallowedTools: splitToolList([
          ...(values.disallowedTools ?? []),
          ...(values["disallowed-tools"] ?? []),
        ]),
        addDirs: values["add-dir"] ?? [],
        pluginDirs: values["plugin-dir"] ?? [],
        mcpConfigs: values["mcp-config"] ?? [],
        strictMcpConfig: values["strict-mcp-config"] ?? false,
        skillsDirs: values["skills-dir"] ?? [],
        onlySkills: values.skills === undefined ? undefined : splitToolList(values.skills),
        noSkills: splitToolList(values["no-skills"] ?? []),
        environment: values.env,
        watch: values.watch ?? false,
        verbose: values.verbose ?? false,
        resume: values.resume,
        maxTurns: positiveInt(values["max-turns"], "max-turns"),
        debugFile: values["debug-file"],
        appendSystemPrompt: values["append-system-prompt"],
        systemPrompt: values["system-prompt"],
        skillListing,
        prompt: values.prompt ?? false,
        firstPrompt: values["first-prompt"],
        runShell: values["run-shell"] ?? false,
        cwd: values.cwd,
        home: values.home,
        json: values.json ?? false,
        spec: values.spec ?? false,
        strict: values.strict ?? false,
        script: values.script,
        port: portNumber(values.port),
        host: values.host,
        db: values.db,
        apiKey: values["api-key"],
        server: values.server,
        hostTools: values["host-tools"] ?? false,
        mcpAllowHosts: values["mcp-allow-host"] ?? [],
        sandbox: sandboxTier(values.sandbox),
        sandboxGiven: values.sandbox !== undefined,
        sandboxAllowHosts: values["sandbox-allow-host"] ?? [],
        prices: values.prices,
        workspace: values.workspace,
        startMcp: values["start-mcp"] ?? false,
        minScore: minScore(values["min-score"]),
        limit: searchLimit(values.limit),
        junit: values.junit,
        update: values.update ?? false,
        baseline: values.baseline ?? false,
        runs: baselineRuns(values.runs),
        candidates: tuneCandidates(values.candidates),
        seed: splitSeed(values.seed),
        write: values.write ?? false,
        yes: values.yes ?? false,
        session: values.session,
        scope: installScope(values.scope),
        skill: values.skill ?? [],
        frozen: values.frozen ?? false,
        all: values.all ?? false,
        pluginVersion: values["plugin-version"],
        help: values.help ?? false,
        version: values.version ?? false,
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, ...(command === undefined ? {} : { command }) };
  }
}
