/** The CLI's help text. */
export const USAGE = `Usage:
  skillwright                        interactive session (needs ANTHROPIC_API_KEY)
  skillwright -p "prompt" [options]  one headless turn; a prompt starting with /name runs that skill
  skillwright <command> [options]

Commands (offline):
  list [--json]                      every skill found, with source, path, description and flags
  search <query> [--json] [--limit N]  the skills SkillSearch would return for the query, best first, each
                                     with what the model sees of it when the query opens the session
  stats [--json]                     per skill: invocations, by whom (user, model, nested) and last use
  doctor [--json] [--model M] [--strict] [--first-prompt TEXT]  roots, counts, diagnostics, ignored files, the
                                     listing the model sees and each skill's visibility (full, cut, name-only,
                                     absent and why), for a session opened with TEXT (default none)
  doctor --prompt [--json]           the assembled system prompt, each part headed by its origin
  show <name> [args...] [--run-shell]  a skill's frontmatter and its exact expansion for args
  validate <path> [--spec]           check a skill file or dir (exit 1 on errors); --spec adds the Agent Skills profile
  plugin validate <dir> [--json]     check a plugin: manifest, skills, commands, agents, hooks, MCP config
  dev model-server --script F [--port N]  a scripted Messages API server for testing skills offline
  lint [path...] [--json] [--min-score N]  risky shell, secrets, side effects, links, description, listing
                                     cost; a 0–100 score per skill (exit 1 on errors or below N)
  to-prompt <dirs...>                the <available_skills> XML block for the skills (as skills-ref)
  test [path...] [--json] [--junit F] [--update]  run the cases in <skill>/tests/*.yaml (default: every
                                     skill of the project); exit 1 on any failure
  serve [--port N] [--host H] [--db DIR|URL] [--api-key KEY] [--host-tools]  the Skills/Agents/Sessions API
                                     of @anthropic-ai/sdk's client.beta over a store (default ~/.skillwright/data,
                                     PGlite; a postgres:// URL for PostgreSQL); key also from SKILLWRIGHT_API_KEY;
                                     sessions use ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL and get no host file or
                                     shell tools unless --host-tools; agents' MCP servers on private or loopback
                                     addresses are refused unless --mcp-allow-host HOST (repeatable) or
                                     SKILLWRIGHT_MCP_ALLOW_HOSTS=h1,h2 names their host; --sandbox
                                     none|simulated|os: where sessions run code (default simulated: bash and
                                     python3 in WebAssembly over the session's own files; its network as the
                                     environment says, private hosts only by --sandbox-allow-host HOST or
                                     SKILLWRIGHT_SANDBOX_ALLOW_HOSTS; os: the host's binaries under
                                     bubblewrap over a copy of the session's files, no network); --script F: sessions answer from a
                                     scripted model (offline, as dev model-server)
  keys create --workspace W [--db DIR|URL]  make an API key for workspace W (printed once)
  keys list [--workspace W] [--json] [--db DIR|URL]  each key's id (a prefix of its hash), workspace, created
  keys revoke <id-or-prefix> [--workspace W]  revoke one key; running serve instances refuse it within 5 s
                                     (keys … --server URL --api-key KEY: through a running serve, with the
                                     key it was started with; a PGlite dir serve holds is refused otherwise)
  add <source> [--skill NAME] [--scope project|user] [--frozen]  install skills from a git URL (file:// and
                                     bare repos too), owner/repo[/path], plugin@marketplace, npm:<name>, a
                                     .tgz or a dir into .claude/skills (user: ~/.claude/skills) and lock them in
                                     skills-lock.json; prints each skill's capabilities and lint result first
  update [NAME...] [--scope S] [--frozen]  install the locked skills whose upstream changed; move the lock
  check [NAME...] [--scope S] [--frozen]  exit 1 naming each skill whose upstream moved or whose installed
                                     copy drifted from the lock (--frozen: the installed copies only)
  remove <NAME...> [--scope S]       delete a locked skill's folder and its lock entry
  mcp approve <name>                 let a project or plugin MCP server start (writes .claude/settings.local.json)
  hooks approve                      let the hooks in the project's committed settings run (same file)
  permissions approve                let the allow rules and additionalDirectories of those settings apply
  approve <skill...> | --all         approve project, --add-dir, plugin or MCP skills as they are now (their
                                     allowed-tools, hooks, inline shell, fork, scripts); one that gains a
                                     capability later is held (skill-changed) until approved again;
                                     --all: every skill waiting or held (writes ~/.skillwright/approvals.json)
  (list and doctor never start an MCP server unless given --start-mcp; show starts only the one it shows)

Run options:
  --output-format text|json|stream-json   headless output (default text)
  --input-format text|stream-json  stream-json: user messages as JSON lines on stdin, one turn each
                             ({"type":"user","message":{"role":"user","content":"..."}}); needs
                             --output-format stream-json
  --model <id|alias>  --effort <low|medium|high|xhigh|max>
  --allowedTools <rules>     allow without asking, e.g. "Bash(git add:*),Read"
  --disallowedTools <rules>  remove tools (bare names) or deny calls (scoped rules)
  --resume <session-id>  --max-turns <n>  --debug-file <path>
  --system-prompt <text>     replace the base system prompt (else .skillwright/SYSTEM.md, project then ~)
  --append-system-prompt <text>  append to the system prompt (after .skillwright/APPEND_SYSTEM.md)
  --skill-listing messages|system  where the skill listing goes: a <system-reminder> in the messages
                             (default), or <available_skills> in the system prompt (fixed prefix)
  --plugin-dir <dir>  --mcp-config <file|json>
  --strict-mcp-config        only the --mcp-config servers (ignore .mcp.json and plugin servers)
  --verbose                  more detail on stderr (session, skills, diagnostics, warnings)
  --watch                    reload skills when their files change (interactive mode always does;
                             a burst of changes is one reload, and the model sees the new skills)

Common options:
  --cwd <dir>       work as if started in <dir>
  --home <dir>      use <dir> as the home dir (user skills, settings, sessions)
  --add-dir <dir>   also load <dir> as a project: <dir>/.claude/skills, <dir>/.agents/skills and
                    <dir>/.claude/commands (repeatable)
  --skills-dir <dir>  also load <dir> itself as a skills folder: <dir>/<name>/SKILL.md, as project
                    skills (repeatable)
  --skills <names>  only these skills are enabled this session (names or globs, comma-separated)
  --no-skills <names>  disable these skills this session (names or globs, e.g. "plugin:*,mcp__srv__*")
  --env <name>      use the named environment ~/.skillwright/environments/<name>/: its skills/, settings.json
                    and agents/ (exit 2 when there is no such environment)
  --json            machine-readable output
`;
