import { describe, expect, it } from "vitest";
import { createHookRegistry } from "../../src/hooks/registry.js";
import { hookTarget } from "../../src/hooks/schema.js";
import { buildSnapshot, removedTools, type SnapshotInput } from "../../src/session/session-snapshot.js";
import { applySnapshotHooks } from "../../src/session/snapshot-hooks.js";
import { NO_SKILL_FILTER } from "../../src/skill-filter.js";

const hook = (command: string) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" as const, command }] }],
});

function input(over: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    settingsRules: { allow: ["Read"], deny: ["Bash(rm:*)"], ask: ["Write"] },
    additionalDirectories: ["/extra"],
    host: {},
    settingsHooks: undefined,
    plugins: [],
    agents: [],
    templates: [],
    filter: NO_SKILL_FILTER,
    model: undefined,
    listing: {},
    diagnostics: [],
    ...over,
  };
}

describe("buildSnapshot", () => {
  it("merges the host's rules after the settings'; every disallowedTools entry, bare names too, is a deny rule", () => {
    const snapshot = buildSnapshot(
      input({
        host: { allowedTools: ["Skill"], askRules: ["Edit"], disallowedTools: ["Bash", "Write(/etc/**)"] },
      }),
    );
    expect(snapshot.rules).toEqual({
      allow: ["Read", "Skill"],
      deny: ["Bash(rm:*)", "Bash", "Write(/etc/**)"],
      ask: ["Write", "Edit"],
      additionalDirectories: ["/extra"],
    });
    expect([...removedTools({ disallowedTools: ["Bash", "Write(/etc/**)"] })]).toEqual(["Bash"]);
  });

  it("is immutable: the value and its lists are frozen, and the input's lists are copied", () => {
    const agents: SnapshotInput["agents"] = [];
    const snapshot = buildSnapshot(input({ agents }));
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(Object.isFrozen(snapshot.rules)).toBe(true);
    expect(Object.isFrozen(snapshot.agents)).toBe(true);
    expect(snapshot.agents).not.toBe(agents);
  });

  it("lists the settings hooks, then each plugin's; settings hooks that do not parse are diagnostics", () => {
    const snapshot = buildSnapshot(
      input({
        settingsHooks: { PreToolUse: "nope" },
        plugins: [{ name: "p", root: "/plugins/p", hooks: hook("echo p") }],
      }),
    );
    expect(snapshot.hooks.map((h) => h.source)).toEqual([
      { kind: "settings", name: "settings" },
      { kind: "plugin", name: "p", pluginRoot: "/plugins/p" },
    ]);
    expect(snapshot.pluginNames).toEqual(["p"]);
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual(["hooks-invalid"]);
  });
});

describe("applySnapshotHooks", () => {
  it("registers the next snapshot's hooks and removes the plugins only the previous one had", () => {
    const registry = createHookRegistry();
    const first = buildSnapshot(
      input({
        plugins: [
          { name: "a", root: "/a", hooks: hook("echo a") },
          { name: "b", root: "/b", hooks: hook("echo b") },
        ],
      }),
    );
    applySnapshotHooks(registry, undefined, first);
    expect(registry.matching("PreToolUse", { toolName: "Bash" }).map((h) => hookTarget(h.hook))).toEqual([
      "echo a",
      "echo b",
    ]);
    const second = buildSnapshot(input({ plugins: [{ name: "b", root: "/b", hooks: hook("echo b2") }] }));
    applySnapshotHooks(registry, first, second);
    expect(registry.matching("PreToolUse", { toolName: "Bash" }).map((h) => hookTarget(h.hook))).toEqual([
      "echo b2",
    ]);
  });
});
