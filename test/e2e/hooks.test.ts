import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, PLUGINS_DIR, resultText, startHarness, toolResults } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

const bash = (command: string, id: string) => toolTurn("Bash", { command }, { id });

describe("PreToolUse hooks from settings and plugins in a session (SPEC §10, §11)", () => {
  it("an exit-2 settings hook blocks Bash; its stderr is in the tool_result the model gets", async () => {
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: "echo 'no shell today: use Read' >&2; exit 2" }],
          },
        ],
      },
    };
    e = await startHarness({
      files: { "project/.claude/settings.local.json": JSON.stringify(settings) },
      turns: [bash("echo hi > ran.txt", "toolu_bash"), textTurn("ok")],
      session: { allowedTools: ["Bash"] },
    });
    await e.send("write a file");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toContain("no shell today: use Read");
    await expect(readFile(join(e.cwd, "ran.txt"), "utf8")).rejects.toThrow();
  });

  it("git-guard (--plugin-dir) blocks `rm -rf /` with its message and lets `echo ok` run", async () => {
    e = await startHarness({
      engine: { pluginDirs: [join(PLUGINS_DIR, "git-guard")] },
      turns: [bash("rm -rf /", "toolu_rm"), bash("echo ok", "toolu_echo"), textTurn("done")],
      // Only echo is allowed: without the hook, rm would be denied by permissions with another message.
      session: { allowedTools: ["Bash(echo:*)"] },
    });
    expect(e.opened.diagnostics).toEqual([]);
    await e.send("clean up");
    const [blocked] = toolResults(e.body(1));
    expect(blocked?.is_error).toBe(true);
    const text = blocked ? resultText(blocked) : "";
    expect(text).toContain(
      "git-guard blocked this command: it would recursively delete /, a root, home or system directory.",
    );
    expect(text).toContain("command: rm -rf /");
    const [ran] = toolResults(e.body(2));
    expect(ran?.is_error).toBeFalsy();
    expect(ran && resultText(ran)).toContain("ok");
  });
});
