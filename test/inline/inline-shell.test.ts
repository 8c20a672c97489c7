// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CheckCommand,
  EMPTY_OUTPUT_TEXT,
  expandInline,
  type InlineExpansionOptions,
  MAX_INLINE_OUTPUT_CHARS,
  refusedPattern,
} from "../../src/inline/inline-shell.js";
import { createNodeShell, type ShellOps } from "../../src/io/shell.js";
import { decide } from "../../src/permissions/decide.js";
import type { PermissionDecision, PermissionRules } from "../../src/permissions/decision.js";

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
      message: 'Shell command failed for pattern "!`echo boom >&2; exit 3`": [stderr]\nboom',
      shell: true,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("names the exit code when a failing command printed nothing", async () => {
    const body = "```!\nexit 4\n```";
    expect(await expandInline(body, options())).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "```!\nexit 4\n```": [stderr]\nCommand exited with code 4',
      shell: true,
    });
  });

  it("shows the marker as written, before substitution", async () => {
    const result = await expandInline("!`false $0`", options({ args: "x" }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`false $0`": [stderr]\nCommand exited with code 1',
      shell: true,
    });
  });

  it("fails on a timeout", async () => {
    const result = await expandInline("!`sleep 5`", options({ timeoutMs: 200 }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`sleep 5`": Command timed out after 200 ms',
      shell: true,
    });
  });

  it("fails when already aborted, without running anything", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await expandInline("!`touch ran`", options({ signal: controller.signal }));
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`touch ran`": Command was aborted',
      shell: true,
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
    expect(result).toEqual({
      ok: false,
      message: 'Shell command failed for pattern "!`ls`": spawn failed',
      shell: true,
    });
  });

  it.each<[string, PermissionDecision | Error, string]>([
    ["deny", { behavior: "deny", reason: "Bash(rm:*) is denied" }, "Bash(rm:*) is denied"],
    ["ask", { behavior: "ask", prompt: "Run rm?" }, "Permission was not granted (Run rm?)"],
    [
      "an ask with a reason (SPEC §14.9)",
      {
        behavior: "ask",
        prompt: "Allow?",
        reason: "A nested command in this command can't be checked before it runs",
      },
      "A nested command in this command can't be checked before it runs",
    ],
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
      shell: true,
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

describe("expandInline through the Bash permission check, headless (SPEC §14.1, §14.8, §14.9)", () => {
  /** The check the Skill tool runs: `decide` with the skill's grants; an `ask` stays unanswered (headless). */
  function headless(rules: Partial<PermissionRules>, grants: string[] = []): CheckCommand {
    return async (command) =>
      decide({
        rules: { allow: [], deny: [], ask: [], ...rules },
        grants,
        tool: "Bash",
        subject: { kind: "command", command },
        cwd: dir,
      });
  }
  const failed = (marker: string, reason: string) => ({
    ok: false,
    message: `Shell command permission check failed for pattern "${marker}": ${reason}`,
    shell: true,
  });

  it.each<[string, string, string]>([
    ["echo", "!`echo hi`", "hi"],
    ["pwd", "!`pwd`", "<dir>"],
    ["printf", "!`printf '%s-%s' a b`", "a-b"],
    ["true", "!`true`", EMPTY_OUTPUT_TEXT],
    ["ls", "!`ls`", EMPTY_OUTPUT_TEXT],
    ["a fenced block of reads", "```!\necho one\necho two && pwd\n```", "one\ntwo\n<dir>"],
    ["reads chained and piped", "!`echo a; echo b | cat`", "a\nb"],
    ["output thrown away", "!`echo gone > /dev/null 2>&1`", EMPTY_OUTPUT_TEXT],
  ])("%s runs without a Bash grant", async (_name, body, want) => {
    expect(await expandOk(body, { checkCommand: headless({}) })).toBe(want.replaceAll("<dir>", dir));
  });

  it("cat of a file inside the project runs without a grant; outside it needs one", async () => {
    await writeFile(join(dir, "x.txt"), "x\n");
    expect(await expandOk("!`cat x.txt`", { checkCommand: headless({}) })).toBe("x");
    expect(await expandInline("!`cat /etc/hostname`", options({ checkCommand: headless({}) }))).toEqual(
      failed(
        "!`cat /etc/hostname`",
        "cat needs approval. skillwright runs a shell command without asking only when it only reads inside the " +
          `working directories for this session ('${dir}') or a rule allows it.`,
      ),
    );
  });

  it.each<[string, string, Partial<PermissionRules>, string[], string]>([
    [
      "a write needs a grant",
      "!`touch m`",
      {},
      [],
      "touch in '<dir>/m' needs approval. The path is inside the working directories for this session " +
        "('<dir>'), and skillwright asks before a shell command creates, changes or removes files there.",
    ],
    [
      "deny beats the skill's own grant (SPEC §14.1)",
      "!`touch m`",
      { deny: ["Bash"] },
      ["Bash(touch:*)"],
      "Permission to use Bash has been denied.",
    ],
    [
      "deny beats even a read",
      "!`echo hi`",
      { deny: ["Bash"] },
      ["Bash"],
      "Permission to use Bash has been denied.",
    ],
    [
      "a chain names the path its writing part needs approval for (issue #44)",
      "!`echo a; touch m`",
      {},
      [],
      "touch in '<dir>/m' needs approval. The path is inside the working directories for this session " +
        "('<dir>'), and skillwright asks before a shell command creates, changes or removes files there.",
    ],
    [
      "a pipe into a writer names its path",
      "!`echo a | tee m`",
      {},
      [],
      "tee in '<dir>/m' needs approval. The path is inside the working directories for this session " +
        "('<dir>'), and skillwright asks before a shell command creates, changes or removes files there.",
    ],
    [
      "a chain with a part that writes no known path names the part",
      "!`echo a; npm test`",
      {},
      [],
      "This Bash command contains multiple operations. The following part requires approval: npm test",
    ],
    [
      "a nested command",
      "!`echo $(touch m)`",
      {},
      [],
      "A nested command in this command can't be checked before it runs",
    ],
    [
      "backticks in a fenced block",
      "```!\necho `touch m`\n```",
      {},
      [],
      "A nested command in this command can't be checked before it runs",
    ],
    [
      "a redirection out of the project, even with a grant (issue 16.6)",
      "!`echo x > /tmp/sw-outside-never/m`",
      {},
      ["Bash(echo:*)"],
      "echo in '/tmp/sw-outside-never/m' needs approval. For security, commands may only write to files in the " +
        "allowed working directories for this session without asking: '<dir>'. Add the directory with --add-dir " +
        "or permissions.additionalDirectories to allow it.",
    ],
  ])("%s: fails and runs nothing", async (_name, body, rules, grants, reason) => {
    const result = await expandInline(
      `${body}\n!\`touch after\``,
      options({ checkCommand: headless(rules, grants) }),
    );
    // A refusal quotes a marker by its first line (a fenced block: its fence).
    expect(result).toEqual(failed(body.split("\n")[0] ?? "", reason.replaceAll("<dir>", dir)));
    expect(await readdir(dir)).toEqual([]);
  });

  it("a grant lets a write inside the project run", async () => {
    const checkCommand = headless({}, ["Bash(echo:*)"]);
    expect(await expandOk("!`echo x > m.txt`", { checkCommand })).toBe(EMPTY_OUTPUT_TEXT);
    expect(await readdir(dir)).toEqual(["m.txt"]);
  });
});

describe("refusedPattern: how a refusal quotes a marker (Claude Code's wire)", () => {
  it.each<[string, string, string, string]>([
    ["an inline marker, substituted", "!`rm -rf $ARGUMENTS`", "build out", "!`rm -rf build out`"],
    ["a positional arg", "!`touch $1`", "a b", "!`touch b`"],
    ["a block: its first line only", "```!\nrm -rf $0\necho gone\n```", "x", "```!"],
    ["a block with a command on the fence line", "```! rm $0\necho gone\n```", "x", "```! rm x"],
    ["a CRLF block", "```!\r\nrm x\r\n```", "", "```!"],
  ])("%s", (_name, marker, args, want) => {
    expect(refusedPattern(marker, { args })).toBe(want);
  });

  it("a denied command and a session without a shell quote the substituted first line; a failure the marker as written", async () => {
    const deny: CheckCommand = async () => ({ behavior: "deny", reason: "no." });
    const body = "```!\ntouch $0\n```";
    expect(await expandInline(body, options({ args: "f", checkCommand: deny }))).toEqual({
      ok: false,
      message: 'Shell command permission check failed for pattern "```!": no.',
      shell: true,
    });
    const refusing: ShellOps = { ...createNodeShell(), refusal: "no shell here" };
    expect(await expandInline("!`touch $0`", options({ args: "f", shellOps: refusing }))).toEqual({
      ok: false,
      message: 'Shell command not run for pattern "!`touch f`": no shell here',
      shell: true,
    });
    expect(await expandInline("!`false $0`", options({ args: "f" }))).toMatchObject({
      message: 'Shell command failed for pattern "!`false $0`": [stderr]\nCommand exited with code 1',
    });
  });
});
