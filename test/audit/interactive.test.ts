/**
 * Audit of SPEC §13 "Ctrl-C aborts the turn" in interactive mode, which had no test: readline runs in terminal
 * mode (an output stream that says it is a TTY), Ctrl-C (0x03) is typed while a Bash call runs, and the turn
 * must stop, the Bash child must die, and the next prompt must work.
 */
import { readFile } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { interactiveCommand } from "../../src/cli/interactive.js";
import type { CliIo } from "../../src/cli/io.js";
import { createEngine } from "../../src/engine/engine.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { isAlive, waitUntil as waitFor } from "../support/processes.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  model = undefined;
  tree = undefined;
});

describe("interactive mode: Ctrl-C aborts the running turn (SPEC §13)", () => {
  it("stops the turn, kills the Bash child, and the next prompt still gets an answer", async () => {
    tree = await tmpTree({ "home/.keep": "", "repo/.git": { dir: true } });
    const t = tree;
    model = await startTestModel([
      toolTurn("Bash", { command: 'echo $$ > "$PWD/bash.pid"; exec sleep 30' }),
      textTurn("second answer", { lastUserTextIncludes: "again" }),
    ]);
    let stdout = "";
    const io: CliIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stdout += text;
      },
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
        SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
      },
      cwd: t.path("repo"),
      home: t.path("home"),
      bundledDir: t.path("no-bundled"),
    };
    const engine = createEngine({ cwd: io.cwd, home: io.home, env: io.env });
    const input = new PassThrough();
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    output.resume();
    const parsed = parseCliArgs(["--allowedTools", "Bash"]);
    if (!parsed.ok) throw new Error(parsed.message);
    const done = interactiveCommand(engine, io, parsed.args, { input, output });
    try {
      await waitFor(() => stdout.includes("> "));
      input.write("run sleep\r");
      const pidFile = t.path("repo/bash.pid");
      expect(await waitFor(async () => (await readFile(pidFile, "utf8").catch(() => "")).trim() !== "")).toBe(
        true,
      );
      const pid = Number((await readFile(pidFile, "utf8")).trim());
      expect(isAlive(pid)).toBe(true);
      input.write("\x03");
      expect(await waitFor(() => stdout.includes("(aborted)"))).toBe(true);
      expect(await waitFor(() => !isAlive(pid))).toBe(true);
      input.write("again\r");
      expect(await waitFor(() => stdout.includes("second answer"))).toBe(true);
    } finally {
      input.write("\x04");
      input.end();
    }
    expect(await done).toBe(0);
    await engine.close();
  });
});
