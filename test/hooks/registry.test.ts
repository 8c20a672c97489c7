import { describe, expect, it } from "vitest";
import { createHookRegistry, type HookSource, type RegisteredHook } from "../../src/hooks/registry.js";
import type { HooksConfig } from "../../src/hooks/schema.js";
import { hookTarget } from "../../src/hooks/schema.js";

const settings: HookSource = { kind: "settings", name: "/p/.claude/settings.json" };
const deploy: HookSource = { kind: "skill", name: "deploy", skillDir: "/p/.claude/skills/deploy" };
const plugin: HookSource = { kind: "plugin", name: "fmt", pluginRoot: "/plugins/fmt" };

const commands = (hooks: RegisteredHook[]) => hooks.map((h) => hookTarget(h.hook));

const preToolUse = (matcher: string | undefined, ...cmds: string[]): HooksConfig => ({
  PreToolUse: [
    {
      ...(matcher === undefined ? {} : { matcher }),
      hooks: cmds.map((command) => ({ type: "command", command })),
    },
  ],
});

describe("createHookRegistry", () => {
  it("returns matching hooks in registration order", () => {
    const registry = createHookRegistry();
    registry.register(settings, {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: "s1" }] },
        { matcher: "Read", hooks: [{ type: "command", command: "s2" }] },
        { matcher: "*", hooks: [{ type: "command", command: "s3" }] },
      ],
      Stop: [{ hooks: [{ type: "command", command: "stop" }] }],
    });
    registry.register(plugin, preToolUse("Bash|Write", "p1"));
    registry.register(deploy, preToolUse(undefined, "d1"));
    expect(commands(registry.matching("PreToolUse", { toolName: "Bash" }))).toEqual(["s1", "s3", "p1", "d1"]);
    expect(commands(registry.matching("PreToolUse", { toolName: "Read" }))).toEqual(["s2", "s3", "d1"]);
    expect(commands(registry.matching("Stop"))).toEqual(["stop"]);
    expect(registry.matching("PostToolUse", { toolName: "Bash" })).toEqual([]);
  });

  it("ignores matchers when the query has no tool name", () => {
    const registry = createHookRegistry();
    registry.register(settings, preToolUse("Bash", "a"));
    expect(commands(registry.matching("PreToolUse"))).toEqual(["a"]);
  });

  it("matches Skill(name) against the invoked skill", () => {
    const registry = createHookRegistry();
    registry.register(settings, preToolUse("Skill(deploy)", "guard"));
    expect(commands(registry.matching("PreToolUse", { toolName: "Skill", skillName: "deploy" }))).toEqual([
      "guard",
    ]);
    expect(registry.matching("PreToolUse", { toolName: "Skill", skillName: "other" })).toEqual([]);
  });

  it("does not double a skill's hooks when it is registered twice, and keeps its position", () => {
    const registry = createHookRegistry();
    registry.register(deploy, preToolUse(undefined, "d1"));
    registry.register(settings, preToolUse(undefined, "s1"));
    expect(registry.register(deploy, preToolUse(undefined, "d1", "d2"))).toBe(2);
    expect(commands(registry.matching("PreToolUse", { toolName: "Bash" }))).toEqual(["d1", "d2", "s1"]);
    registry.register(deploy, preToolUse(undefined, "d1", "d2"));
    expect(registry.all()).toHaveLength(3);
  });

  it("keeps sources of different kinds with the same name apart", () => {
    const registry = createHookRegistry();
    registry.register({ kind: "skill", name: "x" }, preToolUse(undefined, "a"));
    registry.register({ kind: "plugin", name: "x" }, preToolUse(undefined, "b"));
    expect(commands(registry.all())).toEqual(["a", "b"]);
  });

  it("runs a once hook only until it is marked fired, even across re-registration", () => {
    const registry = createHookRegistry();
    const config: HooksConfig = {
      PreToolUse: [
        {
          hooks: [
            { type: "command", command: "setup", once: true },
            { type: "command", command: "always" },
          ],
        },
      ],
    };
    registry.register(deploy, config);
    const first = registry.matching("PreToolUse", { toolName: "Bash" });
    expect(commands(first)).toEqual(["setup", "always"]);
    expect(commands(registry.matching("PreToolUse", { toolName: "Bash" }))).toEqual(["setup", "always"]);
    registry.markFired(first);
    expect(commands(registry.matching("PreToolUse", { toolName: "Bash" }))).toEqual(["always"]);
    registry.register(deploy, config);
    expect(commands(registry.matching("PreToolUse", { toolName: "Bash" }))).toEqual(["always"]);
  });

  it("tracks once per session: a new registry starts fresh", () => {
    const config: HooksConfig = { Stop: [{ hooks: [{ type: "command", command: "once", once: true }] }] };
    const a = createHookRegistry();
    a.register(deploy, config);
    a.markFired(a.matching("Stop"));
    const b = createHookRegistry();
    b.register(deploy, config);
    expect(a.matching("Stop")).toEqual([]);
    expect(commands(b.matching("Stop"))).toEqual(["once"]);
  });

  it("runs an identical command once per event unless its environment differs", () => {
    const registry = createHookRegistry();
    registry.register(settings, preToolUse(undefined, "lint"));
    registry.register({ kind: "settings", name: "~/.claude/settings.json" }, preToolUse("Bash", "lint"));
    registry.register(plugin, preToolUse(undefined, "lint"));
    const hooks = registry.matching("PreToolUse", { toolName: "Bash" });
    expect(hooks.map((h) => [hookTarget(h.hook), h.source.name])).toEqual([
      ["lint", settings.name],
      ["lint", "fmt"],
    ]);
  });

  it("unregisters a source", () => {
    const registry = createHookRegistry();
    registry.register(plugin, preToolUse(undefined, "p"));
    expect(registry.unregister({ kind: "plugin", name: "fmt" })).toBe(true);
    expect(registry.unregister({ kind: "plugin", name: "fmt" })).toBe(false);
    expect(registry.all()).toEqual([]);
  });

  it("carries the source on each hook", () => {
    const registry = createHookRegistry();
    registry.register(plugin, preToolUse("Write", "p"));
    expect(registry.all()[0]).toMatchObject({ event: "PreToolUse", matcher: "Write", source: plugin });
  });
});
