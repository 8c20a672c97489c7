import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommandHook } from "../../src/hooks/run-hook.js";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { loadPlugin } from "../../src/plugins/load-plugin.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const ROOT = join(import.meta.dirname, "..", "..", "plugins", "git-guard");
const VERDICT = join(ROOT, "scripts", "verdict.mjs");

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "on-main/README": "x", "on-feature/README": "x" });
  for (const [dir, branch] of [
    ["on-main", "main"],
    ["on-feature", "feature"],
  ] as const) {
    execFileSync("git", ["init", "-q", "-b", branch], { cwd: tree.path(dir) });
  }
});
afterAll(async () => {
  await tree.cleanup();
});

/** Runs verdict() for many commands in one real node process (the rules are plain JS shipped with the plugin). */
function verdicts(
  commands: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): (string | null)[] {
  const script = `import { verdict } from ${JSON.stringify(VERDICT)};
    const commands = JSON.parse(process.argv[1]);
    process.stdout.write(JSON.stringify(commands.map((c) => verdict(c, process.cwd()) ?? null)));`;
  const out = execFileSync(
    process.execPath,
    ["--input-type=module", "-e", script, JSON.stringify(commands)],
    {
      cwd,
      env: { ...process.env, ...env },
      encoding: "utf8",
    },
  );
  return JSON.parse(out) as (string | null)[];
}

const BLOCKED: [string, string][] = [
  ["rm -rf /", "recursively delete /"],
  ["rm -fr /*", "recursively delete /*"],
  ["rm -r -f ~", "recursively delete ~"],
  ["rm -rf ~/", "recursively delete ~/"],
  ["rm -rf $HOME", "recursively delete $HOME"],
  [`rm -rf ${homedir()}`, "recursively delete"],
  ["rm -R /usr/", "recursively delete /usr/"],
  ["rm -rf -- /", "recursively delete /"],
  ['rm -rf "/"', "recursively delete /"],
  ["rm --recursive --force /etc", "recursively delete /etc"],
  ["rm --no-preserve-root -rf /tmp/x", "--no-preserve-root"],
  ["sudo -u root rm -rf /var", "recursively delete /var"],
  ["FOO=1 env -i rm -rf /", "recursively delete /"],
  ["cd /tmp && rm -rf /", "recursively delete /"],
  ["echo hi; rm -rf ~ | tee log", "recursively delete ~"],
  ["echo $(rm -rf /)", "recursively delete /"],
  ["bash -c 'rm -rf /'", "recursively delete /"],
  ["git push -f origin main", 'force-push to the protected branch "main"'],
  ["git push --force origin master", 'force-push to the protected branch "master"'],
  ["git push origin +main", 'force-push to the protected branch "main"'],
  ["git push -fu origin HEAD:refs/heads/main", 'force-push to the protected branch "main"'],
  ["git push origin :main", 'delete the protected branch "main"'],
  ["git push --delete origin master", 'delete the protected branch "master"'],
  ["git push --force --all origin", "force-push every branch"],
];

const ALLOWED = [
  "rm -rf ./build",
  "rm -rf node_modules dist",
  "rm -rf /tmp/build-cache",
  "rm /",
  "echo 'rm -rf /'",
  'grep -r "rm -rf /" .',
  "git push origin main",
  "git push -u origin feature",
  "git push -f origin feature",
  "git push --force-with-lease origin main",
  "git status",
  "ls -la ~",
];

describe("git-guard rules", () => {
  it("blocks destructive commands with a reason", () => {
    const results = verdicts(
      BLOCKED.map(([command]) => command),
      tree.path("on-feature"),
    );
    BLOCKED.forEach(([command, reason], i) => {
      expect(results[i], command).toContain(reason);
    });
  });

  it("lets ordinary commands through", () => {
    expect(verdicts(ALLOWED, tree.path("on-feature"))).toEqual(ALLOWED.map(() => null));
  });

  it("a force-push without a refspec is blocked only on a protected current branch", () => {
    const commands = ["git push -f", "git push --force origin"];
    expect(verdicts(commands, tree.path("on-main")).map((r) => r !== null)).toEqual([true, true]);
    expect(verdicts(commands, tree.path("on-feature"))).toEqual([null, null]);
    expect(verdicts([`git -C ${tree.path("on-main")} push -f`], tree.path("on-feature"))[0]).toContain(
      '"main"',
    );
  });

  it("GIT_GUARD_PROTECTED_BRANCHES replaces the protected list", () => {
    const env = { GIT_GUARD_PROTECTED_BRANCHES: "release, prod" };
    expect(
      verdicts(["git push -f origin main", "git push -f origin prod"], tree.path("on-feature"), env),
    ).toEqual([null, expect.stringContaining('"prod"')]);
  });
});

describe("git-guard hook, run by the engine's hook runner from the loaded plugin", () => {
  const input = (command: unknown) => ({
    session_id: "s1",
    cwd: tree.path("on-main"),
    hook_event_name: "PreToolUse" as const,
    tool_name: "Bash",
    tool_input: { command },
  });

  async function guardHook() {
    const { plugin } = await loadPlugin({ fs: createNodeFs(), root: ROOT, dataRoot: "/nonexistent" });
    const hook = plugin?.hooks.PreToolUse?.[0]?.hooks[0];
    if (hook?.type !== "command") throw new Error("git-guard has no PreToolUse command hook");
    return hook;
  }

  it("exit 2 blocks `rm -rf /` with a clear reason on stderr", async () => {
    const result = await runCommandHook(await guardHook(), input("rm -rf /"), {
      shell: createNodeShell(),
      cwd: tree.path("on-main"),
      pluginRoot: ROOT,
    });
    expect(result.outcome).toBe("block");
    if (result.outcome !== "block") return;
    expect(result.reason).toContain("git-guard blocked this command: it would recursively delete /");
    expect(result.reason).toContain("command: rm -rf /");
    expect(result.reason).toContain("ask the user to run it themselves");
  });

  it("exit 0 with no output lets a safe command run; bad input is a warning, not a block", async () => {
    const hook = await guardHook();
    const options = { shell: createNodeShell(), cwd: tree.path("on-main"), pluginRoot: ROOT };
    expect(await runCommandHook(hook, input("git status"), options)).toEqual({
      outcome: "continue",
      stdout: "",
    });
    expect(await runCommandHook(hook, input(42), options)).toEqual({ outcome: "continue", stdout: "" });
    const broken = await runCommandHook(
      { ...hook, command: `echo nope | ${hook.command}` },
      input("x"),
      options,
    );
    expect(broken).toMatchObject({ outcome: "warning", message: expect.stringContaining("not JSON") });
  });
});
