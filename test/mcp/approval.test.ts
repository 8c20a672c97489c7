import { describe, expect, it } from "vitest";
import { approveServer, mcpApprovalSettings } from "../../src/mcp/approval.js";

const USER = "/home/u/.claude/settings.json";
const SHARED = "/p/.claude/settings.json";
const LOCAL = "/p/.claude/settings.local.json";
const trusted = [USER, LOCAL];

describe("MCP approval (Claude Code's enabledMcpjsonServers / enableAllProjectMcpServers / disabledMcpjsonServers)", () => {
  it("--mcp-config servers are approved by the user's own act", () => {
    expect(approveServer("a", "cli", mcpApprovalSettings([], trusted))).toEqual({
      state: "approved",
      by: "--mcp-config",
    });
  });

  it("project and plugin servers wait for approval by default", () => {
    const settings = mcpApprovalSettings([], trusted);
    expect(approveServer("a", "project", settings)).toEqual({ state: "pending" });
    expect(approveServer("a", "plugin", settings)).toEqual({ state: "pending" });
  });

  it("enabledMcpjsonServers from user or local settings approves, naming the file", () => {
    const settings = mcpApprovalSettings(
      [
        { path: USER, settings: { enabledMcpjsonServers: ["a"] } },
        { path: LOCAL, settings: { enabledMcpjsonServers: ["b"] } },
      ],
      trusted,
    );
    expect(approveServer("a", "project", settings)).toEqual({ state: "approved", by: USER });
    expect(approveServer("b", "plugin", settings)).toEqual({ state: "approved", by: LOCAL });
  });

  it("a committed project settings file approves nothing", () => {
    const settings = mcpApprovalSettings(
      [{ path: SHARED, settings: { enabledMcpjsonServers: ["a"], enableAllProjectMcpServers: true } }],
      trusted,
    );
    expect(approveServer("a", "project", settings)).toEqual({ state: "pending" });
  });

  it("enableAllProjectMcpServers approves project servers only; a later false turns it off", () => {
    const on = mcpApprovalSettings([{ path: USER, settings: { enableAllProjectMcpServers: true } }], trusted);
    expect(approveServer("a", "project", on)).toEqual({ state: "approved", by: USER });
    expect(approveServer("a", "plugin", on)).toEqual({ state: "pending" });
    const off = mcpApprovalSettings(
      [
        { path: USER, settings: { enableAllProjectMcpServers: true } },
        { path: LOCAL, settings: { enableAllProjectMcpServers: false } },
      ],
      trusted,
    );
    expect(approveServer("a", "project", off)).toEqual({ state: "pending" });
  });

  it("disabledMcpjsonServers wins over every approval, from any settings file", () => {
    const settings = mcpApprovalSettings(
      [
        { path: USER, settings: { enabledMcpjsonServers: ["a"], enableAllProjectMcpServers: true } },
        { path: SHARED, settings: { disabledMcpjsonServers: ["a"] } },
      ],
      trusted,
    );
    expect(approveServer("a", "project", settings)).toEqual({ state: "disabled", by: SHARED });
  });
});
