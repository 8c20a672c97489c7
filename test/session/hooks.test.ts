import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { openSession } from "../../src/session/open.js";
import {
  doneResult,
  FIXED_NOW,
  type Harness,
  resultText,
  skillMd,
  startHarness,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

/** Appends the hook's stdin JSON as one line to `hook.log` in the project dir. */
const LOG_HOOK = `'{ cat; echo; } >> "$CLAUDE_PROJECT_DIR/hook.log"'`;

function watchSkill(once: boolean): string {
  return skillMd(
    [
      "description: Watches Bash",
      "hooks:",
      "  PreToolUse:",
      "    - matcher: Bash",
      "      hooks:",
      "        - type: command",
      `          command: ${LOG_HOOK}`,
      ...(once ? ["          once: true"] : []),
    ].join("\n"),
    "Watching.",
  );
}

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/watch/SKILL.md": watchSkill(false),
  "project/.claude/skills/watch-once/SKILL.md": watchSkill(true),
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys", "Deploy."),
  "project/.claude/skills/greet/SKILL.md": skillMd("description: Greets", "Hello."),
  "project/.claude/skills/release/SKILL.md": skillMd("name: ship\ndescription: Ships", "Ship it."),
};

const ALLOW = { allow: ["Skill(watch)", "Skill(watch-once)", "Bash(echo:*)"] };

function settingsFile(settings: Record<string, unknown>): Record<string, string> {
  return { "project/.claude/settings.local.json": JSON.stringify({ permissions: ALLOW, ...settings }) };
}

function blockingHook(event: string, matcher: string | undefined, message: string) {
  const hook = { type: "command", command: `echo '${message}' >&2; exit 2` };
  return { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [hook] }] };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(turns: ScriptTurnInput[], files: Record<string, TreeEntry> = settingsFile({})) {
  h = await startHarness({ files: { ...TREE, ...files }, turns });
  return h;
}

/** The Bash commands the logging hook saw, in order. */
async function loggedCommands(harness: Harness): Promise<string[]> {
  const text = await readFile(join(harness.cwd, "hook.log"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const input = JSON.parse(line) as {
        hook_event_name: string;
        tool_name: string;
        tool_input: { command: string };
      };
      expect([input.hook_event_name, input.tool_name]).toEqual(["PreToolUse", "Bash"]);
      return input.tool_input.command;
    });
}

const bash = (command: string) => toolTurn("Bash", { command });

describe("skill hooks (SPEC §10), registered on invocation", () => {
  it("model path: fire on every later Bash call in the session, not on earlier ones", async () => {
    const s = await start([
      bash("echo 0"),
      toolTurn("Skill", { skill: "watch" }),
      bash("echo 1"),
      bash("echo 2"),
      textTurn("done"),
      bash("echo 3"),
      textTurn("done again"),
    ]);
    await s.send("watch it");
    await s.send("once more");
    expect(await loggedCommands(s)).toEqual(["echo 1", "echo 2", "echo 3"]);
  });

  it("user path: /watch registers them too", async () => {
    const s = await start([bash("echo 1"), textTurn("done"), bash("echo 2"), textTurn("done again")]);
    await s.send("/watch");
    await s.send("again");
    expect(await loggedCommands(s)).toEqual(["echo 1", "echo 2"]);
  });

  it("once: true fires once", async () => {
    const s = await start([
      toolTurn("Skill", { skill: "watch-once" }),
      bash("echo 1"),
      bash("echo 2"),
      textTurn("done"),
    ]);
    await s.send("watch once");
    expect(await loggedCommands(s)).toEqual(["echo 1"]);
  });

  it("once: true stays fired when the session is resumed", async () => {
    const s = await start([
      toolTurn("Skill", { skill: "watch-once" }),
      bash("echo 1"),
      textTurn("done"),
      bash("echo 2"),
      textTurn("done after resume"),
    ]);
    await s.send("watch once");
    const resumed = await openSession(s.engine, {
      client: s.model.client,
      now: () => FIXED_NOW,
      resume: s.opened.session.id,
    });
    const events: AgentEvent[] = [];
    for await (const event of resumed.session.send("go on")) events.push(event);
    expect(doneResult(events)).toMatchObject({ text: "done after resume" });
    // The skill's hooks are registered again on resume, but the once hook had fired: `echo 2` is not logged.
    expect(await loggedCommands(s)).toEqual(["echo 1"]);
    await resumed.session.close();
  });
});

describe("settings hooks on both invocation paths", () => {
  const frozen = settingsFile({ hooks: blockingHook("PreToolUse", "Skill", "skills are frozen") });

  it("a PreToolUse hook on Skill that exits 2 blocks the model's call; the result carries stderr", async () => {
    const s = await start([toolTurn("Skill", { skill: "deploy" }), textTurn("ok")], frozen);
    const events = await s.send("deploy");
    const [result] = toolResults(s.body(1));
    expect(result?.is_error).toBe(true);
    expect(result && resultText(result)).toBe(
      "<tool_use_error>PreToolUse hook blocked skill deploy: skills are frozen</tool_use_error>",
    );
    expect(events.some((e) => e.type === "skill_invoked")).toBe(false);
    expect(s.opened.session.invoked()).toEqual([]);
  });

  it("the same hook refuses a user's /deploy with no model request", async () => {
    const s = await start([textTurn("never")], frozen);
    const events = await s.send("/deploy now");
    expect(s.bodies()).toHaveLength(0);
    expect(doneResult(events)).toMatchObject({
      cause: "blocked",
      text: "PreToolUse hook blocked skill deploy: skills are frozen",
    });
  });

  it("a Skill(name) matcher blocks only that skill", async () => {
    const only = settingsFile({ hooks: blockingHook("PreToolUse", "Skill(deploy)", "not deploy") });
    const s = await start([toolTurn("Skill", { skill: "greet" }), textTurn("ok"), textTurn("never")], only);
    await s.send("greet");
    expect(resultText(toolResults(s.body(1))[0] ?? { type: "x" })).toBe("Launching skill: greet");
    const events = await s.send("/deploy");
    expect(doneResult(events).text).toBe("PreToolUse hook blocked skill deploy: not deploy");
  });

  it("a Skill(alias) matcher matches the skill whose `name:` is that alias, called either way", async () => {
    const frozenShip = settingsFile({ hooks: blockingHook("PreToolUse", "Skill(ship)", "no shipping") });
    const s = await start(
      [
        toolTurn("Skill", { skill: "ship" }),
        textTurn("ok"),
        toolTurn("Skill", { skill: "release" }),
        textTurn("ok"),
      ],
      frozenShip,
    );
    await s.send("ship it");
    expect(resultText(toolResults(s.body(1))[0] ?? { type: "x" })).toContain(
      "PreToolUse hook blocked skill release",
    );
    await s.send("release it");
    expect(resultText(toolResults(s.body(3))[0] ?? { type: "x" })).toContain(
      "PreToolUse hook blocked skill release",
    );
  });

  it.each(["plain prompt", "/greet Bob"])(
    "a UserPromptSubmit hook that exits 2 blocks %j",
    async (prompt) => {
      const s = await start(
        [textTurn("never")],
        settingsFile({ hooks: blockingHook("UserPromptSubmit", undefined, "no prompts today") }),
      );
      const events = await s.send(prompt);
      expect(s.bodies()).toHaveLength(0);
      expect(doneResult(events)).toMatchObject({
        cause: "blocked",
        text: "UserPromptSubmit hook blocked the prompt: no prompts today",
      });
      expect(events).toContainEqual(expect.objectContaining({ type: "error", kind: "blocked" }));
      expect(s.opened.session.invoked()).toEqual([]);
    },
  );
});
