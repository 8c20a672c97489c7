/**
 * The CLI's grammar as one table: every option (its parse type and its help line) and every command (its usage,
 * its own options (`json` among them where it prints its results as JSON) and its examples). src/cli/args.ts parses with
 * it and src/cli/usage.ts prints help from it, so a command added here is parsed and documented at once.
 */

/** One option: what node:util's parseArgs needs, then what help prints. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in help (`<dir>`); string options only. */
  value?: string;
  /** One line of help; empty for an alias help does not show. */
  help: string;
}

/**
 * Every option the CLI knows; names follow Claude Code's headless mode where they overlap. A command takes only
 * those {@link acceptedOptions} names for it; any other is refused before anything runs.
 */
export const CLI_OPTIONS = {
  print: { type: "boolean", short: "p", help: "one headless turn: the prompt from the arguments or stdin" },
  "output-format": { type: "string", value: "text|json|stream-json", help: "headless output (default text)" },
  "input-format": {
    type: "string",
    value: "text|stream-json",
    help: "stream-json: user messages as JSON lines on stdin, one turn each (needs --output-format stream-json)",
  },
  model: { type: "string", value: "<id|alias>", help: "the model (a run, doctor's listing, test)" },
  effort: { type: "string", value: "<low|medium|high|xhigh|max>", help: "the model's effort setting" },
  allowedTools: {
    type: "string",
    multiple: true,
    value: "<rules>",
    help: 'allow without asking, e.g. "Bash(git add:*),Read"',
  },
  "allowed-tools": { type: "string", multiple: true, value: "<rules>", help: "" },
  disallowedTools: {
    type: "string",
    multiple: true,
    value: "<rules>",
    help: "remove tools (bare names) or deny calls (scoped rules)",
  },
  "disallowed-tools": { type: "string", multiple: true, value: "<rules>", help: "" },
  resume: { type: "string", short: "r", value: "<session-id>", help: "continue that session" },
  "max-turns": { type: "string", value: "<n>", help: "stop after n model turns" },
  "debug-file": { type: "string", value: "<path>", help: "discovery and every event as JSON lines" },
  "system-prompt": {
    type: "string",
    value: "<text>",
    help: "replace the base system prompt (else .skillwright/SYSTEM.md, project then ~)",
  },
  "append-system-prompt": {
    type: "string",
    value: "<text>",
    help: "append to the system prompt (after .skillwright/APPEND_SYSTEM.md)",
  },
  "skill-listing": {
    type: "string",
    value: "messages|system",
    help: "the skill listing in a <system-reminder> (default) or in the system prompt",
  },
  "skill-catalog": { type: "string", value: "messages|system", help: "" },
  watch: { type: "boolean", help: "reload skills when their files change (interactive mode always does)" },
  cwd: { type: "string", value: "<dir>", help: "work as if started in <dir> (it must exist)" },
  home: {
    type: "string",
    value: "<dir>",
    help: "use <dir> as the home dir (user skills, settings, sessions)",
  },
  "add-dir": {
    type: "string",
    multiple: true,
    value: "<dir>",
    help: "also load <dir> as a project: its .claude/skills, .agents/skills, .claude/commands",
  },
  "skills-dir": {
    type: "string",
    multiple: true,
    value: "<dir>",
    help: "also load <dir> itself as a folder of skills (<dir>/<name>/SKILL.md)",
  },
  "plugin-dir": { type: "string", multiple: true, value: "<dir>", help: "load the plugin in <dir>" },
  "mcp-config": {
    type: "string",
    multiple: true,
    value: "<file|json>",
    help: "MCP servers from this file or inline JSON (a missing or broken file is an error)",
  },
  "strict-mcp-config": {
    type: "boolean",
    help: "only the --mcp-config servers (no .mcp.json, no plugin servers)",
  },
  skills: {
    type: "string",
    multiple: true,
    value: "<names>",
    help: "only these skills (names or globs, comma-separated)",
  },
  "no-skills": {
    type: "string",
    multiple: true,
    value: "<names>",
    help: "disable these skills (names or globs)",
  },
  env: {
    type: "string",
    value: "<name>",
    help: "use the named environment ~/.skillwright/environments/<name>/",
  },
  verbose: { type: "boolean", help: "more detail on stderr (session, skills, diagnostics, warnings)" },
  json: { type: "boolean", help: "machine-readable output on stdout" },
  "start-mcp": {
    type: "boolean",
    help: "start the approved MCP servers (offline commands never do otherwise)",
  },
  spec: { type: "boolean", help: "judge by the strict Agent Skills profile" },
  strict: { type: "boolean", help: "exit 1 on any warning or error diagnostic" },
  prompt: { type: "boolean", help: "the assembled system prompt, each part headed by its origin" },
  "first-prompt": {
    type: "string",
    value: "<text>",
    help: "the listing of a session opened with this prompt",
  },
  "run-shell": { type: "boolean", help: "run the skill's inline shell in the expansion" },
  "min-score": { type: "string", value: "<n>", help: "exit 1 when a skill scores below n (0-100)" },
  limit: { type: "string", value: "<n>", help: "how many matches (default 10)" },
  junit: { type: "string", value: "<file>", help: "also write JUnit XML to <file>" },
  baseline: {
    type: "boolean",
    help: "run session and graded cases with the skill and without it, against the model, and compare",
  },
  runs: { type: "string", value: "<n>", help: "runs per side of --baseline (default 3, at most 50)" },
  candidates: {
    type: "string",
    value: "<n>",
    help: "descriptions tune asks the model for (default 3, at most 10)",
  },
  seed: {
    type: "string",
    value: "<n>",
    help: "the seed of tune's working/held-out split (default: from the name)",
  },
  write: { type: "boolean", help: "write tune's proposed description into the skill's SKILL.md" },
  session: { type: "string", value: "<id>", help: "the session whose context stats shows" },
  yes: {
    type: "boolean",
    short: "y",
    help: "go on without asking (test --baseline's and tune's model calls; a plugin update that gains powers)",
  },
  update: { type: "boolean", help: "rewrite expected exact bodies that differ" },
  script: { type: "string", value: "<turns.json>", help: "answer from this scripted model (offline)" },
  port: { type: "string", value: "<n>", help: "the port to listen on (0: a free one, printed)" },
  host: { type: "string", value: "<address>", help: "the address to listen on (default 127.0.0.1)" },
  db: {
    type: "string",
    value: "<dir|url>",
    help: "the PGlite dir or postgres:// URL (default ~/.skillwright/data)",
  },
  "api-key": {
    type: "string",
    value: "<key>",
    help: "the API key (serve: admitted; keys --server: the operator's)",
  },
  "host-tools": { type: "boolean", help: "sessions get this host's file and shell tools, in --cwd" },
  "mcp-allow-host": {
    type: "string",
    multiple: true,
    value: "<host>",
    help: "agents' MCP servers may be on this private or loopback host",
  },
  sandbox: {
    type: "string",
    value: "none|simulated|os",
    help: "where sessions run code (default simulated: WebAssembly over the session's files)",
  },
  "sandbox-allow-host": {
    type: "string",
    multiple: true,
    value: "<host>",
    help: "sandboxed commands may reach this private or loopback host",
  },
  prices: {
    type: "string",
    value: "<file>",
    help: "a JSON price table (USD per million tokens by model): the web page shows costs",
  },
  workspace: { type: "string", value: "<name>", help: "the workspace" },
  server: { type: "string", value: "<url>", help: "through this running serve instead of the database" },
  scope: {
    type: "string",
    value: "project|user",
    help: "the project's .claude/skills (default) or ~/.claude/skills",
  },
  skill: {
    type: "string",
    multiple: true,
    value: "<name>",
    help: "only this skill of the source (repeatable)",
  },
  frozen: { type: "boolean", help: "change nothing; fail when the lock and the installed files differ" },
  all: { type: "boolean", help: "every skill that waits for approval or is held" },
  "plugin-version": {
    type: "string",
    value: "<range>",
    help: "plugin install: a semver range over the plugin's release tags (also written --version)",
  },
  help: { type: "boolean", short: "h", help: "this help" },
  version: { type: "boolean", short: "v", help: "the version" },
} as const satisfies Record<string, OptionSpec>;

/** An option's long name. */
export type OptionName = keyof typeof CLI_OPTIONS;

/** The options every command takes: where it works. */
export const PLACE_OPTIONS = ["cwd", "home"] as const satisfies readonly OptionName[];

/** The options of every command that loads the skills of a project: which skills it finds. */
export const SKILL_SOURCE_OPTIONS = [
  "add-dir",
  "skills-dir",
  "plugin-dir",
  "mcp-config",
  "strict-mcp-config",
  "skills",
  "no-skills",
  "env",
] as const satisfies readonly OptionName[];

/** The options of a run (interactive or `-p`), as Claude Code's headless mode names them. */
export const RUN_OPTIONS = [
  "print",
  "output-format",
  "input-format",
  "model",
  "effort",
  "allowedTools",
  "disallowedTools",
  "resume",
  "max-turns",
  "debug-file",
  "system-prompt",
  "append-system-prompt",
  "skill-listing",
  "watch",
  "verbose",
] as const satisfies readonly OptionName[];

/** One command: what help shows and what parsing allows. */
export interface CommandSpec {
  /** What follows `skillwright` in the usage lines (the command and its operands). */
  usage: readonly string[];
  /** One line for the command list of `skillwright --help`. */
  summary: string;
  /** A few more lines for the command's own help. */
  details?: readonly string[];
  /**
   * Its own options, in help order (the place options and, with `skills`, the source options follow); with
   * those and `--help`/`--version`, the only ones it takes.
   */
  options: readonly OptionName[];
  /** Whether it loads the project's skills (and so takes {@link SKILL_SOURCE_OPTIONS}). */
  skills: boolean;
  examples: readonly string[];
}

/** Every command; anything else on the command line is a prompt (or, close to a command's name, a typo). */
export const CLI_COMMANDS = {
  list: {
    usage: ["list [--json] [--start-mcp]"],
    summary: "every skill found, with source, path, description and flags",
    options: ["json", "start-mcp"],
    skills: true,
    examples: ["skillwright list", "skillwright list --json --cwd examples/project"],
  },
  search: {
    usage: ["search <query> [--json] [--limit N]"],
    summary: "the skills SkillSearch would return for the query, best first",
    details: ["With what the model sees of each when the query opens the session."],
    options: ["json", "limit"],
    skills: true,
    examples: ['skillwright search "review a pull request" --limit 3'],
  },
  stats: {
    usage: ["stats [--json]", "stats --session ID [--json]"],
    summary: "per skill: invocations, by whom (user, model, nested) and last use",
    details: [
      "--session ID: what each skill costs that session's context now: listing lines, live expansions,",
      "re-attachments after compaction, expired stubs and its forks (as /context shows), in estimated tokens.",
    ],
    options: ["json", "session"],
    skills: true,
    examples: ["skillwright stats --json", "skillwright stats --session 0b6c… --json"],
  },
  doctor: {
    usage: [
      "doctor [--json] [--model M] [--strict] [--first-prompt TEXT] [--start-mcp]",
      "doctor --prompt [--json]",
    ],
    summary: "roots, counts, diagnostics, the listing the model sees and each skill's visibility",
    details: [
      "Roots and whether they exist, diagnostics by file, ignored near-misses, the listing for model M and its",
      "size, and what the model sees of each skill (full, cut, name-only, absent and why). --prompt prints the",
      "assembled system prompt instead, each part headed by its origin.",
    ],
    options: [
      "json",
      "model",
      "strict",
      "first-prompt",
      "prompt",
      "start-mcp",
      "system-prompt",
      "append-system-prompt",
      "skill-listing",
      "disallowedTools",
    ],
    skills: true,
    examples: ["skillwright doctor --strict", "skillwright doctor --prompt --cwd examples/project"],
  },
  show: {
    usage: ["show <name> [args...] [--run-shell] [--json]"],
    summary: "a skill's frontmatter and its exact expansion for args",
    options: ["run-shell", "json"],
    skills: true,
    examples: ["skillwright show greet Ada --skills-dir examples/skills"],
  },
  validate: {
    usage: ["validate <path> [--spec] [--json]"],
    summary: "check a SKILL.md, a skill dir or a dir of skills (exit 1 on errors)",
    details: [
      "--spec judges by the strict Agent Skills profile instead (engine limits are listed, not counted).",
    ],
    options: ["spec", "json"],
    skills: false,
    examples: ["skillwright validate examples/skills/greet", "skillwright validate .claude/skills --spec"],
  },
  lint: {
    usage: ["lint [path...] [--json] [--min-score N]"],
    summary: "risky shell, secrets, side effects, links, description, listing cost; a 0-100 score per skill",
    details: [
      "Default: the project's .claude/skills and .agents/skills. Exit 1 on any error (every validate --spec error",
      "is one) or a score below N.",
    ],
    options: ["json", "min-score"],
    skills: false,
    examples: ["skillwright lint", "skillwright lint examples/skills --min-score 80"],
  },
  "to-prompt": {
    usage: ["to-prompt <skill-dir...>"],
    summary: "the <available_skills> XML block for the skills (as skills-ref)",
    options: [],
    skills: false,
    examples: ["skillwright to-prompt examples/skills"],
  },
  test: {
    usage: [
      "test [path...] [--json] [--junit F] [--update] [--model M]",
      "test [path...] --baseline [--runs N] [--yes] [--json] [--junit F]",
    ],
    summary: "run the cases in <skill>/tests/*.yaml (default: every skill of the project)",
    details: [
      "Exit 1 on any failure. --baseline runs each session and graded case N times with the skill and N times",
      "without it (removed from the catalog) against the model of ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL, and",
      "reports pass rate (mean ± sd), model requests, tokens, cache reads and wall time on each side and their",
      "difference. It says how many sessions that is first and asks (--yes when stdin is not a terminal). A",
      "failing without-skill side is the point: it fails the run only where a case pins `baseline:` it must beat.",
    ],
    options: ["json", "junit", "update", "model", "baseline", "runs", "yes"],
    skills: true,
    examples: [
      "skillwright test",
      "skillwright test .claude/skills/deploy --junit report.xml",
      "skillwright test .claude/skills/deploy --baseline --runs 5 --yes --json",
    ],
  },
  tune: {
    usage: ["tune <skill> [--candidates N] [--seed N] [--model M] [--yes] [--json] [--write]"],
    summary:
      "ask the model for a better description; keep it only if it does better on held-out trigger cases",
    details: [
      "Splits the trigger cases of the skill and of its five closest neighbours (by the offline search) into a",
      "working and a held-out part (seeded by the name, or --seed), asks the model of ANTHROPIC_API_KEY/",
      "ANTHROPIC_BASE_URL for N descriptions, runs every prompt with each as `test` runs trigger cases, and",
      "proposes the best on the working part only if the skill's held-out recall rises and no neighbour's",
      "precision falls. It says how many model calls first and asks (--yes when stdin is not a terminal).",
      "Writes nothing without --write, which changes only `description:` in the SKILL.md frontmatter.",
    ],
    options: ["candidates", "seed", "model", "yes", "json", "write"],
    skills: true,
    examples: [
      "skillwright tune deploy",
      "skillwright tune deploy --candidates 5 --seed 7 --yes --json",
      "skillwright tune deploy --yes --write",
    ],
  },
  plugin: {
    usage: [
      "plugin validate <dir> [--json]",
      "plugin marketplace add <path | git URL | owner/repo>",
      "plugin marketplace list [--json] | update [name...] | remove <name>",
      "plugin install <name@marketplace> [--version RANGE] [--frozen] [--yes]",
      "plugin update [name...] [--frozen] [--yes] | uninstall <name...>",
      "plugin configure <name> [key=value...]",
    ],
    summary: "check plugins; register marketplaces; install, update and configure plugins",
    details: [
      "Plugins install into ~/.skillwright/plugins/installed, locked under `plugins` in",
      "~/.skillwright/skills-lock.json. A range picks the highest {name}--v{version} tag of the marketplace",
      "repository. An update that gains hooks, MCP servers or powers asks in a terminal, else needs --yes.",
      "Sensitive settings go to a file only you can read.",
    ],
    options: ["json", "plugin-version", "frozen", "yes"],
    skills: false,
    examples: [
      "skillwright plugin validate plugins/git-guard",
      "skillwright plugin marketplace add acme/claude-plugins",
      "skillwright plugin install deploy-kit@acme --version ^2.1",
      "skillwright plugin configure deploy-kit api_token=…",
    ],
  },
  dev: {
    usage: ["dev model-server --script <turns.json> [--port N]"],
    summary: "a scripted Messages API server for testing skills offline",
    options: ["script", "port"],
    skills: false,
    examples: ["skillwright dev model-server --script examples/turns.json --port 0"],
  },
  serve: {
    usage: ["serve [--port N] [--host H] [--db DIR|URL] [--api-key KEY] [--sandbox TIER] [options]"],
    summary: "the Skills/Agents/Sessions API of the SDK's client.beta, and its web page",
    details: [
      "The key also comes from SKILLWRIGHT_API_KEY (else one is made and printed). Sessions use",
      "ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL, or --script's scripted model. GET /healthz answers while the",
      "process runs; GET /readyz once the database answers. Each request is logged on stderr with its request-id.",
      "Private MCP hosts need --mcp-allow-host or SKILLWRIGHT_MCP_ALLOW_HOSTS; private hosts for sandboxed",
      "commands need --sandbox-allow-host or SKILLWRIGHT_SANDBOX_ALLOW_HOSTS.",
    ],
    options: [
      "port",
      "host",
      "db",
      "api-key",
      "sandbox",
      "sandbox-allow-host",
      "host-tools",
      "mcp-allow-host",
      "script",
      "prices",
    ],
    skills: false,
    examples: [
      "skillwright serve --port 0 --api-key sk-local --script examples/turns.json",
      "skillwright serve --db postgres://user@localhost/skillwright --host 0.0.0.0",
    ],
  },
  keys: {
    usage: [
      "keys create --workspace <name> [--db DIR|URL | --server URL --api-key KEY]",
      "keys list [--workspace <name>] [--json] [--db DIR|URL | --server URL --api-key KEY]",
      "keys revoke <id-or-prefix> [--workspace <name>] [--db DIR|URL | --server URL --api-key KEY]",
    ],
    summary: "make, list and revoke serve's API keys",
    details: [
      "A new key is printed once. With --server URL --api-key KEY, through a running serve (with the key it was",
      "started with); revoked keys are refused by running serve instances within 5 s.",
    ],
    options: ["workspace", "db", "server", "api-key", "json"],
    skills: false,
    examples: ["skillwright keys create --workspace team-a", "skillwright keys list --json"],
  },
  add: {
    usage: ["add <source> [--skill NAME] [--scope project|user] [--frozen]"],
    summary: "install skills from git, owner/repo[/path], plugin@marketplace, npm:<name>, a .tgz or a dir",
    details: [
      "Into .claude/skills (--scope user: ~/.claude/skills), locked in skills-lock.json. Prints each skill's",
      "capabilities and lint result first.",
    ],
    options: ["skill", "scope", "frozen"],
    skills: false,
    examples: [
      "skillwright add anthropics/skills/skills/pdf",
      "skillwright add https://github.com/org/repo.git --skill deploy --scope user",
    ],
  },
  update: {
    usage: ["update [NAME...] [--scope S] [--frozen]"],
    summary: "install the locked skills whose upstream changed; move the lock",
    options: ["scope", "frozen"],
    skills: false,
    examples: ["skillwright update", "skillwright update pdf --scope user"],
  },
  check: {
    usage: ["check [NAME...] [--scope S] [--frozen]"],
    summary: "exit 1 naming each locked skill whose upstream moved or whose copy drifted",
    details: ["--frozen: the installed copies only (no fetching)."],
    options: ["scope", "frozen"],
    skills: false,
    examples: ["skillwright check --frozen"],
  },
  remove: {
    usage: ["remove <NAME...> [--scope S]"],
    summary: "delete a locked skill's folder and its lock entry",
    options: ["scope"],
    skills: false,
    examples: ["skillwright remove pdf"],
  },
  approve: {
    usage: ["approve <skill...> [--start-mcp]", "approve --all [--start-mcp]"],
    summary: "approve project, --add-dir, plugin or MCP skills as they are now",
    details: [
      "Pins their capabilities (allowed-tools, hooks, inline shell, fork, scripts) in ~/.skillwright/approvals.json;",
      "one that gains a capability later is held until approved again. MCP skills need --start-mcp.",
    ],
    options: ["all", "start-mcp"],
    skills: true,
    examples: ["skillwright approve commit-message", "skillwright approve --all"],
  },
  mcp: {
    usage: ["mcp approve <server-name>"],
    summary: "let a project or plugin MCP server start (writes .claude/settings.local.json)",
    options: [],
    skills: true,
    examples: ["skillwright mcp approve github"],
  },
  hooks: {
    usage: ["hooks approve"],
    summary: "let the hooks in the project's committed settings run",
    options: [],
    skills: true,
    examples: ["skillwright hooks approve"],
  },
  permissions: {
    usage: ["permissions approve"],
    summary: "let the allow rules and additionalDirectories of those settings apply",
    options: [],
    skills: true,
    examples: ["skillwright permissions approve"],
  },
  help: {
    usage: ["help [command]"],
    summary: "this help, or a command's",
    options: [],
    skills: false,
    examples: ["skillwright help add"],
  },
} as const satisfies Record<string, CommandSpec>;

/** A command's name. */
export type CommandName = keyof typeof CLI_COMMANDS;

/** The command names, in help order. */
export const COMMAND_NAMES = Object.keys(CLI_COMMANDS) as CommandName[];

/** Whether `word` names a command. Pure. */
export function isCommandName(word: string): word is CommandName {
  return Object.hasOwn(CLI_COMMANDS, word);
}

/** Whether `name` is an option's long name. Pure. */
export function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(CLI_OPTIONS, name);
}

/** The other names help does not show (`--allowed-tools` for `--allowedTools`, …), by the name they stand for. */
const ALIASES: readonly (readonly [OptionName, OptionName])[] = [
  ["allowed-tools", "allowedTools"],
  ["disallowed-tools", "disallowedTools"],
  ["skill-catalog", "skill-listing"],
];

/**
 * The options `command` takes (undefined: a run, `-p` or interactive): its own, where it works, with `skills` the
 * options choosing which skills load, `--help`/`--version`, and the other names of any of those. Pure.
 */
export function acceptedOptions(command: CommandName | undefined): ReadonlySet<OptionName> {
  const own: readonly OptionName[] = command === undefined ? RUN_OPTIONS : CLI_COMMANDS[command].options;
  const skills = command === undefined || CLI_COMMANDS[command].skills;
  const accepted = new Set<OptionName>([
    ...own,
    ...PLACE_OPTIONS,
    ...(skills ? SKILL_SOURCE_OPTIONS : []),
    "help",
    "version",
  ]);
  for (const [alias, name] of ALIASES) if (accepted.has(name)) accepted.add(alias);
  return accepted;
}
