// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { describe, expect, it } from "vitest";
import { checkMcpServers, mcpTransport } from "../../src/plugins/mcp-shape.js";

describe("checkMcpServers", () => {
  it.each([
    ["stdio", { command: "node", args: ["s.mjs"], env: { A: "1" }, cwd: "/x" }],
    ["explicit stdio", { type: "stdio", command: "npx" }],
    ["http", { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer x" } }],
    ["sse", { type: "sse", url: "http://127.0.0.1:3000/sse" }],
    ["a URL with placeholders", { type: "http", url: "${BASE_URL}/mcp" }],
    ["extra keys", { command: "x", timeout: 5 }],
  ])("accepts %s", (_label, config) => {
    expect(checkMcpServers({ s: config })).toEqual([]);
  });

  it.each([
    ["neither command nor type", { url: "https://x" }, "needs a `command`"],
    ["an unknown type", { type: "ws", url: "wss://x" }, '"ws" is not supported'],
    ["an empty command", { command: "" }, "command is empty"],
    ["args that are not strings", { command: "x", args: [1] }, "args.0"],
    ["env values that are not strings", { command: "x", env: { A: 1 } }, "env.A"],
    ["http without url", { type: "http" }, "url"],
    ["a bad url", { type: "http", url: "not a url" }, "not a valid URL"],
    ["a url that is not http", { type: "sse", url: "ftp://x/sse" }, "must use http or https"],
    ["not an object", "node server.js", "needs a `command`"],
  ])("reports %s", (_label, config, text) => {
    const diagnostics = checkMcpServers({ broken: config }, "/p");
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: "error", code: "plugin-invalid", path: "/p" });
    expect(diagnostics[0]?.message).toContain('"broken"');
    expect(diagnostics[0]?.message).toContain(text);
  });
});

describe("mcpTransport", () => {
  it.each([
    [{ command: "x" }, "stdio"],
    [{ type: "stdio", command: "x" }, "stdio"],
    [{ type: "http", url: "u" }, "http"],
    [{ type: "sse", url: "u" }, "sse"],
    [{ type: "ws" }, undefined],
    [{ url: "u" }, undefined],
    [null, undefined],
  ])("%j → %s", (config, expected) => {
    expect(mcpTransport(config)).toBe(expected);
  });
});
