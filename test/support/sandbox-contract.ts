import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Sandbox } from "../../src/sandbox/sandbox.js";

/** What a tier's factory hands the contract. */
export interface SandboxUnderTest {
  sandbox: Sandbox;
  /** A directory of the sandbox's own file system that commands may write in: the contract's cwd. */
  cwd: string;
  /** The bound on one command's stdout and stderr together, in bytes. */
  maxOutputBytes: number;
}

/**
 * The tests every `Sandbox` tier passes (STYLE 19): exit codes, stdout and stderr, the cwd, the run's env,
 * stdin, a deadline (`timedOut`), an abort (`aborted`), the output cap, a command after a stopped one, and
 * writes aimed at a host directory the sandbox was not given (`hostDir`, made by the contract, empty) that
 * change nothing there. `make` gets that directory and must not give it to the sandbox.
 */
export function sandboxContract(name: string, make: (hostDir: string) => Promise<SandboxUnderTest>): void {
  describe(`sandbox contract: ${name}`, () => {
    let hostDir = "";
    let under: SandboxUnderTest;
    const run = (
      command: string,
      options: {
        env?: Record<string, string>;
        input?: string;
        timeoutMs?: number;
        signal?: AbortSignal;
      } = {},
    ) => under.sandbox.shell.run(command, { cwd: under.cwd, ...options });

    beforeAll(async () => {
      hostDir = await mkdtemp(join(tmpdir(), "sandbox-contract-"));
      under = await make(hostDir);
    });
    afterAll(async () => {
      await under?.sandbox.close?.();
      await rm(hostDir, { recursive: true, force: true });
    });

    test("stdout, stderr and the exit code come back apart", async () => {
      const result = await run("echo out; echo err >&2; exit 3");
      expect(result).toMatchObject({
        stdout: "out\n",
        stderr: "err\n",
        exitCode: 3,
        timedOut: false,
        aborted: false,
      });
      expect((await run("true")).exitCode).toBe(0);
      expect((await run("false")).exitCode).toBe(1);
    });

    test("a command runs in the cwd it is given", async () => {
      expect((await run("pwd")).stdout).toBe(`${under.cwd}\n`);
      await run("echo kept > contract-file.txt");
      expect((await run("cat contract-file.txt")).stdout).toBe("kept\n");
    });

    test("a run's env is seen by the command", async () => {
      expect((await run('echo "$CONTRACT_VAR"', { env: { CONTRACT_VAR: "given value" } })).stdout).toBe(
        "given value\n",
      );
    });

    test("input is the command's stdin, and stdin is closed", async () => {
      expect((await run("cat", { input: "line one\nline two\n" })).stdout).toBe("line one\nline two\n");
      expect((await run("cat")).stdout).toBe("");
    });

    test("a command past its deadline ends with timedOut, and the next command runs", async () => {
      const result = await run("while :; do :; done", { timeoutMs: 1_000 });
      expect(result).toMatchObject({ timedOut: true, aborted: false });
      expect(result.exitCode).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).not.toBe("");
      expect((await run("echo after")).stdout).toBe("after\n");
    });

    test("an aborted command ends with aborted, and the next command runs", async () => {
      const controller = new AbortController();
      const pending = run("while :; do :; done", { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      expect(await pending).toMatchObject({ aborted: true, timedOut: false });
      expect((await run("echo after")).stdout).toBe("after\n");
    });

    test("output past the cap is not all kept", async () => {
      const result = await run(`seq 1 ${under.maxOutputBytes}`);
      const kept = Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr);
      expect(kept).toBeLessThanOrEqual(under.maxOutputBytes + 4_096);
    });

    test("writes aimed at a host directory it was not given change nothing there", async () => {
      const target = join(hostDir, "escaped.txt");
      await run(`touch ${target}`);
      await run(`echo escaped > ${target}`);
      await run(`mkdir -p ${hostDir}/made && echo escaped > ${hostDir}/made/file`);
      await run(`cd ${hostDir} && echo escaped > relative.txt`);
      expect(await readdir(hostDir)).toEqual([]);
    });
  });
}
