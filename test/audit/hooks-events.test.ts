/**
 * Audit of SPEC §10 in a real session: every event the SPEC names fires from the session with the stdin
 * fields it promises (`session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`). Before this file only
 * PreToolUse, UserPromptSubmit and PreCompact were seen firing end to end; SessionStart, PostToolUse, Stop,
 * SubagentStart, SubagentStop and SessionEnd were tested only as `dispatchHooks` units.
 */
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, resultText, skillMd, startHarness, toolResults } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionEnd",
] as const;

/** Each hook appends its stdin as one line to hooks.log in the project dir. */
const LOG_HOOK = { type: "command", command: '{ cat; echo; } >> "$CLAUDE_PROJECT_DIR/hooks.log"' };

const settings = JSON.stringify({
  hooks: Object.fromEntries(EVENTS.map((event) => [event, [{ hooks: [LOG_HOOK] }]])),
});

interface Logged {
  hook_event_name: string;
  session_id: string;
  cwd: string;
  tool_name?: string;
  tool_input?: { command?: string; skill?: string };
  tool_response?: unknown;
  prompt?: string;
  source?: string;
  agent_type?: string;
}

async function logged(e: Harness): Promise<Logged[]> {
  const text = await readFile(e.tree.path("project/hooks.log"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Logged);
}

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

describe("hook events fire from a session (SPEC §10)", () => {
  it("SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStart/Stop and SessionEnd", async () => {
    e = await startHarness({
      files: {
        "project/.claude/settings.local.json": settings,
        "project/.claude/skills/sub/SKILL.md": skillMd("description: A fork\ncontext: fork", "SUB-TASK"),
      },
      turns: [
        toolTurn("Bash", { command: "echo from-bash" }, { match: { agentId: null } }),
        textTurn("bash done", { agentId: null, hasToolResultFor: "Bash" }),
        toolTurn("Skill", { skill: "sub" }, { match: { agentId: null, lastUserTextIncludes: "fork now" } }),
        textTurn("fork answer", { agentId: "*" }),
        textTurn("all done", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      session: { allowedTools: ["Bash", "Skill"] },
    });
    const id = e.opened.session.id;
    const first = await e.send("run bash please");
    expect(first.some((ev) => ev.type === "error")).toBe(false);
    const afterFirst = (await logged(e)).map((l) => l.hook_event_name);
    expect(afterFirst).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]);

    await e.send("fork now");
    const [forkResult] = toolResults(e.body(3));
    expect(resultText(forkResult ?? { type: "x" })).toContain("fork answer");
    await e.opened.session.close();

    const all = await logged(e);
    expect(all.map((l) => l.hook_event_name)).toEqual([
      ...afterFirst,
      "UserPromptSubmit",
      "PreToolUse",
      "SubagentStart",
      "SubagentStop",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    for (const entry of all) {
      expect(entry.session_id).toBe(id);
      expect(entry.cwd).toBe(e.cwd);
    }
    const byEvent = (name: string) => all.filter((l) => l.hook_event_name === name);
    expect(byEvent("SessionStart")[0]?.source).toBe("startup");
    expect(byEvent("UserPromptSubmit").map((l) => l.prompt)).toEqual(["run bash please", "fork now"]);
    expect(byEvent("PreToolUse")[0]).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo from-bash" },
    });
    expect(byEvent("PreToolUse")[1]).toMatchObject({ tool_name: "Skill", tool_input: { skill: "sub" } });
    expect(byEvent("PostToolUse")[0]?.tool_name).toBe("Bash");
    expect(JSON.stringify(byEvent("PostToolUse")[0]?.tool_response)).toContain("from-bash");
    expect(byEvent("SubagentStart")[0]?.agent_type).toBe("general-purpose");
  });

  const exitOneHook = () =>
    startHarness({
      files: {
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: "echo not-fatal >&2; exit 1" }] },
            ],
          },
        }),
      },
      turns: [toolTurn("Bash", { command: "echo still-ran" }), textTurn("ok", { hasToolResultFor: "Bash" })],
      session: { allowedTools: ["Bash"] },
    });

  it("a hook exiting 1 does not block: the tool still runs (SPEC §10 other codes)", async () => {
    e = await exitOneHook();
    await e.send("go");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBeUndefined();
    expect(resultText(result ?? { type: "x" })).toContain("still-ran");
  });

  // SPEC §10 "other codes: a warning": every event's warnings reach the host (src/hooks/runner.ts).
  it("a hook exiting 1 is a warning the host sees (SPEC §10 other codes)", async () => {
    e = await exitOneHook();
    const events = await e.send("go");
    expect(events.some((ev) => ev.type === "warning" && ev.message.includes("not-fatal"))).toBe(true);
  });

  it("exit 0 with JSON {decision: block} on PreToolUse blocks the tool, reason to the model (SPEC §10)", async () => {
    e = await startHarness({
      files: {
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"JSON-SAYS-NO"}'` }],
              },
            ],
          },
        }),
      },
      turns: [
        toolTurn("Bash", { command: "touch should-not-exist" }),
        textTurn("ok", { hasToolResultFor: "Bash" }),
      ],
      session: { allowedTools: ["Bash"] },
    });
    await e.send("go");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBe(true);
    expect(resultText(result ?? { type: "x" })).toContain("JSON-SAYS-NO");
  });
  it("a Stop hook exiting 2 keeps the agent going with its stderr as the next input (SPEC §10 exit 2)", async () => {
    const once =
      'if [ -f "$CLAUDE_PROJECT_DIR/stopped" ]; then exit 0; fi; touch "$CLAUDE_PROJECT_DIR/stopped"; echo KEEP-GOING >&2; exit 2';
    e = await startHarness({
      files: {
        "project/.claude/settings.local.json": JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: "command", command: once }] }] },
        }),
      },
      turns: [textTurn("first stop"), textTurn("second stop", { lastUserTextIncludes: "KEEP-GOING" })],
    });
    const events = await e.send("go");
    expect(e.bodies()).toHaveLength(2);
    expect(JSON.stringify(e.body(1).messages.at(-1))).toContain("KEEP-GOING");
    const done = events.findLast((ev) => ev.type === "done");
    expect(done?.type === "done" && done.result.text).toBe("second stop");
  });
});
