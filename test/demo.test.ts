import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = fileURLToPath(new URL("../dist/bin/main.js", import.meta.url));

describe("npm run demo (scripts/demo.mjs, the README's first command)", () => {
  it("runs a real session offline: listing, a forked and an inline skill, a skill hook, each step printed", async () => {
    expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\``).toBe(true);
    // No API key in the environment: the demo must pick the scripted model server by itself.
    const result = await execa(process.execPath, ["scripts/demo.mjs"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    const order = [
      "model: the scripted model server at http://127.0.0.1:",
      "▶ The model saw the skill listing (a <system-reminder> before the prompt):",
      "    - code-review: Reviews a file or directory",
      "    - commit-message: Writes a Conventional Commits message",
      '◀ The model called Skill {"skill":"code-review","args":"src/index.ts"}',
      '    [fork] ◀ The sub-agent called Glob {"pattern":"src/**/*.ts"}',
      "▶ The model saw the fork's result (Skill tool result):",
      '    Skill "code-review" completed (forked execution).',
      '◀ The model called Skill {"skill":"commit-message"}',
      "▶ The model saw the Skill tool result:\n    Launching skill: commit-message",
      "▶ The model saw the expanded skill (inline shell already run):",
      // The inline `git diff --cached --stat` ran on the staged change.
      "     src/index.ts | 7 +++++++",
      "▶ The model saw the Bash result (an error) — the skill's hook at work:",
      "    PreToolUse hook blocked Bash: Blocked by the commit-message skill",
      "■ Result: success, 4 model turns",
    ];
    let from = 0;
    for (const line of order) {
      const at = out.indexOf(line, from);
      expect(at, `missing (or out of order): ${line}\n---\n${out}`).toBeGreaterThanOrEqual(0);
      from = at + line.length;
    }
  });
});
