// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` references in MCP configs are the subject of these tests.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { INLINE_SOURCE, loadMcpConfigs, parseMcpConfig } from "../../src/mcp/config.js";
import { expandEnv } from "../../src/mcp/expand-env.js";

describe("expandEnv", () => {
  const env = { HOME: "/home/u", EMPTY: "", PORT: "8080" };
  it.each([
    ["${HOME}/bin", "/home/u/bin", []],
    ["${MISSING:-fallback}", "fallback", []],
    ["${MISSING:-}", "", []],
    ["${EMPTY:-x}", "", []],
    ["${PORT:-1}", "8080", []],
    ["${MISSING}", "${MISSING}", ["MISSING"]],
    ["${MISSING}-${MISSING}-${OTHER}", "${MISSING}-${MISSING}-${OTHER}", ["MISSING", "OTHER"]],
    ["$HOME and ${ HOME }", "$HOME and ${ HOME }", []],
    ["http://h:${PORT}/x?a=${HOME}", "http://h:8080/x?a=/home/u", []],
  ])("%s", (input, text, missing) => {
    expect(expandEnv(input, env)).toEqual({ text, missing });
  });
});

describe("parseMcpConfig", () => {
  const env = { TOKEN: "t0k", BIN: "/opt/bin" };
  const parse = (value: unknown) =>
    parseMcpConfig(typeof value === "string" ? value : JSON.stringify(value), {
      source: "/p/.mcp.json",
      env,
    });
  const codes = async (value: unknown) => (await parse(value)).diagnostics.map((d) => [d.severity, d.code]);

  it.each([
    [
      "stdio with expansion everywhere",
      {
        mcpServers: {
          s: { command: "${BIN}/srv", args: ["--token", "${TOKEN}"], env: { K: "${TOKEN}" }, cwd: "${BIN}" },
        },
      },
      { s: { command: "/opt/bin/srv", args: ["--token", "t0k"], env: { K: "t0k" }, cwd: "/opt/bin" } },
    ],
    [
      "explicit stdio type",
      { mcpServers: { s: { type: "stdio", command: "srv" } } },
      { s: { type: "stdio", command: "srv" } },
    ],
    [
      "http with headers",
      { mcpServers: { h: { type: "http", url: "https://x.test/mcp", headers: { A: "Bearer ${TOKEN}" } } } },
      { h: { type: "http", url: "https://x.test/mcp", headers: { A: "Bearer t0k" } } },
    ],
    [
      "sse",
      { mcpServers: { e: { type: "sse", url: "http://x.test/sse" } } },
      { e: { type: "sse", url: "http://x.test/sse" } },
    ],
    [
      "unknown keys are dropped",
      { mcpServers: { s: { command: "srv", extra: 1 } } },
      { s: { command: "srv" } },
    ],
  ])("%s", async (_name, input, servers) => {
    expect(await parse(input)).toEqual({ servers, diagnostics: [] });
  });

  it.each([
    ["not JSON", "{ mcpServers: ", [["error", "settings-invalid"]]],
    ["no mcpServers", { servers: {} }, [["error", "settings-invalid"]]],
    ["mcpServers is a list", { mcpServers: [] }, [["error", "settings-invalid"]]],
    ["entry not an object", { mcpServers: { s: "srv" } }, [["error", "settings-invalid"]]],
    ["no command", { mcpServers: { s: { args: [] } } }, [["error", "settings-invalid"]]],
    ["empty command", { mcpServers: { s: { command: "" } } }, [["error", "settings-invalid"]]],
    ["args not strings", { mcpServers: { s: { command: "x", args: [1] } } }, [["error", "settings-invalid"]]],
    ["unknown type", { mcpServers: { s: { type: "ws", url: "ws://x" } } }, [["error", "settings-invalid"]]],
    ["http without url", { mcpServers: { s: { type: "http" } } }, [["error", "settings-invalid"]]],
    ["bad url", { mcpServers: { s: { type: "http", url: "not a url" } } }, [["error", "settings-invalid"]]],
    [
      "file url",
      { mcpServers: { s: { type: "sse", url: "file:///etc/passwd" } } },
      [["error", "settings-invalid"]],
    ],
    ["reserved name", '{"mcpServers":{"__proto__":{"command":"x"}}}', [["error", "settings-invalid"]]],
  ])("%s is an error and the entry is left out", async (_name, input, expected) => {
    expect((await parse(input)).servers).toEqual({});
    expect(await codes(input)).toEqual(expected);
  });

  it("one bad entry does not drop the others", async () => {
    const result = await parse({ mcpServers: { bad: { command: 3 }, good: { command: "srv" } } });
    expect(result.servers).toEqual({ good: { command: "srv" } });
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]?.message).toMatch(/^MCP server "bad": command/);
    expect(result.diagnostics[0]?.path).toBe("/p/.mcp.json");
  });

  it("an unset variable is a warning and the server still loads", async () => {
    const result = await parse({ mcpServers: { s: { command: "srv", env: { K: "${NOPE}" } } } });
    expect(result.servers).toEqual({ s: { command: "srv", env: { K: "${NOPE}" } } });
    expect(await codes({ mcpServers: { s: { command: "srv", env: { K: "${NOPE}" } } } })).toEqual([
      ["warning", "settings-invalid"],
    ]);
    expect(result.diagnostics[0]?.message).toContain("${NOPE} is not set");
  });
});

describe("loadMcpConfigs", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-mcp-config-"));
    await writeFile(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: { command: "from-file" } } }));
    await writeFile(join(dir, "broken.json"), "{");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads files and inline JSON; the first of a name wins and the other is shadowed", async () => {
    const inline = JSON.stringify({ mcpServers: { a: { command: "inline" }, b: { command: "b" } } });
    const result = await loadMcpConfigs({
      fs: createNodeFs(),
      files: [inline, ".mcp.json"],
      env: {},
      cwd: dir,
    });
    expect(result.servers).toEqual({ a: { command: "inline" }, b: { command: "b" } });
    expect(result.sources).toEqual({ a: INLINE_SOURCE, b: INLINE_SOURCE });
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([["shadowed", join(dir, ".mcp.json")]]);
  });

  it("a missing optional file is silent, a missing required one or bad JSON is an error", async () => {
    const result = await loadMcpConfigs({
      fs: createNodeFs(),
      files: [
        { path: join(dir, "none.json"), optional: true },
        join(dir, "gone.json"),
        join(dir, "broken.json"),
      ],
      env: {},
    });
    expect(result.servers).toEqual({});
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.path])).toEqual([
      ["error", "settings-invalid", join(dir, "gone.json")],
      ["error", "settings-invalid", join(dir, "broken.json")],
    ]);
  });
});
