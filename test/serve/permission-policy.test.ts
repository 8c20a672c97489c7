import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import { describe, expect, it } from "vitest";
import { pendingConfirmations } from "../../src/serve/sessions/confirmation-check.js";
import { createHeldToolUses } from "../../src/serve/sessions/held-tool-uses.js";
import {
  decisionFields,
  policyRules,
  resolveToolPolicy,
  type ToolDecision,
} from "../../src/serve/sessions/permission-policy.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

const ask = { type: "always_ask" } as const;
const allow = { type: "always_allow" } as const;

const tools: BetaManagedAgentsAgent["tools"] = [
  {
    type: "agent_toolset_20260401",
    default_config: { enabled: true, permission_policy: allow },
    configs: [
      { name: "bash", type: "bash", enabled: true, permission_policy: ask },
      { name: "edit", type: "edit", enabled: false, permission_policy: allow },
      { name: "grep", type: "grep", enabled: true, permission_policy: { type: "auto" } },
    ],
  },
  {
    type: "mcp_toolset",
    mcp_server_name: "docs",
    default_config: { enabled: true, permission_policy: ask },
    configs: [{ name: "search", enabled: true, permission_policy: allow }],
  },
  { type: "custom", name: "lookup", description: "d", input_schema: { type: "object" } },
];
const agentToolset = { type: "agent_toolset_20260401" } as const;

describe("resolveToolPolicy", () => {
  it("takes a tool's own config over its toolset's default, for host tools by their lower-case name", () => {
    expect(resolveToolPolicy(tools, "Bash", agentToolset)).toEqual({ enabled: true, policy: "always_ask" });
    expect(resolveToolPolicy(tools, "Write", agentToolset)).toEqual({
      enabled: true,
      policy: "always_allow",
    });
    expect(resolveToolPolicy(tools, "Edit", agentToolset)).toEqual({
      enabled: false,
      policy: "always_allow",
    });
    expect(resolveToolPolicy(tools, "LS", agentToolset)).toEqual({ enabled: true, policy: "always_allow" });
  });

  it("resolves an MCP tool within its own server's toolset only", () => {
    const docs = { type: "mcp_toolset", mcpServerName: "docs" } as const;
    expect(resolveToolPolicy(tools, "search", docs)).toEqual({ enabled: true, policy: "always_allow" });
    expect(resolveToolPolicy(tools, "fetch", docs)).toEqual({ enabled: true, policy: "always_ask" });
    expect(
      resolveToolPolicy(tools, "search", { type: "mcp_toolset", mcpServerName: "wiki" }),
    ).toBeUndefined();
  });

  it("is undefined when the agent configures no such toolset", () => {
    expect(resolveToolPolicy([], "Bash", agentToolset)).toBeUndefined();
  });
});

describe("policyRules", () => {
  it("allows always_allow tools, asks always_ask ones, removes disabled ones, and leaves auto alone", () => {
    const names = ["Bash", "Write", "Edit", "Grep"];
    const policies = new Map(
      names.flatMap((name) => {
        const resolved = resolveToolPolicy(tools, name, agentToolset);
        return resolved === undefined ? [] : [[name, resolved] as const];
      }),
    );
    expect(policyRules(policies)).toEqual({ allow: ["Write"], ask: ["Bash"], removed: ["Edit"] });
  });
});

const event = (id: string, type: string, fields: Record<string, unknown> = {}): SessionEvent => ({
  id,
  type,
  processed_at: "2026-01-01T00:00:00Z",
  ...fields,
});
const requiresAction = (id: string, ids: string[]) =>
  event(id, "session.status_idle", { stop_reason: { type: "requires_action", event_ids: ids } });

describe("pendingConfirmations", () => {
  it("holds the tool uses a requires_action idle names until they are answered or the turn ends", () => {
    const asked = [
      event("u1", "agent.tool_use", { name: "Bash" }),
      requiresAction("i1", ["u1"]),
      event("c1", "agent.custom_tool_use", { name: "lookup" }),
      requiresAction("i2", ["c1"]),
    ];
    expect([...pendingConfirmations(asked)]).toEqual(["u1"]);
    const answered = [
      ...asked,
      event("a1", "user.tool_confirmation", { tool_use_id: "u1", result: "allow" }),
    ];
    expect([...pendingConfirmations(answered)]).toEqual([]);
    const ended = [...asked, event("i3", "session.status_idle", { stop_reason: { type: "end_turn" } })];
    expect([...pendingConfirmations(ended)]).toEqual([]);
  });
});

describe("decisionFields", () => {
  const allow: ToolDecision = { behavior: "allow" };
  it("names the policy that produced the decision, or auto with the judgement", () => {
    expect(decisionFields({ enabled: true, policy: "always_allow" }, allow)).toEqual({
      evaluated_permission: "allow",
      evaluation: { type: "always_allow" },
    });
    expect(decisionFields({ enabled: true, policy: "always_ask" }, { behavior: "ask" })).toEqual({
      evaluated_permission: "ask",
      evaluation: { type: "always_ask" },
    });
    for (const policy of [{ enabled: true, policy: "auto" as const }, undefined]) {
      expect(decisionFields(policy, { behavior: "deny" })).toEqual({
        evaluated_permission: "deny",
        evaluation: { type: "auto", evaluated_permission: { type: "deny" } },
      });
    }
  });
  it("leaves evaluation out when no policy produced the decision (a refusal, a deny rule)", () => {
    expect(decisionFields(undefined, { behavior: "deny", refused: true })).toEqual({
      evaluated_permission: "deny",
    });
    expect(decisionFields({ enabled: true, policy: "always_allow" }, { behavior: "deny" })).toEqual({
      evaluated_permission: "deny",
    });
  });
});

describe("createHeldToolUses", () => {
  const setup = () => {
    const written: { event: unknown; decision: ToolDecision }[] = [];
    const stored: string[] = [];
    const held = createHeldToolUses({
      write(event, decision) {
        written.push({ event, decision });
        return `ev_${written.length}`;
      },
      stored: (callId, id) => stored.push(`${callId}=${id}`),
    });
    return { held, written, stored };
  };
  const use = { type: "agent.tool_use", name: "Write" };

  it("writes a held use when its decision comes, and the first decision wins", () => {
    const { held, written, stored } = setup();
    held.hold("a", use);
    expect(written).toEqual([]);
    held.decide("a", { behavior: "ask" });
    held.decide("a", { behavior: "allow" });
    expect(written).toEqual([{ event: use, decision: { behavior: "ask" } }]);
    expect(stored).toEqual(["a=ev_1"]);
  });
  it("takes a decision that comes before the use, and writes a use still held at its end as deny", () => {
    const { held, written } = setup();
    held.decide("b", { behavior: "ask" });
    held.hold("b", use);
    held.hold("c", use);
    held.end("c");
    held.end("b");
    expect(written.map((w) => w.decision.behavior)).toEqual(["ask", "deny"]);
  });
});
