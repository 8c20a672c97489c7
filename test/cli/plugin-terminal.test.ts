/**
 * The plugin commands' questions in a terminal (issue #43), run in-process with the terminal injected: a setting
 * with no value is asked for once after install (a sensitive one read as a secret), and an update that adds a
 * hook is asked about, a no changing nothing and a yes installing it. Real git, real files.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { pluginCommand } from "../../src/cli/commands/plugin.js";
import type { CliIo } from "../../src/cli/io.js";
import type { TerminalAsk } from "../../src/cli/terminal-ask.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function put(t: TmpTree, relative: string, text: string) {
  await mkdir(dirname(t.path(relative)), { recursive: true });
  await writeFile(t.path(relative), text);
}

async function commit(t: TmpTree, tag: string) {
  const git = (...args: string[]) =>
    execa("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: t.path("mp") });
  await git("add", "-A");
  await git("commit", "-qm", tag);
  await git("tag", tag);
}

/** A terminal that answers from a script and records each question with whether it was read as a secret. */
function scriptedTerminal(answers: string[]): TerminalAsk & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async line(question, { secret }) {
      asked.push(`${secret ? "secret " : ""}${question}`);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected question: ${question}`);
      return answer;
    },
  };
}

async function run(t: TmpTree, argv: string[], ask: TerminalAsk) {
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cwd: t.path("home/repo"),
    home: t.path("home"),
    bundledDir: t.path("no-bundled"),
  };
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) throw new Error(parsed.message);
  const code = await pluginCommand(io, parsed.args, ask);
  return { code, out, err };
}

describe("plugin commands in a terminal", () => {
  it("asks for an unset setting once after install, and asks before an update that adds a hook", async () => {
    tree = await tmpTree({ "home/repo/.keep": "" });
    const t = tree;
    await put(
      t,
      "mp/.claude-plugin/marketplace.json",
      JSON.stringify({ name: "acme", plugins: [{ name: "vault", source: "./vault" }] }),
    );
    const manifest = (version: string) =>
      JSON.stringify({
        name: "vault",
        version,
        userConfig: {
          token: { type: "string", title: "Token", description: "The vault token", sensitive: true },
          region: { type: "string", title: "Region", description: "Where", default: "eu" },
        },
      });
    await put(t, "mp/vault/.claude-plugin/plugin.json", manifest("1.0.0"));
    await execa("git", ["init", "-q", "-b", "main"], { cwd: t.path("mp") });
    await commit(t, "vault--v1.0.0");

    const terminal = scriptedTerminal(["typed-secret"]);
    expect((await run(t, ["plugin", "marketplace", "add", t.path("mp")], terminal)).code).toBe(0);
    const install = await run(t, ["plugin", "install", "vault@acme", "--version", "^1"], terminal);
    expect(install.err).toBe("");
    expect(install.code).toBe(0);
    // Only the setting with no default is asked for, as a secret; the answer is never printed.
    expect(terminal.asked).toEqual(["secret token (The vault token) [sensitive, not shown]: "]);
    expect(install.out).not.toContain("typed-secret");
    const secrets = JSON.parse(await readFile(t.path("home/.skillwright/plugins/secrets.json"), "utf8"));
    expect(secrets).toEqual({ vault: { token: "typed-secret" } });

    await put(t, "mp/vault/.claude-plugin/plugin.json", manifest("1.1.0"));
    await put(
      t,
      "mp/vault/hooks/hooks.json",
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo hi" }] }] } }),
    );
    await commit(t, "vault--v1.1.0");
    const no = scriptedTerminal(["n"]);
    const refused = await run(t, ["plugin", "update", "vault"], no);
    expect(refused.code).toBe(1);
    expect(no.asked).toEqual(["Update vault to 1.1.0 with these new powers? [y/N] "]);
    expect(refused.err).toContain("nothing was installed");
    const yes = scriptedTerminal(["y"]);
    const accepted = await run(t, ["plugin", "update", "vault"], yes);
    expect(accepted.err).toBe("");
    expect(accepted.code).toBe(0);
    // Asked about the hook, not about the token again: it is set.
    expect(yes.asked).toEqual(["Update vault to 1.1.0 with these new powers? [y/N] "]);
    const lock = JSON.parse(await readFile(t.path("home/.skillwright/skills-lock.json"), "utf8"));
    expect(lock.plugins.vault.version).toBe("1.1.0");
  }, 300_000);
});
