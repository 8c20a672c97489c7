/**
 * Issue #43 through the shipped bin: a marketplace that is a local git repository with release tags
 * (`{plugin}--v{version}`), registered with `plugin marketplace add`, plugins installed at a range, upgraded when
 * a tag appears, drift refused under `--frozen`, an update that adds a hook asked about again, a dependency
 * resolved, a cycle refused, and a sensitive `userConfig` value reaching an MCP server and nothing else.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_SCRIPT } from "../mcp/support.js";
import { type RequestBody, resultText, toolResults } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

const SLOW = 300_000;
// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder a plugin writes, as text
const TOKEN_REF = "${user_config.token}";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder a plugin writes, as text
const REGION_REF = "${user_config.region}";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  tree = undefined;
  model = undefined;
});

async function git(cwd: string, ...args: string[]) {
  return execa("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd });
}

async function put(t: TmpTree, relative: string, text: string) {
  await mkdir(dirname(t.path(relative)), { recursive: true });
  await writeFile(t.path(relative), text);
}

const skill = (name: string, body = "Do it.") =>
  `---\nname: ${name}\ndescription: Use when testing the ${name} plugin skill.\n---\n\n${body}\n`;

/** A plugin folder under the marketplace repository `mp/plugins/{name}`. */
async function plugin(t: TmpTree, name: string, version: string, extra: Record<string, unknown> = {}) {
  await put(t, `mp/plugins/${name}/.claude-plugin/plugin.json`, JSON.stringify({ name, version, ...extra }));
  await put(t, `mp/plugins/${name}/skills/hello/SKILL.md`, skill("hello", `${name} ${version} says hello.`));
}

/** Commits the marketplace repository and tags the given releases. */
async function release(t: TmpTree, message: string, ...tags: string[]) {
  await git(t.path("mp"), "add", "-A");
  await git(t.path("mp"), "commit", "-qm", message);
  for (const tag of tags) await git(t.path("mp"), "tag", tag);
}

async function marketplace(t: TmpTree, names: string[]) {
  await put(
    t,
    "mp/.claude-plugin/marketplace.json",
    JSON.stringify({
      name: "acme",
      owner: { name: "Acme" },
      plugins: names.map((name) => ({ name, source: `./plugins/${name}` })),
    }),
  );
  await git(t.path("mp"), "init", "-q", "-b", "main");
}

interface PluginLock {
  plugins: Record<
    string,
    { version?: string; tag?: string; range?: string; autoInstalled?: boolean; capabilities: string[] }
  >;
}
const lockOf = async (t: TmpTree) =>
  JSON.parse(await readFile(t.path("home/.skillwright/skills-lock.json"), "utf8")) as PluginLock;
const installed = (t: TmpTree, name: string, file: string) =>
  readFile(t.path(`home/.skillwright/plugins/installed/${name}/${file}`), "utf8");

describe("skillwright plugin marketplace / install / update (dist/bin, a local git marketplace)", () => {
  it("refuses to update or uninstall a plugin that is not installed, naming it", async () => {
    tree = await tmpTree({ "home/repo/.keep": "" });
    const update = await cli(tree, ["plugin", "update", "ghost"]);
    expect(update.code).toBe(1);
    expect(update.stderr).toMatch(/^not installed: ghost \(.*skills-lock\.json\)\n$/);
    const uninstall = await cli(tree, ["plugin", "uninstall", "ghost"]);
    expect(uninstall.code).toBe(1);
    expect(uninstall.stderr).toMatch(
      /^not installed: ghost \(.*skills-lock\.json\); skillwright uninstalls only plugins it installed\n$/,
    );
  });

  it(
    "adds the marketplace, installs at a range with a dependency, upgrades on a new tag, refuses drift under --frozen, asks again for a new hook",
    async () => {
      tree = await tmpTree({ "home/repo/.keep": "" });
      const t = tree;
      await marketplace(t, ["alpha", "beta"]);
      await plugin(t, "alpha", "1.0.0", { dependencies: [{ name: "beta", version: "~1.0.0" }] });
      await plugin(t, "beta", "1.0.0");
      await release(t, "1.0.0", "alpha--v1.0.0", "beta--v1.0.0");

      const added = await cli(t, ["plugin", "marketplace", "add", t.path("mp")]);
      expect(added.stderr).toBe("");
      expect(added.code).toBe(0);
      expect(added.stdout).toContain("added marketplace acme");
      const listed = await cli(t, ["plugin", "marketplace", "list", "--json"]);
      expect(
        json<{ name: string; source: { source: string } }[]>(listed).map((m) => [m.name, m.source.source]),
      ).toEqual([["acme", "git"]]);

      // A later commit on main that is not tagged: a range still picks the tag.
      await put(t, "mp/plugins/alpha/skills/hello/SKILL.md", skill("hello", "untagged work in progress"));
      await release(t, "wip");
      const install = await cli(t, ["plugin", "install", "alpha@acme", "--version", "^1.0.0"]);
      expect(install.stderr).toBe("");
      expect(install.code).toBe(0);
      expect(install.stdout).toContain("dependencies: beta 1.0.0");
      expect(await installed(t, "alpha", "skills/hello/SKILL.md")).toContain("alpha 1.0.0 says hello.");
      expect(await installed(t, "beta", "skills/hello/SKILL.md")).toContain("beta 1.0.0 says hello.");
      let lock = await lockOf(t);
      expect(lock.plugins.alpha).toMatchObject({ version: "1.0.0", tag: "alpha--v1.0.0", range: "^1.0.0" });
      expect(lock.plugins.beta).toMatchObject({ version: "1.0.0", tag: "beta--v1.0.0", autoInstalled: true });
      const names = json<{ name: string }[]>(await cli(t, ["list", "--json"])).map((s) => s.name);
      expect(names).toEqual(expect.arrayContaining(["alpha:hello", "beta:hello"]));

      // A new tag appears upstream: --frozen sees the lock would move and changes nothing; update moves it.
      await plugin(t, "alpha", "1.1.0", { dependencies: [{ name: "beta", version: "~1.0.0" }] });
      await release(t, "1.1.0", "alpha--v1.1.0");
      expect((await cli(t, ["plugin", "marketplace", "update", "acme"])).code).toBe(0);
      const frozen = await cli(t, ["plugin", "update", "alpha", "--frozen"]);
      expect(frozen.code).toBe(1);
      expect(frozen.stderr).toContain("✗ alpha: locked 1.0.0, resolves to 1.1.0");
      expect(frozen.stderr).toContain("nothing was changed");
      expect(await installed(t, "alpha", "skills/hello/SKILL.md")).toContain("alpha 1.0.0");
      const updated = await cli(t, ["plugin", "update", "alpha"]);
      expect(updated.stderr).toBe("");
      expect(updated.code).toBe(0);
      expect(await installed(t, "alpha", "skills/hello/SKILL.md")).toContain("alpha 1.1.0 says hello.");
      expect((await lockOf(t)).plugins.alpha).toMatchObject({ version: "1.1.0", range: "^1.0.0" });

      // A hand edit of the installed copy is drift: --frozen names the file.
      await writeFile(
        t.path("home/.skillwright/plugins/installed/alpha/skills/hello/SKILL.md"),
        skill("hello", "edited"),
      );
      const drift = await cli(t, ["plugin", "install", "alpha@acme", "--version", "^1.0.0", "--frozen"]);
      expect(drift.code).toBe(1);
      expect(drift.stderr).toContain(
        "✗ alpha: installed copy differs from the lock: changed skills/hello/SKILL.md",
      );
      await writeFile(
        t.path("home/.skillwright/plugins/installed/alpha/skills/hello/SKILL.md"),
        skill("hello", "alpha 1.1.0 says hello."),
      );

      // 1.2.0 adds a hook: without a terminal the update is refused until --yes says so.
      await plugin(t, "alpha", "1.2.0", { dependencies: [{ name: "beta", version: "~1.0.0" }] });
      await put(
        t,
        "mp/plugins/alpha/hooks/hooks.json",
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo checked" }] }] },
        }),
      );
      await release(t, "1.2.0", "alpha--v1.2.0");
      const asked = await cli(t, ["plugin", "update", "alpha"]);
      expect(asked.code).toBe(1);
      expect(asked.stderr).toContain("alpha: the update to 1.2.0 gains 1 power(s)");
      expect(asked.stderr).toContain('+hook PreToolUse [Bash] {"type":"command","command":"echo checked"}');
      expect(asked.stderr).toContain("nothing was installed");
      expect(existsSync(t.path("home/.skillwright/plugins/installed/alpha/hooks/hooks.json"))).toBe(false);
      expect((await lockOf(t)).plugins.alpha?.version).toBe("1.1.0");
      const accepted = await cli(t, ["plugin", "update", "alpha", "--yes"]);
      expect(accepted.code).toBe(0);
      lock = await lockOf(t);
      expect(lock.plugins.alpha?.version).toBe("1.2.0");
      expect(lock.plugins.alpha?.capabilities).toContain(
        'hook PreToolUse [Bash] {"type":"command","command":"echo checked"}',
      );

      // A range no tag meets is one error listing what there is.
      const none = await cli(t, ["plugin", "install", "beta@acme", "--version", "^2.0.0"]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(
        "beta@acme: no release satisfies ~1.0.0 (alpha) and ^2.0.0 (--version); available: 1.0.0",
      );

      const removed = await cli(t, ["plugin", "uninstall", "beta"]);
      expect(removed.code).toBe(1);
      expect(removed.stderr).toContain("beta is needed by alpha");
      expect((await cli(t, ["plugin", "uninstall", "alpha", "beta"])).code).toBe(0);
      expect(await readdir(t.path("home/.skillwright/plugins/installed"))).toEqual([]);

      // `add name@marketplace` of a registered marketplace is the same install (no range: the listed copy).
      const viaAdd = await cli(t, ["add", "beta@acme"]);
      expect(viaAdd.code).toBe(0);
      expect(await readdir(t.path("home/.skillwright/plugins/installed"))).toEqual(["beta"]);
      expect((await lockOf(t)).plugins.beta).toMatchObject({ source: "beta@acme", version: "1.0.0" });
      expect((await lockOf(t)).plugins.beta?.tag).toBeUndefined();
    },
    SLOW,
  );

  it(
    "refuses a dependency cycle in one line naming the plugins, and a link out of the plugin, installing nothing",
    async () => {
      tree = await tmpTree({ "home/repo/.keep": "", "outside.txt": "not the plugin's" });
      const t = tree;
      await marketplace(t, ["loop-a", "loop-b", "leaky"]);
      await plugin(t, "loop-a", "1.0.0", { dependencies: ["loop-b"] });
      await plugin(t, "loop-b", "1.0.0", { dependencies: [{ name: "loop-a", version: "^1.0.0" }] });
      await plugin(t, "leaky", "1.0.0");
      await symlink(t.path("outside.txt"), t.path("mp/plugins/leaky/skills/hello/notes.txt"));
      await release(t, "loops", "loop-a--v1.0.0", "loop-b--v1.0.0", "leaky--v1.0.0");
      expect((await cli(t, ["plugin", "marketplace", "add", t.path("mp")])).code).toBe(0);
      const cycle = await cli(t, ["plugin", "install", "loop-a@acme"]);
      expect(cycle.code).toBe(1);
      expect(cycle.stderr.trim()).toBe("dependency cycle: loop-a → loop-b → loop-a");
      expect(existsSync(t.path("home/.skillwright/plugins/installed/loop-a"))).toBe(false);
      expect(existsSync(t.path("home/.skillwright/skills-lock.json"))).toBe(false);
      const leak = await cli(t, ["plugin", "install", "leaky@acme", "--version", "1.0.0"]);
      expect(leak.code).toBe(1);
      expect(leak.stderr).toContain("leaky: refused: skills/hello/notes.txt is a link out of the source");
      expect(existsSync(t.path("home/.skillwright/plugins/installed/leaky"))).toBe(false);
    },
    SLOW,
  );

  it(
    "starts a plugin's MCP server with a sensitive user_config.token kept in a 0600 file and nowhere the test reads",
    async () => {
      tree = await tmpTree({ "home/repo/.keep": "" });
      const t = tree;
      const secret = "s3cret-token-4711";
      const record = t.path("server-saw.txt");
      await marketplace(t, ["vault"]);
      await plugin(t, "vault", "1.0.0", {
        userConfig: {
          token: { type: "string", title: "Token", description: "The vault token", sensitive: true },
          region: { type: "string", title: "Region", description: "Where the vault is" },
        },
      });
      await put(
        t,
        "mp/plugins/vault/skills/hello/SKILL.md",
        skill("hello", `Region ${REGION_REF}; token ${TOKEN_REF}.`),
      );
      await put(
        t,
        "mp/plugins/vault/.mcp.json",
        JSON.stringify({
          mcpServers: {
            "vault-mcp": {
              command: "sh",
              args: [
                "-c",
                `printf '%s|%s' "$1" "$VAULT_TOKEN" > '${record}'; exec '${process.execPath}' '${SERVER_SCRIPT}'`,
                "sh",
                TOKEN_REF,
              ],
              env: { VAULT_TOKEN: TOKEN_REF },
            },
          },
        }),
      );
      // A hook that uses the token and blocks with no stderr: its block reason (which the model reads) names
      // the hook by its command, with the sensitive placeholder as written.
      const hookCommand = `test -n "${TOKEN_REF}" && exit 2`;
      await put(
        t,
        "mp/plugins/vault/hooks/hooks.json",
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hookCommand }] }] },
        }),
      );
      await release(t, "vault", "vault--v1.0.0");
      expect((await cli(t, ["plugin", "marketplace", "add", t.path("mp")])).code).toBe(0);
      expect((await cli(t, ["plugin", "install", "vault@acme", "--yes"])).code).toBe(0);
      expect((await cli(t, ["mcp", "approve", "vault-mcp"])).code).toBe(0);

      model = await startTestModel([
        textTurn("done", { lastUserTextIncludes: "hello" }),
        toolTurn("Bash", { command: "echo hi" }, { match: { lastUserTextIncludes: "run it" } }),
        textTurn("blocked", { hasToolResultFor: "Bash" }),
      ]);
      const env = { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.server.url };
      const unset = await cli(t, ["-p", "hello"], "home/repo", env);
      expect(unset.code).toBe(1);
      expect(unset.stderr.trim()).toBe(
        'skillwright: plugin "vault" needs token set: run `skillwright plugin configure vault token=<value>`',
      );
      expect(existsSync(record)).toBe(false);

      const configured = await cli(t, ["plugin", "configure", "vault", `token=${secret}`, "region=eu-west"]);
      expect(configured.code).toBe(0);
      expect(configured.stdout).not.toContain(secret);
      const secrets = t.path("home/.skillwright/plugins/secrets.json");
      expect(statSync(secrets).mode & 0o777).toBe(0o600);
      expect(await readFile(t.path("home/.skillwright/plugins/config.json"), "utf8")).not.toContain(secret);
      // Skill text gets the non-sensitive value; a sensitive one never reaches what the model reads.
      const shown = await cli(t, ["show", "vault:hello"]);
      expect(shown.stdout).toContain(`Region eu-west; token ${TOKEN_REF}.`);
      expect(shown.stdout).not.toContain(secret);

      const run = await cli(
        t,
        ["-p", "hello", "--output-format", "json", "--debug-file", t.path("debug.log")],
        "home/repo",
        env,
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(await readFile(record, "utf8")).toBe(`${secret}|${secret}`);
      // Nothing the run wrote or logged holds the value: output, debug log, transcripts, lock, settings.
      expect(run.stdout).not.toContain(secret);
      const written = await filesUnder(t.path("home"), [secrets]);
      for (const [file, text] of written) expect(text.includes(secret), file).toBe(false);
      expect(await readFile(t.path("debug.log"), "utf8")).not.toContain(secret);

      // The hook ran with the value (it blocked), and the model was told which hook without it.
      const blocked = await cli(t, ["-p", "run it", "--allowedTools", "Bash"], "home/repo", env);
      expect(blocked.code, blocked.stderr).toBe(0);
      const bodies = model.server.requests.map((r) => r.body as RequestBody);
      const results = bodies.flatMap((b) => toolResults(b)).map((r) => resultText(r));
      expect(results).toEqual([
        `PreToolUse hook blocked Bash: Blocked by hook "${hookCommand}" (exit code 2, no stderr)`,
      ]);
      expect(JSON.stringify(bodies)).not.toContain(secret);
      expect(blocked.stdout + blocked.stderr).not.toContain(secret);
      for (const [file, text] of await filesUnder(t.path("home"), [secrets])) {
        expect(text.includes(secret), file).toBe(false);
      }
    },
    SLOW,
  );
});

/** Every file under `dir` (but `except`) with its text. */
async function filesUnder(dir: string, except: string[]): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = `${entry.parentPath}/${entry.name}`;
    if (except.includes(path) || path.includes("/.skillwright/plugins/marketplaces/")) continue;
    out.push([path, await readFile(path, "utf8")]);
  }
  return out;
}
