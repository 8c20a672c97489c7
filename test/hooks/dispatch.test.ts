import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  aggregateHookResults,
  type DispatchDeps,
  dispatchHooks,
  type HookPayload,
  hookQueryFor,
} from "../../src/hooks/dispatch.js";
import { createHookRegistry, type HookSource, type RegisteredHook } from "../../src/hooks/registry.js";
import type { HookRunResult } from "../../src/hooks/run-hook.js";
import type { HookEvent, HookOutput, HooksConfig } from "../../src/hooks/schema.js";
import { createNodeShell } from "../../src/io/shell.js";
import { makeTmp, writeScript } from "./hook-fixtures.js";

const settings: HookSource = { kind: "settings", name: "settings.json" };

let dir: string;
let cleanup: () => Promise<void>;
let deps: DispatchDeps;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTmp());
  deps = { shell: createNodeShell(), sessionId: "sess-9", cwd: dir, transcriptPath: join(dir, "t.jsonl") };
});
afterEach(() => cleanup());

const group = (matcher: string | undefined, ...commands: string[]) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: commands.map((command) => ({ type: "command" as const, command })),
});
const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;
const bashCall: HookPayload = { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" };

function registryWith(config: HooksConfig, source: HookSource = settings) {
  const registry = createHookRegistry();
  registry.register(source, config);
  return registry;
}

describe("dispatchHooks", () => {
  it("runs only matching hooks, with the full event JSON on stdin", async () => {
    const out = join(dir, "in.json");
    const registry = registryWith({
      PreToolUse: [group("Bash", `cat > '${out}'`), group("Write", `touch '${join(dir, "write")}'`)],
    });
    const result = await dispatchHooks(registry, "PreToolUse", bashCall, {
      ...deps,
      permissionMode: "default",
    });
    expect(result.runs).toHaveLength(1);
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual({
      session_id: "sess-9",
      transcript_path: join(dir, "t.jsonl"),
      cwd: dir,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_1",
    });
    await expect(readFile(join(dir, "write"))).rejects.toThrow();
  });

  it("does not let the payload override the common fields", async () => {
    const out = join(dir, "in.json");
    const registry = registryWith({ Stop: [group(undefined, `cat > '${out}'`)] });
    await dispatchHooks(
      registry,
      "Stop",
      { hook_event_name: "PreToolUse", session_id: "x", stop_hook_active: false },
      deps,
    );
    expect(JSON.parse(await readFile(out, "utf8"))).toMatchObject({
      hook_event_name: "Stop",
      session_id: "sess-9",
      stop_hook_active: false,
    });
  });

  it("blocks a tool call on exit 2 with stderr as the reason, and implies deny", async () => {
    const registry = registryWith({
      PreToolUse: [group("Bash", "echo ok", "echo 'not in prod' >&2; exit 2")],
    });
    const result = await dispatchHooks(registry, "PreToolUse", bashCall, deps);
    expect(result.blocked).toEqual({ reason: "not in prod" });
    expect(result.permission).toEqual({ decision: "deny", reason: "not in prod" });
    expect(result.runs.map((r) => r.result.outcome)).toEqual(["continue", "block"]);
  });

  it("reads permissionDecision: deny blocks, ask beats allow", async () => {
    const decide = (permissionDecision: string, reason: string) =>
      json({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision,
          permissionDecisionReason: reason,
        },
      });
    const allowOnly = await dispatchHooks(
      registryWith({ PreToolUse: [group("*", decide("allow", "safe"))] }),
      "PreToolUse",
      bashCall,
      deps,
    );
    expect(allowOnly.blocked).toBeUndefined();
    expect(allowOnly.permission).toEqual({ decision: "allow", reason: "safe" });

    const askAndAllow = await dispatchHooks(
      registryWith({ PreToolUse: [group("*", decide("allow", "safe"), decide("ask", "check"))] }),
      "PreToolUse",
      bashCall,
      deps,
    );
    expect(askAndAllow.permission).toEqual({ decision: "ask", reason: "check" });

    const deny = await dispatchHooks(
      registryWith({ PreToolUse: [group("*", decide("allow", "safe"), decide("deny", "never"))] }),
      "PreToolUse",
      bashCall,
      deps,
    );
    expect(deny.blocked).toEqual({ reason: "never" });
    expect(deny.permission).toEqual({ decision: "deny", reason: "never" });
  });

  it("matches Skill(name) against the invoked skill", async () => {
    const registry = registryWith({ PreToolUse: [group("Skill(deploy)", "echo 'ask first' >&2; exit 2")] });
    const skillCall = (skill: string) => ({ tool_name: "Skill", tool_input: { skill } });
    expect((await dispatchHooks(registry, "PreToolUse", skillCall("deploy"), deps)).blocked).toEqual({
      reason: "ask first",
    });
    expect((await dispatchHooks(registry, "PreToolUse", skillCall("review"), deps)).blocked).toBeUndefined();
  });

  it("UserPromptSubmit: plain stdout becomes context, a block stops the prompt, matchers are ignored", async () => {
    const context = await dispatchHooks(
      registryWith({ UserPromptSubmit: [group("Bash", "echo 'branch: main'")] }),
      "UserPromptSubmit",
      { prompt: "hi" },
      deps,
    );
    expect(context.additionalContext).toEqual(["branch: main"]);
    expect(context.blocked).toBeUndefined();

    const blocked = await dispatchHooks(
      registryWith({
        UserPromptSubmit: [group(undefined, `grep -q secret && { echo 'no secrets' >&2; exit 2; } || true`)],
      }),
      "UserPromptSubmit",
      { prompt: "my secret is 42" },
      deps,
    );
    expect(blocked.blocked).toEqual({ reason: "no secrets" });
  });

  it("adds plain stdout as context only for UserPromptSubmit and SessionStart", async () => {
    const registry = registryWith({ PostToolUse: [group("*", "echo formatted")] });
    const result = await dispatchHooks(registry, "PostToolUse", { ...bashCall, tool_response: "x" }, deps);
    expect(result.additionalContext).toEqual([]);
  });

  it("matches SessionStart on its source and adds JSON additionalContext", async () => {
    const registry = registryWith({
      SessionStart: [
        group(
          "startup",
          json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "fresh" } }),
        ),
        group("resume", "echo resumed"),
      ],
    });
    expect(
      (await dispatchHooks(registry, "SessionStart", { source: "startup" }, deps)).additionalContext,
    ).toEqual(["fresh"]);
    expect(
      (await dispatchHooks(registry, "SessionStart", { source: "resume" }, deps)).additionalContext,
    ).toEqual(["resumed"]);
  });

  it("turns a block on an event that cannot block into a warning", async () => {
    const registry = registryWith({ PreCompact: [group(undefined, "echo nope >&2; exit 2")] });
    const result = await dispatchHooks(registry, "PreCompact", { trigger: "manual" }, deps);
    expect(result.blocked).toBeUndefined();
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain("nope");
  });

  it("reports failing hooks as warnings and keeps going", async () => {
    const registry = registryWith({
      PostToolUse: [group("*", "echo broken >&2; exit 1", json({ systemMessage: "formatted 1 file" }))],
    });
    const result = await dispatchHooks(registry, "PostToolUse", bashCall, deps);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain("exited with code 1: broken");
    expect(result.systemMessages).toEqual(["formatted 1 file"]);
  });

  it("fires a once hook a single time per session, also under concurrent dispatch", async () => {
    const log = join(dir, "log");
    const registry = createHookRegistry();
    registry.register(
      { kind: "skill", name: "setup" },
      {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: `echo once >> '${log}'`, once: true },
              { type: "command", command: `echo every >> '${log}'` },
            ],
          },
        ],
      },
    );
    await Promise.all([
      dispatchHooks(registry, "PreToolUse", bashCall, deps),
      dispatchHooks(registry, "PreToolUse", bashCall, deps),
    ]);
    await dispatchHooks(registry, "PreToolUse", bashCall, deps);
    const lines = (await readFile(log, "utf8")).trim().split("\n").sort();
    expect(lines).toEqual(["every", "every", "every", "once"]);
  });

  it("gives plugin hooks CLAUDE_PLUGIN_ROOT and skill hooks their dir, plus CLAUDE_PROJECT_DIR", async () => {
    const command = await writeScript(
      dir,
      "env.sh",
      'r=$(printenv CLAUDE_PLUGIN_ROOT || echo unset); s=$(printenv CLAUDE_SKILL_DIR || echo unset); echo "$r|$s|$CLAUDE_PROJECT_DIR"',
    );
    const config: HooksConfig = { UserPromptSubmit: [group(undefined, command)] };
    const registry = createHookRegistry();
    registry.register({ kind: "plugin", name: "fmt", pluginRoot: "/plugins/fmt" }, config);
    registry.register({ kind: "skill", name: "deploy", skillDir: "/skills/deploy" }, config);
    registry.register(
      { kind: "skill", name: "fmt:lint", pluginRoot: "/plugins/fmt", skillDir: "/plugins/fmt/skills/lint" },
      config,
    );
    const result = await dispatchHooks(
      registry,
      "UserPromptSubmit",
      { prompt: "x" },
      { ...deps, projectDir: "/proj" },
    );
    expect(result.additionalContext).toEqual([
      "/plugins/fmt|unset|/proj",
      "/skills/deploy|/skills/deploy|/proj",
      "/plugins/fmt|/plugins/fmt/skills/lint|/proj",
    ]);
  });

  it("keeps results in registration order even when later hooks finish first", async () => {
    const registry = registryWith({
      UserPromptSubmit: [group(undefined, "sleep 0.3; echo slow", "echo fast")],
    });
    const result = await dispatchHooks(registry, "UserPromptSubmit", { prompt: "x" }, deps);
    expect(result.additionalContext).toEqual(["slow", "fast"]);
  });

  it("returns an empty result when nothing matches", async () => {
    const result = await dispatchHooks(createHookRegistry(), "Stop", {}, deps);
    expect(result).toEqual({ additionalContext: [], warnings: [], systemMessages: [], runs: [] });
  });
});

describe("hookQueryFor", () => {
  it.each<[HookEvent, HookPayload, object]>([
    ["PreToolUse", { tool_name: "Bash" }, { toolName: "Bash" }],
    [
      "PostToolUse",
      { tool_name: "Skill", tool_input: { skill: "deploy" } },
      { toolName: "Skill", skillName: "deploy" },
    ],
    ["PreToolUse", { tool_name: "Skill", tool_input: {} }, { toolName: "Skill" }],
    ["PreToolUse", { tool_name: "Bash", tool_input: { skill: "x" } }, { toolName: "Bash" }],
    ["PreToolUse", {}, { toolName: "" }],
    ["SessionStart", { source: "resume" }, { toolName: "resume" }],
    ["SessionEnd", { reason: "logout" }, { toolName: "logout" }],
    ["PreCompact", { trigger: "auto" }, { toolName: "auto" }],
    ["SubagentStop", { agent_type: "Explore" }, { toolName: "Explore" }],
    ["UserPromptSubmit", { prompt: "hi", tool_name: "Bash" }, {}],
    ["Stop", {}, {}],
  ])("%s %j → %j", (event, payload, query) => {
    expect(hookQueryFor(event, payload)).toEqual(query);
  });
});

describe("aggregateHookResults", () => {
  const entry = (command: string): RegisteredHook => ({
    key: command,
    event: "PreToolUse",
    hook: { type: "command", command },
    source: settings,
  });
  const ok = (output?: HookOutput): HookRunResult =>
    output === undefined
      ? { outcome: "continue", stdout: "" }
      : { outcome: "continue", stdout: "{}", output };
  const run = (result: HookRunResult, command = "h") => ({ hook: entry(command), result });

  it("joins every block reason, in order", () => {
    const result = aggregateHookResults("Stop", [
      run({ outcome: "block", reason: "first" }),
      run(ok()),
      run({ outcome: "block", reason: "second" }),
    ]);
    expect(result.blocked).toEqual({ reason: "first\nsecond" });
    expect(result.permission).toBeUndefined();
  });

  it("a block wins over an allow", () => {
    const result = aggregateHookResults("PreToolUse", [
      run(ok({ hookSpecificOutput: { permissionDecision: "allow" } })),
      run({ outcome: "block", reason: "no" }),
    ]);
    expect(result.blocked).toEqual({ reason: "no" });
    expect(result.permission?.decision).toBe("deny");
  });

  it("reads the legacy decision: approve as allow", () => {
    const result = aggregateHookResults("PreToolUse", [run(ok({ decision: "approve", reason: "fine" }))]);
    expect(result.permission).toEqual({ decision: "allow", reason: "fine" });
  });

  it("ignores permission decisions outside PreToolUse", () => {
    const result = aggregateHookResults("PostToolUse", [
      run(ok({ hookSpecificOutput: { permissionDecision: "deny" } })),
    ]);
    expect(result.permission).toBeUndefined();
    expect(result.blocked).toBeUndefined();
  });

  it("names the hook in a deny without a reason", () => {
    const result = aggregateHookResults("PreToolUse", [
      run(ok({ hookSpecificOutput: { permissionDecision: "deny" } }), "guard.sh"),
    ]);
    expect(result.blocked?.reason).toContain("guard.sh");
  });

  it("keeps the first continue: false and its stopReason", () => {
    const result = aggregateHookResults("PostToolUse", [
      run(ok({ continue: false, stopReason: "build broke" })),
      run(ok({ continue: false, stopReason: "later" })),
    ]);
    expect(result.stop).toEqual({ reason: "build broke" });
  });

  it("warns about hookSpecificOutput for another event and ignores it", () => {
    const result = aggregateHookResults("PreToolUse", [
      run(
        ok({
          hookSpecificOutput: {
            hookEventName: "PostToolUse",
            permissionDecision: "deny",
            additionalContext: "x",
          },
        }),
      ),
    ]);
    expect(result.blocked).toBeUndefined();
    expect(result.additionalContext).toEqual([]);
    expect(result.warnings).toHaveLength(1);
  });

  it("takes the first updatedInput for PreToolUse", () => {
    const result = aggregateHookResults("PreToolUse", [
      run(ok({ hookSpecificOutput: { updatedInput: { command: "ls -la" } } })),
      run(ok({ hookSpecificOutput: { updatedInput: { command: "rm" } } })),
    ]);
    expect(result.updatedInput).toEqual({ command: "ls -la" });
  });

  it("reports invalid JSON output as a warning, not as context", () => {
    const result = aggregateHookResults("UserPromptSubmit", [
      run({ outcome: "continue", stdout: "{oops", outputError: "hook output is not valid JSON" }),
    ]);
    expect(result.additionalContext).toEqual([]);
    expect(result.warnings[0]).toContain("not valid JSON");
  });

  it("shortens long commands in messages", () => {
    const long = `echo ${"a".repeat(200)}`;
    const result = aggregateHookResults("Stop", [
      run({ outcome: "warning", message: "boom" }, `${long}\nexit 1`),
    ]);
    expect(result.warnings[0]).toMatch(/^Stop hook "echo a{75}…" failed: boom$/);
  });
});
