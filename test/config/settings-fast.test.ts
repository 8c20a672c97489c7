import { describe, expect, it } from "vitest";
import { mergeSettings, parseSettings } from "../../src/config/settings.js";
import { readSettingsFast } from "../../src/config/settings-fast.js";
import { type Settings, settingsSchema } from "../../src/config/settings-schema.js";

/** A small seeded PRNG (mulberry32): the same files every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  1,
  0.5,
  1.5,
  2 ** 60,
  Number.MAX_SAFE_INTEGER,
  Number.POSITIVE_INFINITY,
  JSON.parse("1e400"), // what a settings file holding 1e400 parses to: Infinity
  "",
  "x",
  [],
  ["a"],
  ["a", 1],
  {},
  { a: "b" },
  { a: true },
  { a: 1 },
];

function generate(next: () => number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const strings = () => Array.from({ length: Math.floor(next() * 3) }, (_, i) => `Bash(cmd${i}:*)`);
  const valid: Record<string, () => unknown> = {
    permissions: () => ({
      ...(next() < 0.5 ? { allow: strings() } : {}),
      ...(next() < 0.2 ? { other: 1 } : {}),
      ...(next() < 0.5 ? { deny: strings() } : {}),
      ...(next() < 0.2 ? { defaultMode: "acceptEdits" } : {}),
      ...(next() < 0.2 ? { additionalDirectories: ["../x"] } : {}),
      ...(next() < 0.2 ? { ask: strings() } : {}),
    }),
    hooks: () => ({ PreToolUse: [{ matcher: "Bash", hooks: [] }] }),
    env: () => ({ A: "1", B: "two" }),
    enabledPlugins: () => ({ "p@m": true, "q@m": false }),
    skillListingBudget: () => pick([0, 1, 8000]),
    skillListingBudgetFraction: () => pick([0.01, 1, 0.5]),
    skillListingMaxDescChars: () => pick([1, 1536]),
    model: () => "claude-sonnet-4-5",
    skillModelSwitch: () => next() < 0.5,
    skillContext: () =>
      next() < 0.5 ? { expireAfterUserTurns: pick([0, 2]) } : { maxTokens: pick([1, 20000]), other: true },
    enableProjectHooks: () => next() < 0.5,
    enableProjectPermissions: () => next() < 0.5,
    enabledMcpjsonServers: () => ["a"],
    disabledMcpjsonServers: () => [],
    enableAllProjectMcpServers: () => true,
    skills: () => (next() < 0.5 ? { disabled: ["plugin:*"] } : { disabled: [], extra: { n: 1 } }),
    sandbox: () => ({
      ...(next() < 0.5 ? { enabled: next() < 0.5 } : {}),
      ...(next() < 0.2 ? { other: 1 } : {}),
      ...(next() < 0.3 ? { excludedCommands: pick([["git"], [], [1]]) } : {}),
      ...(next() < 0.3 ? { autoAllowBashIfSandboxed: pick([true, false, "yes"]) } : {}),
      ...(next() < 0.3
        ? { network: pick([{ allowedDomains: ["a.com"] }, { allowLocalBinding: 1 }, { extra: true }, []]) }
        : {}),
      ...(next() < 0.3
        ? { filesystem: pick([{ denyRead: ["~/.ssh"], allowWrite: ["/x"] }, { denyWrite: "x" }, {}]) }
        : {}),
    }),
    unknownKey: () => ({ nested: [1, 2] }),
    $schema: () => "https://json.schemastore.org/claude-code-settings.json",
  };
  const keys = Object.keys(valid);
  const out: Record<string, unknown> = {};
  const count = Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const key = pick(keys);
    const make = valid[key];
    out[key] = next() < 0.15 || make === undefined ? pick(ODD_VALUES) : make();
  }
  return out;
}

describe("readSettingsFast (settings read without zod)", () => {
  it("returns exactly what the zod schema returns, key order included, or declines: 20,000 generated files", () => {
    const next = rng(0x5e77);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const file = generate(next);
      const fast = readSettingsFast(structuredClone(file));
      const zod = settingsSchema().safeParse(structuredClone(file));
      if (fast === undefined) continue;
      accepted += 1;
      expect(zod.success, JSON.stringify(file)).toBe(true);
      expect(JSON.stringify(fast), JSON.stringify(file)).toBe(JSON.stringify(zod.data));
    }
    // Most generated files are valid: the fast path must take them, or it saves nothing.
    expect(accepted).toBeGreaterThan(5_000);
  });

  it("reads a typical user file and declines invalid values, leaving them to zod's warnings", () => {
    const typical = {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      permissions: { allow: ["Bash(npm run test:*)", "Read(~/.zshrc)"], deny: ["Bash(curl:*)"] },
      env: { CLAUDE_CODE_ENABLE_TELEMETRY: "1" },
      model: "opus",
      enabledPlugins: { "formatter@acme": true },
      hooks: { PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "prettier" }] }] },
    };
    expect(readSettingsFast(typical)).toEqual(typical);
    expect(readSettingsFast({ env: { A: 1 } })).toBeUndefined();
    expect(readSettingsFast({ skillListingBudget: -1 })).toBeUndefined();
    expect(readSettingsFast({ permissions: { allow: "Bash" } })).toBeUndefined();
    expect(readSettingsFast([])).toBeUndefined();
  });
});

describe("mergeSettings (checked with the zod-free reader)", () => {
  it("keeps every key of valid layers (fast or zod-repaired), as the zod parse of the merge does: 2,000 merges", async () => {
    const next = rng(0x3e76e);
    for (let i = 0; i < 2_000; i++) {
      const layers: Settings[] = [];
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
        const parsed = await parseSettings(generate(next), "/f");
        if (parsed.settings !== undefined) layers.push(parsed.settings);
      }
      const merged = mergeSettings(layers);
      const keys = new Set(layers.flatMap((layer) => Object.keys(layer)));
      expect(new Set(Object.keys(merged)), JSON.stringify(layers)).toEqual(keys);
      expect(JSON.stringify(settingsSchema().parse(merged))).toBe(JSON.stringify(merged));
    }
  });
});
