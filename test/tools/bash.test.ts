import { readdir, readFile, realpath, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell, type ShellOps } from "../../src/io/shell.js";
import {
  BACKGROUND_UNSUPPORTED_TEXT,
  BASH_DESCRIPTION,
  type BashDetails,
  createBashTool,
} from "../../src/tools/bash.js";
import { ctxFor, isAlive, makeTmp, removeTmp, textOf, waitFor } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
});
afterEach(() => removeTmp(dir));

const bash = () => createBashTool({ shell: createNodeShell() });

async function pidFrom(file: string): Promise<number> {
  await waitFor(async () => (await readFile(file, "utf8").catch(() => "")).trim() !== "");
  return Number((await readFile(file, "utf8")).trim());
}

describe("Bash", () => {
  it("runs in ctx.cwd and returns stdout and stderr, each stream in its order", async () => {
    const result = await bash().run({ command: "pwd; echo err >&2; echo out" }, ctxFor(dir));
    expect(result.isError).toBe(false);
    // Two pipes: across them the text is in the order it was read, which a busy machine may swap; within
    // each the order holds.
    const lines = textOf(result).split("\n");
    expect(lines.filter((line) => line !== "err")).toEqual([dir, "out"]);
    expect(lines.filter((line) => line === "err")).toEqual(["err"]);
    expect(result.details).toEqual({ exitCode: 0, timedOut: false, truncated: false });
  });

  it("says when there is no output", async () => {
    expect(textOf(await bash().run({ command: "true" }, ctxFor(dir)))).toBe(
      "(Bash completed with no output)",
    );
  });

  it("reports a non-zero exit code as an error", async () => {
    const result = await bash().run({ command: "echo nope; exit 3" }, ctxFor(dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("nope\n\nExit code 3");
  });

  it("streams chunks to onUpdate", async () => {
    const chunks: string[] = [];
    await bash().run(
      { command: "echo one; sleep 0.1; echo two" },
      ctxFor(dir, { onUpdate: (t) => chunks.push(t) }),
    );
    expect(chunks.join("")).toBe("one\ntwo\n");
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it("keeps the last 2,000 lines and says what was cut", async () => {
    const result = await bash().run({ command: "seq 1 3000" }, ctxFor(dir));
    const text = textOf(result);
    expect(text.startsWith("[Earlier output cut: showing the last 2000 of 3000 lines")).toBe(true);
    expect(text.split("\n")[1]).toBe("1001");
    expect(text.endsWith("\n3000")).toBe(true);
    expect((result.details as BashDetails).truncated).toBe(true);
  });

  it("keeps at most 50 KB of output", async () => {
    const result = await bash().run(
      { command: "for i in $(seq 1 600); do printf '%0100d\\n' $i; done" },
      ctxFor(dir),
    );
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThan(51200 + 200);
    expect(text).toMatch(
      /^\[Earlier output cut: showing the last 506 of 600 lines \(49.9 KB of 59.2 KB\)\.\]\n0{98}95\n/,
    );
  });

  it("keeps the whole of a cut output in a file it names, on the file system it is given", async () => {
    const keepDir = path.join(dir, "kept");
    const tool = createBashTool({
      shell: createNodeShell(),
      fullOutput: { fs: createNodeFs(), dir: keepDir },
    });
    const result = await tool.run({ command: "seq 1 3000" }, ctxFor(dir));
    const text = textOf(result);
    const named =
      /^\[Earlier output cut: showing the last 2000 of 3000 lines \([^)]*\)\. Full output: (\S+)\]\n1001\n/.exec(
        text,
      );
    expect(named).not.toBeNull();
    const kept = named?.[1] ?? "";
    expect(path.dirname(kept)).toBe(keepDir);
    expect((result.details as BashDetails).fullOutputPath).toBe(kept);
    const whole = await readFile(kept, "utf8");
    expect(whole.split("\n")).toEqual(Array.from({ length: 3000 }, (_, i) => String(i + 1)));
  });

  it("says so when the whole output cannot be kept, and still answers with the tail", async () => {
    await writeFile(path.join(dir, "blocker"), "a file where the folder should be");
    const keepDir = path.join(dir, "blocker", "kept");
    const tool = createBashTool({
      shell: createNodeShell(),
      fullOutput: { fs: createNodeFs(), dir: keepDir },
    });
    const result = await tool.run({ command: "seq 1 3000" }, ctxFor(dir));
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(
      /^\[Earlier output cut: [^\]]*; the full output could not be kept: [^\]]+\]\n1001\n/,
    );
    expect((result.details as BashDetails).fullOutputPath).toBeUndefined();
  });

  it("keeps no file for an output it did not cut", async () => {
    const keepDir = path.join(dir, "kept");
    const tool = createBashTool({
      shell: createNodeShell(),
      fullOutput: { fs: createNodeFs(), dir: keepDir },
    });
    await tool.run({ command: "seq 1 10" }, ctxFor(dir));
    await expect(readdir(keepDir)).rejects.toThrow(/ENOENT/);
  });

  it("times out and kills the whole process tree", async () => {
    const pidFile = path.join(dir, "pid");
    const started = Date.now();
    const result = await bash().run(
      { command: `sleep 30 & echo $! > ${pidFile}; echo started; wait`, timeout: 500 },
      ctxFor(dir),
    );
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s of the sleep
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("started\n\nCommand timed out after 500 ms.");
    const grandchild = await pidFrom(pidFile);
    expect(await waitFor(async () => !isAlive(grandchild))).toBe(true);
  });

  it("aborts and kills the whole process tree", async () => {
    const pidFile = path.join(dir, "pid");
    const controller = new AbortController();
    const pending = bash().run(
      { command: `sleep 30 & echo $! > ${pidFile}; wait` },
      ctxFor(dir, { signal: controller.signal }),
    );
    const grandchild = await pidFrom(pidFile);
    expect(isAlive(grandchild)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result).toEqual({ content: [{ type: "text", text: "Aborted" }], isError: true, touchedPaths: [] });
    expect(await waitFor(async () => !isAlive(grandchild))).toBe(true);
  });

  it("uses stdout and stderr when the ShellOps does not stream", async () => {
    const scripted: ShellOps = {
      run: async (command, options) => {
        expect(options.cwd).toBe(dir);
        expect(options.timeoutMs).toBe(120_000);
        return { stdout: `ran ${command}\n`, stderr: "warn\n", exitCode: 0, timedOut: false, aborted: false };
      },
    };
    const result = await createBashTool({ shell: scripted }).run({ command: "x" }, ctxFor(dir));
    expect(textOf(result)).toBe("ran x\nwarn");
  });

  it("takes Claude Code's input: description is accepted and unknown keys are ignored", async () => {
    const result = await bash().run(
      { command: "echo hi", description: "say hi", dangerouslyDisableSandbox: true },
      ctxFor(dir),
    );
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "hi" }] });
    expect(bash().subject({ command: "echo hi", description: "say hi" })).toBe("echo hi");
  });

  it("takes timeout in milliseconds, as Claude Code does", async () => {
    const seen: (number | undefined)[] = [];
    const scripted: ShellOps = {
      run: async (_command, options) => {
        seen.push(options.timeoutMs);
        return { stdout: "", stderr: "", exitCode: 0, timedOut: false, aborted: false };
      },
    };
    await createBashTool({ shell: scripted }).run({ command: "x", timeout: 300_000 }, ctxFor(dir));
    expect(seen).toEqual([300_000]);
  });

  it("refuses run_in_background without running anything, and runs when it is false", async () => {
    const marker = path.join(dir, "ran");
    const refused = await bash().run({ command: `touch ${marker}`, run_in_background: true }, ctxFor(dir));
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(BACKGROUND_UNSUPPORTED_TEXT);
    expect(await readFile(marker, "utf8").catch(() => "absent")).toBe("absent");
    const ran = await bash().run({ command: `touch ${marker}`, run_in_background: false }, ctxFor(dir));
    expect(ran.isError).toBe(false);
    expect(await readFile(marker, "utf8")).toBe("");
  });

  it("rejects a timeout over the maximum", async () => {
    expect(textOf(await bash().run({ command: "true", timeout: 600_001 }, ctxFor(dir)))).toBe(
      "Invalid input for Bash: timeout: Too big: expected number to be <=600000",
    );
  });

  it("has the command as its subject and quotes its limits", () => {
    expect(bash().subject({ command: "git add ." })).toBe("git add .");
    expect(bash().readOnly).toBe(false);
    expect(BASH_DESCRIPTION).toContain("timeout is in milliseconds: default 120000, at most 600000");
    expect(BASH_DESCRIPTION).toContain("last 2000 lines or 50 KB");
  });
});
