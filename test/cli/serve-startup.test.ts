import { describe, expect, it } from "vitest";
import { servedModelSource, serveStartupLines } from "../../src/cli/serve-startup.js";

describe("servedModelSource", () => {
  it.each([
    { env: {}, script: "turns.json", want: { kind: "scripted", script: "turns.json" } },
    {
      env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://gw" },
      script: undefined,
      want: { kind: "base-url", url: "http://gw" },
    },
    {
      env: { ANTHROPIC_API_KEY: "k" },
      script: undefined,
      want: { kind: "api", variable: "ANTHROPIC_API_KEY" },
    },
    {
      env: { ANTHROPIC_AUTH_TOKEN: "t" },
      script: undefined,
      want: { kind: "api", variable: "ANTHROPIC_AUTH_TOKEN" },
    },
    { env: { ANTHROPIC_API_KEY: "" }, script: undefined, want: { kind: "none" } },
  ])("$env, --script $script → $want.kind", ({ env, script, want }) => {
    expect(servedModelSource(env, script)).toEqual(want);
  });
});

describe("serveStartupLines", () => {
  const base = {
    url: "http://127.0.0.1:8787",
    webPage: false,
    database: { kind: "postgres" as const, shown: "postgres://…@db/sw" },
    model: { kind: "api" as const, variable: "ANTHROPIC_API_KEY" as const },
    sandbox: "sessions run no code (--sandbox none)",
  };

  it("the listening line first; no page line without the page; the key line only for a made key", () => {
    const lines = serveStartupLines(base);
    expect(lines[0]).toBe("skillwright serve listening on http://127.0.0.1:8787");
    expect(lines.some((l) => l.includes("web page"))).toBe(false);
    expect(lines).toContain(
      "  database:   PostgreSQL at postgres://…@db/sw (shared: several serve processes may use it)",
    );
    expect(lines).toContain("  model:      the Anthropic API (ANTHROPIC_API_KEY)");
    expect(lines.some((l) => l.startsWith("API key"))).toBe(false);
    const made = serveStartupLines({ ...base, madeKey: "sk-sw-x" });
    expect(made.at(-1)).toMatch(/^API key for the default workspace .*: sk-sw-x$/);
  });
});
