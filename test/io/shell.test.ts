import { describe, expect, it } from "vitest";
import { createNoShell, NO_SHELL_GIVEN, ShellRefusedError } from "../../src/io/no-shell.js";
import { createNodeShell } from "../../src/io/shell.js";
import { tmpTree } from "../support/tmp-tree.js";

describe("createNodeShell", () => {
  it("says a command could not start, naming the directory, instead of a signal", async () => {
    const result = await createNodeShell().run("true", { cwd: "/no/such/dir-for-skillwright" });
    expect(result.exitCode).toBeUndefined();
    expect(result.startError).toContain("could not start in /no/such/dir-for-skillwright");
  });

  it("starts commands from the environment it was given, not the process's own", async () => {
    const tree = await tmpTree({});
    try {
      process.env.SKILLWRIGHT_TEST_SECRET = "leaked";
      const shell = createNodeShell({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
      const result = await shell.run('echo "[$SKILLWRIGHT_TEST_SECRET][$EXTRA]"', {
        cwd: tree.root,
        env: { EXTRA: "given" },
      });
      expect(result.stdout.trim()).toBe("[][given]");
    } finally {
      delete process.env.SKILLWRIGHT_TEST_SECRET;
      await tree.cleanup();
    }
  });
});

describe("createNoShell", () => {
  it("starts nothing: refuses every run with its reason", async () => {
    const shell = createNoShell();
    expect(shell.refusal).toBe(NO_SHELL_GIVEN);
    await expect(shell.run("touch /tmp/never", { cwd: "/" })).rejects.toBeInstanceOf(ShellRefusedError);
  });
});
