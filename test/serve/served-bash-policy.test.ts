import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { sayAndRead } from "../support/session-stream.js";

// Issue #40: a served session's Bash (serve's default, simulated tier) is governed by the agent toolset's
// `bash` config like any agent tool: `enabled: false` leaves it out, `always_ask` holds the call for the user.

let app: ServedApp;

beforeAll(async () => {
  app = await startServedApp({
    modelTurns: [
      toolTurn("Bash", { command: "echo $((6 * 7))" }, { match: { lastUserTextIncludes: "compute" } }),
      textTurn("Computed.", { hasToolResultFor: "Bash", toolResultIncludes: "42" }),
      textTurn("Listed.", { lastUserTextIncludes: "list tools" }),
    ],
  });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** A session of an agent whose toolset configures `bash` as `config` says. */
async function session(config: Record<string, unknown>): Promise<string> {
  const client = app.client();
  const environment = await client.beta.environments.create({ name: `e-${Math.random()}` });
  const agent = await client.beta.agents.create({
    name: "basher",
    model: "claude-sonnet-5-5",
    tools: [{ type: "agent_toolset_20260401", configs: [{ name: "bash", ...config }] }],
  });
  return (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
}

describe("the served Bash tool under the agent toolset's bash config", () => {
  it("is left out with enabled: false", async () => {
    await sayAndRead(app.client(), await session({ enabled: false }), "list tools");
    const body = app.model?.requests.at(-1)?.body as { tools?: { name: string }[] };
    const tools = (body.tools ?? []).map((t) => t.name);
    expect(tools).toContain("Read");
    expect(tools).not.toContain("Bash");
  }, 120_000);

  it("waits for the user under always_ask, and runs in the sandbox once allowed", async () => {
    const client = app.client();
    const id = await session({ permission_policy: { type: "always_ask" } });
    const asked = await sayAndRead(client, id, "compute");
    const use = asked.find((e) => e.type === "agent.tool_use");
    expect(use).toMatchObject({ name: "Bash", evaluated_permission: "ask" });
    expect(asked.at(-1)).toMatchObject({ stop_reason: { type: "requires_action" } });
    const stream = await client.beta.sessions.events.stream(id);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: use?.id ?? "", result: "allow" }],
    });
    const after: string[] = [];
    for (let next = await events.next(); next.done !== true; next = await events.next()) {
      after.push(JSON.stringify(next.value));
      if (next.value.type === "session.status_idle" && next.value.stop_reason.type === "end_turn") break;
    }
    stream.controller.abort();
    expect(after.join("\n")).toContain("42");
    expect(after.join("\n")).toContain("Computed.");
  }, 120_000);
});
