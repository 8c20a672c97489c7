import { Bash } from "just-bash";
import { describe, expect, it } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createBashFs } from "../../src/sandbox/bash-fs.js";
import { sandboxLimitsOf } from "../../src/sandbox/sandbox-limits.js";
import { readOnlyAt } from "../support/read-only-fs.js";

// The adapter alone, on this thread: just-bash over createBashFs over an FsOps.
function shellOver(files: Record<string, string>, limits = {}) {
  const fs = readOnlyAt(createMemoryFs(files), ["/ro"]);
  const bash = new Bash({ fs: createBashFs(fs, sandboxLimitsOf(limits)), cwd: "/w" });
  return { fs, run: (command: string) => bash.exec(command, { cwd: "/w", rawScript: true }) };
}

describe("createBashFs", () => {
  it("reads, writes, appends, lists, copies, moves and removes through the FsOps", async () => {
    const { fs, run } = shellOver({ "/w/a.txt": "one\n", "/ro/r.txt": "read only\n" });
    const result = await run(
      "cat a.txt /ro/r.txt; echo two >> a.txt; mkdir -p d/e; cp a.txt d/e/b.txt; cp -r d d2; mv d2 d3; rm -r d; ls; cat d3/e/b.txt",
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("one\nread only\na.txt\nd3\none\ntwo\n");
    expect(await fs.readFile("/w/d3/e/b.txt")).toBe("one\ntwo\n");
  });

  it("says a read-only mount's refusal as bash does, and writes nothing there", async () => {
    const { fs, run } = shellOver({ "/w/.keep": "", "/ro/r.txt": "x" });
    const result = await run("touch /ro/new; cp /ro/r.txt /ro/copy; mkdir /ro/d; rm /ro/r.txt; echo end");
    expect(result.stdout).toBe("end\n");
    expect(result.stderr.match(/read-only file system/gi)?.length).toBe(4);
    expect((await fs.readdir("/ro")).map((e) => e.name)).toEqual(["r.txt"]);
  });

  it("refuses a file over maxFileBytes with EFBIG, before it reaches the FsOps", async () => {
    const { fs, run } = shellOver(
      { "/w/.keep": "", "/ro/source.txt": "0123456789ABC" },
      { maxFileBytes: 10 },
    );
    const result = await run("cp /ro/source.txt big.txt; echo $?");
    expect(result.stdout).toBe("1\n");
    expect(result.stderr).toMatch(/file too large/i);
    // A redirection that fails ends the script in just-bash (the worker says it as bash would).
    await expect(run("cat /ro/source.txt > /w/big.txt")).rejects.toMatchObject({ code: "EFBIG" });
    // As in bash, the redirection made the file before the write was refused: nothing of the content is in it.
    expect((await fs.stat("/w/big.txt")).size).toBe(0);
  });

  it("stops a command past maxFilesWritten with EDQUOT", async () => {
    const { fs, run } = shellOver({ "/w/.keep": "" }, { maxFilesWritten: 3 });
    const result = await run("for i in 1 2 3 4 5; do touch f$i; done");
    expect(result.stderr).toMatch(/disk quota exceeded/i);
    expect((await fs.readdir("/w")).map((e) => e.name).sort()).toEqual([".keep", "f1", "f2", "f3"]);
  });

  it("refuses paths past the limits of bytes, segments and characters", async () => {
    const { fs, run } = shellOver({ "/w/.keep": "" }, { maxPathBytes: 40, maxPathSegments: 4 });
    const long = await run(`touch ${"x".repeat(50)}`);
    expect(long.stderr).toMatch(/file name too long/i);
    const deep = await run("mkdir -p a/b/c/d");
    expect(deep.stderr).toMatch(/file name too long/i);
    const control = await run("touch \"$(printf 'bad\\001name')\"");
    expect(control.stderr).toMatch(/invalid argument/i);
    expect((await fs.readdir("/w")).map((e) => e.name).sort()).toEqual([".keep"]);
  });
});
