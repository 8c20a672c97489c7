import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  capHookText,
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookInput,
  hookTimeoutMs,
  MAX_HOOK_TEXT_CHARS,
  runCommandHook,
} from "../../src/hooks/run-hook.js";
import type { HookCommand } from "../../src/hooks/schema.js";
import { createNodeShell, type ShellOps } from "../../src/io/shell.js";
import { eventually, isAlive, makeTmp, writeScript } from "./hook-fixtures.js";

const shell = createNodeShell();
const cmd = (command: string, extra: Partial<HookCommand> = {}): HookCommand => ({
  type: "command",
  command,
  ...extra,
});

let dir: string;
let cleanup: () => Promise<void>;
let input: HookInput;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTmp());
  input = {
    session_id: "sess-1",
    transcript_path: join(dir, "t.jsonl"),
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf /" },
  };
});
afterEach(() => cleanup());

describe("runCommandHook exit codes", () => {
  it("exit 0 continues with stdout", async () => {
    const result = await runCommandHook(cmd("echo fine"), input, { shell, cwd: dir });
    expect(result).toEqual({ outcome: "continue", stdout: "fine\n" });
  });

  it("exit 2 blocks with stderr as the reason", async () => {
    const result = await runCommandHook(cmd("echo out; echo 'no deleting' >&2; exit 2"), input, {
      shell,
      cwd: dir,
    });
    expect(result).toEqual({ outcome: "block", reason: "no deleting" });
  });

  it("exit 2 without stderr still blocks, naming the hook", async () => {
    const result = await runCommandHook(cmd("exit $((1 + 1))"), input, { shell, cwd: dir });
    expect(result).toEqual({
      outcome: "block",
      reason: 'Blocked by hook "exit $((1 + 1))" (exit code 2, no stderr)',
    });
  });

  it.each([1, 3, 127])("exit %i is a warning with the code and stderr", async (code) => {
    const result = await runCommandHook(cmd(`echo oops >&2; exit ${code}`), input, { shell, cwd: dir });
    expect(result).toEqual({ outcome: "warning", message: `exited with code ${code}: oops` });
  });

  it("a missing command is a warning (bash exit 127)", async () => {
    const result = await runCommandHook(cmd("definitely-not-a-command-xyz"), input, { shell, cwd: dir });
    expect(result.outcome).toBe("warning");
    if (result.outcome === "warning") expect(result.message).toMatch(/^exited with code 127: .*not found/);
  });

  it("a JSON block without a reason names the hook", async () => {
    const result = await runCommandHook(cmd(`echo '{"decision":"block"}'`), input, { shell, cwd: dir });
    expect(result).toMatchObject({
      outcome: "block",
      reason: `Blocked by hook "echo '{"decision":"block"}'"`,
    });
  });
});

describe("runCommandHook JSON output", () => {
  it("decision block on exit 0 blocks with the JSON reason", async () => {
    const json = JSON.stringify({ decision: "block", reason: "tests first", systemMessage: "hi" });
    const result = await runCommandHook(cmd(`echo '${json}'`), input, { shell, cwd: dir });
    expect(result).toEqual({
      outcome: "block",
      reason: "tests first",
      output: { decision: "block", reason: "tests first", systemMessage: "hi" },
    });
  });

  it("other JSON continues with the parsed output", async () => {
    const json = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
    });
    const result = await runCommandHook(cmd(`echo '${json}'`), input, { shell, cwd: dir });
    expect(result).toMatchObject({
      outcome: "continue",
      output: { hookSpecificOutput: { permissionDecision: "allow" } },
    });
  });

  it("invalid JSON continues but reports the problem", async () => {
    const result = await runCommandHook(cmd(`echo '{"decision": "nah"}'`), input, { shell, cwd: dir });
    expect(result.outcome).toBe("continue");
    if (result.outcome === "continue") {
      expect(result.output).toBeUndefined();
      expect(result.outputError).toContain("invalid");
    }
  });
});

describe("runCommandHook process", () => {
  it("passes the event JSON on stdin", async () => {
    const out = join(dir, "stdin.json");
    const result = await runCommandHook(cmd(`cat > '${out}'`), input, { shell, cwd: dir });
    expect(result.outcome).toBe("continue");
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual(input);
  });

  it("survives a hook that never reads a large stdin", async () => {
    const big = { ...input, tool_response: "x".repeat(2_000_000) };
    const result = await runCommandHook(cmd("exit 0"), big, { shell, cwd: dir });
    expect(result.outcome).toBe("continue");
  });

  it("runs in cwd with CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT and extra env", async () => {
    const command = await writeScript(
      dir,
      "env.sh",
      'r=$(printenv CLAUDE_PLUGIN_ROOT || echo unset); echo "$PWD|$CLAUDE_PROJECT_DIR|$r|$EXTRA"',
    );
    const result = await runCommandHook(cmd(command), input, {
      shell,
      cwd: dir,
      projectDir: "/proj",
      pluginRoot: "/plugins/p",
      env: { EXTRA: "e", CLAUDE_PROJECT_DIR: "overridden" },
    });
    expect(result).toEqual({ outcome: "continue", stdout: `${dir}|/proj|/plugins/p|e\n` });
  });

  it("defaults CLAUDE_PROJECT_DIR to cwd", async () => {
    const result = await runCommandHook(cmd('echo "$CLAUDE_PROJECT_DIR"'), input, { shell, cwd: dir });
    expect(result).toEqual({ outcome: "continue", stdout: `${dir}\n` });
  });

  it.skipIf(process.env.CLAUDE_PLUGIN_ROOT !== undefined)(
    "sets no CLAUDE_PLUGIN_ROOT without a plugin",
    async () => {
      const result = await runCommandHook(cmd("printenv CLAUDE_PLUGIN_ROOT || echo unset"), input, {
        shell,
        cwd: dir,
      });
      expect(result).toEqual({ outcome: "continue", stdout: "unset\n" });
    },
  );

  it("kills the process tree on timeout and warns", async () => {
    const pidFile = join(dir, "pid");
    const started = Date.now();
    const result = await runCommandHook(
      cmd(`sleep 30 & echo $! > '${pidFile}'; wait`, { timeout: 0.5 }),
      input,
      {
        shell,
        cwd: dir,
      },
    );
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s of the sleep
    expect(result).toEqual({ outcome: "warning", message: "timed out after 0.5 s and was killed" });
    const pid = Number(await readFile(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("warns when the cwd does not exist", async () => {
    const result = await runCommandHook(cmd("echo hi"), input, { shell, cwd: join(dir, "missing") });
    expect(result.outcome).toBe("warning");
    if (result.outcome === "warning") expect(result.message).toContain(join(dir, "missing"));
  });

  it("warns without running when already aborted", async () => {
    const marker = join(dir, "ran");
    const result = await runCommandHook(cmd(`touch '${marker}'`), input, {
      shell,
      cwd: dir,
      signal: AbortSignal.abort(),
    });
    expect(result.outcome).toBe("warning");
    await expect(readFile(marker)).rejects.toThrow();
  });

  it("warns when aborted while running", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runCommandHook(cmd("sleep 30"), input, {
      shell,
      cwd: dir,
      signal: controller.signal,
    });
    expect(result).toEqual({ outcome: "warning", message: "aborted" });
  });

  it("warns when the shell itself fails to start the command", async () => {
    const broken: ShellOps = { run: () => Promise.reject(new Error("spawn EACCES")) };
    const result = await runCommandHook(cmd("echo hi"), input, { shell: broken, cwd: dir });
    expect(result).toEqual({ outcome: "warning", message: "could not start: spawn EACCES" });
  });

  it("uses the hook's timeout in seconds, else the default", async () => {
    const seen: Array<number | undefined> = [];
    const recording: ShellOps = {
      run: async (_command, options) => {
        seen.push(options.timeoutMs);
        return { stdout: "", stderr: "", exitCode: 0, timedOut: false, aborted: false };
      },
    };
    await runCommandHook(cmd("x"), input, { shell: recording, cwd: dir });
    await runCommandHook(cmd("x", { timeout: 5 }), input, { shell: recording, cwd: dir });
    expect(seen).toEqual([DEFAULT_HOOK_TIMEOUT_MS, 5_000]);
  });
});

describe("helpers", () => {
  it.each([
    [undefined, 60_000],
    [1, 1_000],
    [0.25, 250],
    [600, 600_000],
  ])("hookTimeoutMs(%j) = %i", (timeout, ms) => {
    expect(hookTimeoutMs(timeout === undefined ? {} : { timeout })).toBe(ms);
  });

  it("capHookText keeps short text and cuts long text with a note", () => {
    expect(capHookText("short")).toBe("short");
    const long = "y".repeat(MAX_HOOK_TEXT_CHARS + 5);
    const cut = capHookText(long);
    expect(cut.startsWith("y".repeat(MAX_HOOK_TEXT_CHARS))).toBe(true);
    expect(cut).toContain("5 more characters cut");
  });
});
