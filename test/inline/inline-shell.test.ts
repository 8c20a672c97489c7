// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CheckCommand,
  EMPTY_OUTPUT_TEXT,
  expandInline,
  type InlineExpansionOptions,
  MAX_INLINE_OUTPUT_CHARS,
} from "../../src/inline/inline-shell.js";
import { createNodeShell, type ShellOps } from "../../src/io/shell.js";
import type { PermissionDecision } from "../../src/permissions/decision.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "sw-inline-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const allowAll: CheckCommand = async () => ({ behavior: "allow" });

function options(overrides: Partial<InlineExpansionOptions> = {}): InlineExpansionOptions {
  return {
    args: "",
    allowShell: true,
    cwd: dir,
    shellOps: createNodeShell(),
    checkCommand: allowAll,
    ...overrides,
  };
}

async function expandOk(body: string, overrides: Partial<InlineExpansionOptions> = {}): Promise<string> {
  const result = await expandInline(body, options(overrides));
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result.text;
}

describe("expandInline: running commands", () => {
  it("replaces each marker with its output, in document order, one after the other", async () => {
    const body = "A: !`echo one > f; echo one`\nB: !`cat f; echo two`\nDone.";
    expect(await expandOk(body)).toBe("A: one\nB: one\ntwo\nDone.");
  });

  it("runs in the project dir", async () => {
    expect(await expandOk("Here: !`pwd`")).toBe(`Here: ${dir}`);
  });

  it("gives stdout then stderr", async () => {
    expect(await expandOk("!`echo err >&2; echo out`")).toBe("out\nerr");
  });

  it("says so when a command prints nothing", async () => {
    expect(await expandOk("x !`true` y")).toBe(`x ${EMPTY_OUTPUT_TEXT} y`);
    expect(EMPTY_OUTPUT_TEXT).toBe("(Bash completed with no output)");
  });

  it("caps long output with a truncation note", async () => {
    const text = await expandOk("!`head -c 40000 /dev/zero | tr '\\0' x`");
    expect(text).toBe(
      `${"x".repeat(MAX_INLINE_OUTPUT_CHARS)}\n\n[output truncated: 10000 more characters not shown]`,
    );
  });

  it("runs fenced ```! blocks and replaces the whole block", async () => {
    const body = "Files:\n```!\nprintf 'a\\n'\nprintf 'b\\n'\n```\nEnd";
    expect(await expandOk(body)).toBe("Files:\na\nb\nEnd");
  });

  it("uses the skill's shell", async () => {
    expect(await expandOk("!`echo ${BASH_VERSION:+bash}`", { shell: "bash" })).toBe("bash");
    expect(await expandOk("!`echo ${BASH_VERSION:+bash}`", { shell: "sh" })).toBe(EMPTY_OUTPUT_TEXT);
  });

  it("never scans command output again", async () => {
    const text = await expandOk("!`printf '\\044ARGUMENTS !\\140touch Q\\140'`", { args: "zz" });
    expect(text).toBe("$ARGUMENTS !`touch Q`\n\nARGUMENTS: zz");
    expect(await readdir(dir)).toEqual([]);
  });

  it("pastes variables raw into commands", async () => {
    const text = await expandOk('!`echo "${CLAUDE_SKILL_DIR}/x"`', { vars: { skillDir: "/my skill" } });
    expect(text).toBe("/my skill/x");
  });
});

describe("expandInline: failures", () => {
  it("fails the whole expansion on a non-zero exit, with the marker as written and the output", async () => {
    const body = "!`echo boom >&2; exit 3` then !`touch later`";
    expect(await expandInline(body, options())).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`echo boom >&2; exit 3`": boom',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("names the exit code when a failing command printed nothing", async () => {
    const body = "```!\nexit 4\n```";
    expect(await expandInline(body, options())).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "```!\nexit 4\n```": Command exited with code 4',
    });
  });

  it("shows the marker as written, before substitution", async () => {
    const result = await expandInline("!`false $0`", options({ args: "x" }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`false $0`": Command exited with code 1',
    });
  });

  it("fails on a timeout", async () => {
    const result = await expandInline("!`sleep 5`", options({ timeoutMs: 200 }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`sleep 5`": Command timed out after 200 ms',
    });
  });

  it("fails when already aborted, without running anything", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await expandInline("!`touch ran`", options({ signal: controller.signal }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`touch ran`": Command was aborted',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("fails when the shell itself throws", async () => {
    const broken: ShellOps = {
      run: async () => {
        throw new Error("spawn failed");
      },
    };
    const result = await expandInline("!`ls`", options({ shellOps: broken }));
    expect(result).toEqual({ ok: false, message: 'Shell command failed for pattern "!`ls`": spawn failed' });
  });

  it.each<[string, PermissionDecision | Error, string]>([
    ["deny", { behavior: "deny", reason: "Bash(rm:*) is denied" }, "Bash(rm:*) is denied"],
    ["ask", { behavior: "ask", prompt: "Run rm?" }, "Permission was not granted (Run rm?)"],
    ["a throwing checker", new Error("checker broke"), "checker broke"],
  ])("treats %s as a denial and runs nothing", async (_name, decision, reason) => {
    const checkCommand: CheckCommand = async () => {
      if (decision instanceof Error) throw decision;
      return decision;
    };
    const result = await expandInline("ok !`touch a` !`touch b`", options({ checkCommand }));
    expect(result).toEqual({
      ok: false,
      message: `Shell command permission check failed for pattern "!\`touch a\`": ${reason}`,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("checks each command as it will run, in order", async () => {
    const seen: string[] = [];
    const checkCommand: CheckCommand = async (command) => {
      seen.push(command);
      return { behavior: "allow" };
    };
    await expandOk("!`echo 1`\n```!\n  echo 2\n```\n!`echo $0`", { args: "x", checkCommand });
    expect(seen).toEqual(["echo 1", "echo 2", 'echo "${SKILLWRIGHT_ARG_0}"']);
  });
});

describe("expandInline: substitution and injection", () => {
  const NASTY = "a; touch X; $(touch Y) `touch Z` it's";
  const ARGS_ONE_WORD = `"a; touch X; \\$(touch Y) \\\`touch Z\\\` it's" second`;

  it.each<[string, string, string, string]>([
    ["$ARGUMENTS unquoted", "!`echo $ARGUMENTS`", NASTY, NASTY],
    ["$ARGUMENTS in double quotes", '!`echo "[$ARGUMENTS]"`', NASTY, `[${NASTY}]`],
    ["$ARGUMENTS in single quotes", "!`echo '[$ARGUMENTS]'`", NASTY, `[${NASTY}]`],
    ["$0 unquoted", "!`echo $0`", ARGS_ONE_WORD, NASTY],
    ["$0 in double quotes", '!`echo "$0"`', ARGS_ONE_WORD, NASTY],
    ["$ARGUMENTS[0] inside $(…) in double quotes", '!`echo "$(echo "$ARGUMENTS[0]")"`', ARGS_ONE_WORD, NASTY],
    ["named arg", "!`printf '%s|' $what`", ARGS_ONE_WORD, `${NASTY}|`],
    [
      "inside a fenced block with a heredoc",
      "```!\ncat <<EOF\nit's $0\nEOF\n```",
      ARGS_ONE_WORD,
      `it's ${NASTY}`,
    ],
  ])("%s: runs nothing from the args and echoes them literally", async (_name, body, args, expected) => {
    const text = await expandOk(body, { args, argumentNames: ["what"] });
    expect(text).toBe(expected);
    expect(await readdir(dir)).toEqual([]);
  });

  it("is safe with sh too", async () => {
    expect(await expandOk("!`echo $ARGUMENTS`", { args: NASTY, shell: "sh" })).toBe(NASTY);
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps the values raw in the text around the commands", async () => {
    const text = await expandOk("Args: $ARGUMENTS. Echo: !`echo $0`", { args: "it's x" });
    expect(text).toBe("Args: it's x. Echo: its x");
  });

  it("makes escaped placeholders reach the program literally, in any quoting", async () => {
    const body = "!`echo \\$0 \"\\$ARGUMENTS\" '\\$1'`";
    expect(await expandOk(body, { args: "p q" })).toBe("$0 $ARGUMENTS $1\n\nARGUMENTS: p q");
  });

  it("counts placeholders inside commands for the append rule", async () => {
    expect(await expandOk("Say !`echo $ARGUMENTS`", { args: "hi" })).toBe("Say hi");
    expect(await expandOk("Say !`echo hello`", { args: "hi" })).toBe("Say hello\n\nARGUMENTS: hi");
  });
});

describe("expandInline: allowShell false (MCP)", () => {
  it("leaves markers literal, runs nothing, and substitutes like text", async () => {
    const body = "A !`touch A` B\n```!\ntouch B $0\n```\n$ARGUMENTS";
    const text = await expandOk(body, { allowShell: false, args: "x;y" });
    expect(text).toBe("A !`touch A` B\n```!\ntouch B x;y\n```\nx;y");
    expect(await readdir(dir)).toEqual([]);
  });
});
