import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../src/hooks/hook-events.js";
import { parseHookStdout, parseHooksConfig, parseHooksFile } from "../../src/hooks/schema.js";

const hook = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

describe("parseHooksConfig", () => {
  it("accepts every event and keeps matcher, timeout and once", () => {
    const raw = Object.fromEntries(
      HOOK_EVENTS.map((event) => [
        event,
        [{ matcher: "*", hooks: [hook(`echo ${event}`, { timeout: 5, once: true })] }],
      ]),
    );
    const { config, diagnostics } = parseHooksConfig(raw);
    expect(diagnostics).toEqual([]);
    expect(Object.keys(config)).toEqual([...HOOK_EVENTS]);
    expect(config.Stop).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: "echo Stop", timeout: 5, once: true }] },
    ]);
  });

  it.each([undefined, null])("gives an empty config for %j", (raw) => {
    expect(parseHooksConfig(raw)).toEqual({ config: {}, diagnostics: [] });
  });

  it.each([["a string"], [[1, 2]], [42]])("reports a non-object (%j) as an error", (raw) => {
    const { config, diagnostics } = parseHooksConfig(raw, "/p/settings.json");
    expect(config).toEqual({});
    expect(diagnostics).toMatchObject([
      { severity: "error", code: "hooks-invalid", path: "/p/settings.json" },
    ]);
  });

  it("warns (hook-unsupported) about and skips events we do not fire, keeping the rest", () => {
    const { config, diagnostics } = parseHooksConfig({
      TeammateIdle: [{ hooks: [hook("notify")] }],
      PreToolUse: [{ matcher: "Bash", hooks: [hook("check")] }],
    });
    expect(config).toEqual({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "check" }] }],
    });
    expect(diagnostics).toMatchObject([{ severity: "warning", code: "hook-unsupported" }]);
    expect(diagnostics[0]?.message).toContain("TeammateIdle");
  });

  it("skips only the malformed entries, each with an error", () => {
    const { config, diagnostics } = parseHooksConfig({
      Stop: "not a list",
      PreToolUse: [
        "not a group",
        { matcher: 3, hooks: [hook("a")] },
        { matcher: "Bash", hooks: "nope" },
        {
          matcher: "Read",
          hooks: [
            hook("good"),
            hook(""),
            hook("   "),
            { type: "command" },
            hook("neg", { timeout: -1 }),
            hook("o", { once: "yes" }),
          ],
        },
      ],
    });
    expect(config).toEqual({
      PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: "good" }] }],
    });
    expect(diagnostics).toHaveLength(9);
    expect(diagnostics.every((d) => d.code === "hooks-invalid" && d.severity === "error")).toBe(true);
  });

  it("warns (hook-unsupported) about hook types we do not run instead of failing", () => {
    const { config, diagnostics } = parseHooksConfig({
      Stop: [{ hooks: [{ type: "wasm", module: "check.wasm" }, hook("echo ok")] }],
    });
    expect(config).toEqual({ Stop: [{ hooks: [{ type: "command", command: "echo ok" }] }] });
    expect(diagnostics).toMatchObject([{ severity: "warning", code: "hook-unsupported" }]);
    expect(diagnostics[0]?.message).toContain('"wasm"');
  });

  it("reads agent hooks (issue #44)", () => {
    const agent = { type: "agent", prompt: "Is it done? $ARGUMENTS", model: "haiku", timeout: 90 };
    const { config, diagnostics } = parseHooksConfig({ Stop: [{ hooks: [agent] }] });
    expect(diagnostics).toEqual([]);
    expect(config).toEqual({ Stop: [{ hooks: [agent] }] });
  });

  it("reads http and prompt hooks, and async on a command hook", () => {
    const http = {
      type: "http",
      url: "http://hooks.example/check",
      headers: { Authorization: "Bearer $TOKEN" },
      allowedEnvVars: ["TOKEN"],
      timeout: 5,
    };
    const prompt = { type: "prompt", prompt: "Is $ARGUMENTS safe?", model: "claude-haiku-4-5" };
    const { config, diagnostics } = parseHooksConfig({
      PreToolUse: [{ matcher: "Bash", hooks: [http, prompt, hook("log", { async: true })] }],
    });
    expect(diagnostics).toEqual([]);
    expect(config.PreToolUse?.[0]?.hooks).toEqual([
      http,
      prompt,
      { type: "command", command: "log", async: true },
    ]);
  });

  it("errors on an http hook without url and a prompt hook without prompt", () => {
    const { config, diagnostics } = parseHooksConfig({
      Stop: [{ hooks: [{ type: "http" }, { type: "prompt", prompt: " " }] }],
    });
    expect(config).toEqual({});
    expect(diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["error", "hooks-invalid"],
      ["error", "hooks-invalid"],
    ]);
  });

  it("drops groups and events left empty, and reads a null matcher as none", () => {
    const { config } = parseHooksConfig({
      Stop: [{ hooks: [] }],
      PostToolUse: [{ matcher: null, hooks: [hook("fmt")] }],
    });
    expect(config).toEqual({ PostToolUse: [{ hooks: [{ type: "command", command: "fmt" }] }] });
  });

  it("never throws on hostile input", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => parseHooksConfig({ PreToolUse: [cyclic, { hooks: [cyclic] }] })).not.toThrow();
  });
});

describe("parseHooksFile", () => {
  it("unwraps a plugin hooks.json document", () => {
    const { config, diagnostics } = parseHooksFile({
      description: "formatting",
      hooks: { PostToolUse: [{ matcher: "Write", hooks: [hook("fmt")] }] },
    });
    expect(diagnostics).toEqual([]);
    expect(config.PostToolUse?.[0]?.matcher).toBe("Write");
  });

  it("reads a document without `hooks` as the hooks object", () => {
    expect(parseHooksFile({ Stop: [{ hooks: [hook("x")] }] }).config.Stop).toHaveLength(1);
  });
});

describe("parseHookStdout", () => {
  it.each([
    ["", "text"],
    ["hello\n", "text"],
    ["[1,2]", "text"],
    ['{"decision":"block","reason":"no"}', "json"],
    ['  {"continue":false}\n', "json"],
    ['{"decision":', "invalid"],
    ['{"decision":"maybe"}', "invalid"],
    ['{"continue":"no"}', "invalid"],
    ['{"hookSpecificOutput":{"permissionDecision":"sure"}}', "invalid"],
  ])("%j reads as %s", (stdout, kind) => {
    expect(parseHookStdout(stdout).kind).toBe(kind);
  });

  it("keeps unknown keys and the hook-specific fields", () => {
    const parsed = parseHookStdout(
      JSON.stringify({
        suppressOutput: true,
        custom: 1,
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", extra: "x" },
      }),
    );
    expect(parsed).toEqual({
      kind: "json",
      output: {
        suppressOutput: true,
        custom: 1,
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", extra: "x" },
      },
    });
  });
});
