import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/session/compaction/tokens.js";
import type { SkillContextUsage } from "../../src/session/skill-context/context-usage.js";
import { expiredSkillStub } from "../../src/session/skill-context/expiry.js";
import type { ModelInput } from "../../src/session/skill-context/model-input.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, type StreamEvent, userMessage } from "../support/session-stream.js";

// A served session's context accounting (issue #48 item 3): skillwright's own route reads the session's stored
// transcript with the function `/context`, `stats --session` and `session.contextUsage()` use. An inline skill,
// a fork and an expired expansion, each where the numbers must show it.

let served: ServedApp;
beforeAll(async () => {
  served = await startServedApp({
    modelTurns: [
      textTurn("FORK-REPORT: all fine.", { agentId: "*" }),
      toolTurn("Skill", { skill: "keeper" }, { match: { agentId: null, lastUserTextIncludes: "one" } }),
      toolTurn("Skill", { skill: "forker" }, { match: { agentId: null, hasToolResultFor: "Skill" } }),
      textTurn("turn one done", { agentId: null, hasToolResultFor: "Skill" }),
      toolTurn("Skill", { skill: "expiring" }, { match: { agentId: null, lastUserTextIncludes: "two" } }),
      textTurn("turn two done", { agentId: null, hasToolResultFor: "Skill" }),
      textTurn("turn three done", { agentId: null, lastUserTextIncludes: "three" }),
      textTurn("turn four done", { agentId: null, lastUserTextIncludes: "four" }),
    ],
  });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

const skill = async (name: string, meta: string, body: string) =>
  toFile(
    Buffer.from(`---\nname: ${name}\ndescription: ${name} skill\n${meta}---\n${body}\n`),
    `${name}/SKILL.md`,
  );

describe("GET /v1/skillwright/sessions/:id/context and /model-input", () => {
  it("gives each skill's cost of a served session's context (expansions, forks, expired stubs) and what the model was given", async () => {
    const client = served.client();
    const ids = [];
    for (const [name, meta, body] of [
      ["keeper", "", "KEEPER-BODY keep the changelog tidy."],
      ["forker", "context: fork\n", "FORKER-TASK: look around and report."],
      ["expiring", "ttl-turns: 1\n", "EXPIRING-BODY check the flags twice."],
    ] as const) {
      ids.push((await client.beta.skills.create({ files: [await skill(name, meta, body)] })).id);
    }
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: ids.map((id) => ({ type: "custom" as const, skill_id: id })),
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    for (const prompt of ["one", "two", "three", "four"]) {
      const stream = await client.beta.sessions.events.stream(session.id);
      try {
        await client.beta.sessions.events.send(session.id, userMessage(prompt));
        await readUntil(stream[Symbol.asyncIterator](), (e: StreamEvent) => e.type === "session.status_idle");
      } finally {
        stream.controller.abort();
      }
    }
    const response = await fetch(`${served.url}/v1/skillwright/sessions/${session.id}/context`, {
      headers: { "x-api-key": "k" },
    });
    expect(response.status).toBe(200);
    const usage = (await response.json()) as SkillContextUsage & { session_id: string };
    expect(usage.session_id).toBe(session.id);
    const row = (name: string) => {
      const found = usage.skills.find((s) => s.name === name);
      if (found === undefined) throw new Error(`no row for ${name}: ${JSON.stringify(usage)}`);
      return found;
    };
    expect(row("keeper").expansions).toBeGreaterThanOrEqual(
      estimateTokens("KEEPER-BODY keep the changelog tidy."),
    );
    expect(row("expiring").expansions).toBe(0);
    expect(row("expiring").expiredStubs).toBe(estimateTokens(expiredSkillStub("expiring")));
    expect(row("forker").forks).toBeGreaterThan(0);

    const missing = await fetch(`${served.url}/v1/skillwright/sessions/sesn_nope/context`, {
      headers: { "x-api-key": "k" },
    });
    expect(missing.status).toBe(404);

    // What the model was given, from the same transcript: the listing as sent, each skill's fate, the calls.
    const given = await fetch(`${served.url}/v1/skillwright/sessions/${session.id}/model-input`, {
      headers: { "x-api-key": "k" },
    });
    expect(given.status).toBe(200);
    const input = (await given.json()) as ModelInput & { session_id: string };
    expect(input.session_id).toBe(session.id);
    const mainListing = input.reminders.find((r) => r.kind === "listing" && r.agentId === undefined);
    for (const name of ["keeper", "forker", "expiring"]) expect(mainListing?.text).toContain(`- ${name}: `);
    expect(input.skillEvents.map((e) => [e.kind, e.name])).toEqual([
      ["inline", "keeper"],
      ["fork", "forker"],
      ["inline", "expiring"],
      ["expired", "expiring"],
    ]);
    expect(input.skills.find((s) => s.name === "expiring")?.now).toBe("expired");
    expect(input.skills.find((s) => s.name === "keeper")?.now).toBe("expanded");
    const skillCalls = input.calls.filter((c) => c.name === "Skill");
    expect(skillCalls.map((c) => c.input)).toEqual([
      { skill: "keeper" },
      { skill: "forker" },
      { skill: "expiring" },
    ]);
    expect(skillCalls[1]?.result).toContain("FORK-REPORT: all fine.");
    const other = await fetch(`${served.url}/v1/skillwright/sessions/sesn_nope/model-input`, {
      headers: { "x-api-key": "k" },
    });
    expect(other.status).toBe(404);
  }, 180_000);
});
