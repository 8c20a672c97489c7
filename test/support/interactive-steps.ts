import { PassThrough } from "node:stream";
import { parseCliArgs } from "../../src/cli/args.js";
import { interactiveCommand } from "../../src/cli/interactive.js";
import type { CliIo } from "../../src/cli/io.js";
import { createEngine } from "../../src/engine/engine.js";
import { TEST_API_KEY } from "./model-server.js";
import type { TmpTree } from "./tmp-tree.js";

/**
 * Runs the interactive mode in-process over tree `t` (cwd `repo`, home `home`) against the model at `modelUrl`.
 * Types each step's line after running its `before` (files changed while the session is open), then waits for
 * `until` (default the next prompt, printed once the line is handled; a permission question for a line that asks).
 */
export async function runSteps(
  t: TmpTree,
  modelUrl: string,
  steps: { before?: () => Promise<void>; line: string; until?: string }[],
  options: { pluginDirs?: string[] } = {},
) {
  let stdout = "";
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    env: {
      SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: modelUrl,
    },
    cwd: t.path("repo"),
    home: t.path("home"),
    bundledDir: t.path("no-bundled"),
  };
  const engine = createEngine({
    cwd: io.cwd,
    home: io.home,
    env: io.env,
    pluginDirs: options.pluginDirs ?? [],
  });
  const parsed = parseCliArgs([]);
  if (!parsed.ok) throw new Error(parsed.message);
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const done = interactiveCommand(engine, io, parsed.args, { input, output });
  for (const step of steps) {
    await step.before?.();
    const before = stdout.length;
    input.write(`${step.line}\n`);
    while (!stdout.slice(before).includes(step.until ?? "\n> ")) await new Promise((r) => setTimeout(r, 20));
  }
  input.end();
  const code = await done;
  await engine.close();
  return { code, stdout };
}
