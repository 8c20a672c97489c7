import { describe, expect, it } from "vitest";
import { MAX_MCP_NAME_LENGTH, mcpName, sanitizeServerName, uniqueMcpNames } from "../../src/mcp/names.js";
import { TOOL_NAME_PATTERN } from "../../src/tools/define-tool.js";

describe("mcpName", () => {
  it.each([
    ["github", "create_issue", "mcp__github__create_issue"],
    ["my.server", "odd.name/tool", "mcp__my_server__odd_name_tool"],
    ["a__b", "x", "mcp__a_b__x"],
    ["srv", "", "mcp__srv___"],
    ["srv", "héllo wörld", "mcp__srv__h_llo_w_rld"],
    ["srv", "lint-rules", "mcp__srv__lint-rules"],
  ])("%s / %s → %s", (server, item, expected) => {
    expect(mcpName(server, item)).toBe(expected);
  });

  it("cuts long names to the limit with a stable hash suffix", () => {
    const long = "x".repeat(100);
    const a = mcpName("srv", `${long}a`);
    const b = mcpName("srv", `${long}b`);
    expect(a).toHaveLength(MAX_MCP_NAME_LENGTH);
    expect(a).toMatch(TOOL_NAME_PATTERN);
    expect(a).not.toBe(b);
    expect(mcpName("srv", `${long}a`)).toBe(a);
  });

  it("server names never hold the separator", () => {
    expect(sanitizeServerName("a..b")).toBe("a_b");
    expect(sanitizeServerName("")).toBe("_");
  });
});

describe("uniqueMcpNames", () => {
  it("keeps the first of a clash and suffixes the others deterministically", () => {
    const requests = [
      { server: "s", item: "a.b" },
      { server: "s", item: "a_b" },
      { server: "s.x", item: "t" },
      { server: "s_x", item: "t" },
      { server: "s", item: "c" },
    ];
    const names = uniqueMcpNames(requests);
    expect(names[0]).toBe("mcp__s__a_b");
    expect(names[1]).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(names[2]).toBe("mcp__s_x__t");
    expect(names[3]).toMatch(/^mcp__s_x__t_[0-9a-f]{8}$/);
    expect(names[4]).toBe("mcp__s__c");
    expect(new Set(names).size).toBe(names.length);
    expect(uniqueMcpNames(requests)).toEqual(names);
  });
});
