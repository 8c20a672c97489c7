/**
 * The hook events UserPromptExpansion, PostToolUseFailure, PermissionRequest, Notification and ConfigChange
 * (Claude Code's payloads), with real command hooks: small scripts in the temp project that write their stdin
 * to a file.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

/** A script that saves its stdin to `$CLAUDE_PROJECT_DIR/{file}`, then prints `out` and exits with `code`. */
function recorder(file: string, options: { out?: string; stderr?: string; code?: number } = {}): string {
  return [
    "#!/bin/sh",
    `cat > "$CLAUDE_PROJECT_DIR/${file}"`,
    ...(options.out === undefined ? [] : [`printf '%s' '${options.out}'`]),
    ...(options.stderr === undefined ? [] : [`echo '${options.stderr}' >&2`]),
    `exit ${options.code ?? 0}`,
  ].join("\n");
}

const hook = (script: string) => ({ type: "command", command: `sh "$CLAUDE_PROJECT_DIR/hooks/${script}"` });

async function recorded(file: string): Promise<Record<string, unknown>> {
  if (e === undefined) throw new Error("no session");
  return JSON.parse(await readFile(join(e.cwd, file), "utf8")) as Record<string, unknown>;
}

const greet = skillMd("description: Greets people", "GREET-BODY for $ARGUMENTS");

describe("UserPromptExpansion (a typed /skill expands)", () => {
  it("gets Claude Code's fields, then the expansion goes to the model", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/greet/SKILL.md": greet,
        "project/hooks/expansion.sh": recorder("expansion.json"),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { UserPromptExpansion: [{ matcher: "greet", hooks: [hook("expansion.sh")] }] },
        }),
      },
      turns: [textTurn("Hello Ada.")],
    });
    await e.send("/greet Ada");
    const payload = await recorded("expansion.json");
    expect(payload).toMatchObject({
      session_id: e.opened.session.id,
      cwd: e.cwd,
      hook_event_name: "UserPromptExpansion",
      expansion_type: "slash_command",
      command_name: "greet",
      command_args: "Ada",
      command_source: "skill",
    });
    expect(payload.prompt).toContain("GREET-BODY for Ada");
    expect(textBlocks(e.body(0).messages[0]?.content ?? "").join("\n")).toContain("GREET-BODY for Ada");
  });

  it("exit 2 blocks: no model request, the reply says why", async () => {
    e = await startHarness({
      files: {
        "project/.claude/skills/greet/SKILL.md": greet,
        "project/hooks/block.sh": recorder("blocked.json", { stderr: "not on Fridays", code: 2 }),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { UserPromptExpansion: [{ hooks: [hook("block.sh")] }] },
        }),
      },
      turns: [textTurn("should not be asked")],
    });
    const events = await e.send("/greet Ada");
    const reply = events.flatMap((ev) => (ev.type === "text_delta" ? [ev.text] : [])).join("");
    expect(reply).toContain("UserPromptExpansion hook blocked /greet: not on Fridays");
    expect(e.bodies()).toHaveLength(0);
    expect((await recorded("blocked.json")).command_name).toBe("greet");
  });
});

describe("PostToolUseFailure (a tool call that ended in error)", () => {
  it("fires with tool_name, tool_input, tool_use_id and error; PostToolUse does not", async () => {
    e = await startHarness({
      files: {
        "project/hooks/failure.sh": recorder("failure.json", { stderr: "try another path", code: 2 }),
        "project/hooks/post.sh": recorder("post.json"),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: {
            PostToolUseFailure: [{ matcher: "Read", hooks: [hook("failure.sh")] }],
            PostToolUse: [{ hooks: [hook("post.sh")] }],
          },
        }),
      },
      turns: [
        toolTurn("Read", { file_path: "missing.txt" }, { id: "toolu_read" }),
        textTurn("It is missing."),
      ],
    });
    await e.send("read missing.txt");
    const payload = await recorded("failure.json");
    expect(payload).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      session_id: e.opened.session.id,
      tool_name: "Read",
      tool_input: { file_path: "missing.txt" },
      tool_use_id: "toolu_read",
      is_interrupt: false,
    });
    expect(typeof payload.error).toBe("string");
    expect(payload.error).not.toBe("");
    await expect(readFile(join(e.cwd, "post.json"), "utf8")).rejects.toThrow();
    // Exit 2 feeds stderr back to the model after the failed result.
    expect(JSON.stringify(e.body(1).messages.at(-1))).toContain("try another path");
  });
});

describe("PermissionRequest (a permission would be asked)", () => {
  const touch = toolTurn("Bash", { command: "touch made.txt" }, { id: "toolu_b" });

  it("gets tool_name and tool_input; decision.behavior allow lets the call run, headless too", async () => {
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    e = await startHarness({
      files: {
        "project/hooks/permission.sh": recorder("permission.json", { out: allow }),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { PermissionRequest: [{ matcher: "Bash", hooks: [hook("permission.sh")] }] },
        }),
      },
      turns: [touch, textTurn("Made.")],
    });
    await e.send("make a file");
    expect(await recorded("permission.json")).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: "touch made.txt" },
    });
    const [result] = toolResults(e.body(1));
    expect(result?.is_error, result && resultText(result)).toBeFalsy();
    await expect(readFile(join(e.cwd, "made.txt"), "utf8")).resolves.toBe("");
  });

  it("decision.behavior deny refuses with the hook's message, and the user is never asked", async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "no files from hooks land" },
      },
    });
    const asked: string[] = [];
    e = await startHarness({
      files: {
        "project/hooks/permission.sh": recorder("permission.json", { out: deny }),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { PermissionRequest: [{ hooks: [hook("permission.sh")] }] },
        }),
      },
      turns: [touch, textTurn("Denied.")],
      session: {
        askPermission: async ({ prompt }) => {
          asked.push(prompt);
          return true;
        },
      },
    });
    await e.send("make a file");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toContain("no files from hooks land");
    expect(asked).toEqual([]);
    await expect(readFile(join(e.cwd, "made.txt"), "utf8")).rejects.toThrow();
  });

  it("no answer from the hook: the question goes on to the user as before", async () => {
    const asked: string[] = [];
    e = await startHarness({
      files: {
        "project/hooks/permission.sh": recorder("permission.json"),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { PermissionRequest: [{ hooks: [hook("permission.sh")] }] },
        }),
      },
      turns: [touch, textTurn("Made.")],
      session: {
        askPermission: async ({ prompt }) => {
          asked.push(prompt);
          return true;
        },
      },
    });
    await e.send("make a file");
    expect(asked).toHaveLength(1);
    expect((await recorded("permission.json")).tool_name).toBe("Bash");
  });
});

describe("Notification (a permission question is put to the user)", () => {
  it("fires with notification_type permission_prompt before the host asks", async () => {
    const order: string[] = [];
    e = await startHarness({
      files: {
        "project/hooks/notify.sh": recorder("notification.json"),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { Notification: [{ matcher: "permission_prompt", hooks: [hook("notify.sh")] }] },
        }),
      },
      turns: [toolTurn("Bash", { command: "touch made.txt" }, { id: "toolu_n" }), textTurn("Made.")],
      session: {
        askPermission: async () => {
          order.push(
            (await readFile(join(e?.cwd ?? "", "notification.json"), "utf8").catch(() => "")) === ""
              ? "asked before the hook"
              : "asked after the hook",
          );
          return true;
        },
      },
    });
    await e.send("make a file");
    expect(order).toEqual(["asked after the hook"]);
    expect(await recorded("notification.json")).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: "skillwright needs your permission to use Bash",
      title: "Permission needed",
    });
  });
});

describe("ConfigChange (a reload swapped in new configuration)", () => {
  it("fires at the start of the next turn after a reload, not on the first turn", async () => {
    e = await startHarness({
      files: {
        "project/hooks/config.sh": recorder("config.json"),
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { ConfigChange: [{ hooks: [hook("config.sh")] }] },
        }),
      },
      turns: [textTurn("One."), textTurn("Two.")],
    });
    await e.send("first");
    await expect(readFile(join(e.cwd, "config.json"), "utf8")).rejects.toThrow();
    await e.engine.reload();
    await e.send("second");
    expect(await recorded("config.json")).toMatchObject({
      hook_event_name: "ConfigChange",
      source: "settings",
    });
  });
});
