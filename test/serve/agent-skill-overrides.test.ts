/**
 * `skill_overrides` on a served agent (issue #42 item 1): the shipped bin's `serve`, the official SDK client, and
 * the scripted model server. The agent's overrides act as Claude Code's `skillOverrides`: the served listing and
 * the Skill tool honour them, and the session pins them with the agent's version.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { AgentCreateParams } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { type RequestBody, resultText, textBlocks, toolResults } from "../support/harness.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { readUntil } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

const KEY = "sk-overrides";
let tree: TmpTree;
let model: ModelServer;
let server: ServeProcess;
let client: Anthropic;

const skillCall = (id: string, skill: string) => ({
  type: "tool_use" as const,
  id,
  name: "Skill",
  input: { skill },
});

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        {
          match: { lastUserTextIncludes: "try them" },
          response: {
            content: [
              skillCall("toolu_alpha", "alpha"),
              skillCall("toolu_beta", "beta"),
              skillCall("toolu_gamma", "gamma"),
            ],
          },
        },
        textTurn("Tried.", { hasToolResultFor: "Skill" }),
        { ...textTurn("Hello."), repeat: true },
      ],
    },
  });
  server = await startServe(["--db", await freshPgliteDir(tree.path("data")), "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
    HOME: tree.path("home"),
  });
  client = sdkClient(server.url, KEY);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

async function upload(name: string): Promise<string> {
  const text = `---\nname: ${name}\ndescription: ${name.toUpperCase()}-DESCRIPTION\n---\n${name.toUpperCase()}-BODY\n`;
  const created = await client.beta.skills.create({
    files: [await toFile(Buffer.from(text), `${name}/SKILL.md`)],
  });
  return created.id;
}

describe("skill_overrides on a served agent (dist/bin serve, SDK client)", () => {
  it("the listing and the Skill tool honour the agent's overrides; the session pins them", async () => {
    const ids = await Promise.all(["alpha", "beta", "gamma", "delta"].map(upload));
    // skillwright's own field of an agent: not in the SDK's types, sent as it is.
    const params: AgentCreateParams & { skill_overrides: Record<string, string> } = {
      name: "overridden",
      model: "claude-sonnet-4-6",
      skills: ids.map((id) => ({ type: "custom" as const, skill_id: id })),
      tools: [{ type: "agent_toolset_20260401" }],
      skill_overrides: { alpha: "name-only", beta: "user-invocable-only", "gam*": "off" },
    };
    const agent = await client.beta.agents.create(params);
    expect((agent as { skill_overrides?: unknown }).skill_overrides).toEqual(params.skill_overrides);
    const bad = { ...params, skill_overrides: { alpha: "hidden" } };
    const refused = await client.beta.agents.create(bad).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String(refused)).toMatch(/400/);

    const env = await client.beta.environments.create({ name: "overrides-env" });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    expect((session.agent as { skill_overrides?: unknown }).skill_overrides).toEqual(params.skill_overrides);
    const before = model.requests.length;
    const stream = await client.beta.sessions.events.stream(session.id);
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.message", content: [{ type: "text", text: "try them" }] }],
    });
    await readUntil(
      stream[Symbol.asyncIterator](),
      (e) => e.type === "session.status_idle" && e.stop_reason.type === "end_turn",
    );
    stream.controller.abort();
    const bodies = model.requests.slice(before).map((r) => r.body as RequestBody);
    expect(bodies).toHaveLength(2);

    // The listing: alpha by name only, delta in full, beta and gamma not at all (not even in a note).
    const first = JSON.stringify(bodies[0]);
    const listing = textBlocks(bodies[0]?.messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("\n- alpha\n");
    expect(listing).toContain("- delta: DELTA-DESCRIPTION");
    for (const hidden of ["ALPHA-DESCRIPTION", "beta", "BETA-", "gamma", "GAMMA-"]) {
      expect(first).not.toContain(hidden);
    }

    // The Skill tool: alpha runs (name-only is still invocable), beta is unknown to the model, gamma is off.
    const results = toolResults(bodies[1] as RequestBody);
    const text = (id: string) => {
      const found = results.find((r) => r.tool_use_id === id);
      return found === undefined ? "" : resultText(found);
    };
    expect(text("toolu_alpha")).toBe("Launching skill: alpha");
    expect(JSON.stringify(bodies[1])).toContain("ALPHA-BODY");
    expect(text("toolu_beta")).toContain("Unknown skill: beta");
    expect(text("toolu_gamma")).toContain('skillOverrides "gam*": "off"');
    expect(JSON.stringify(bodies[1])).not.toContain("BETA-BODY");
    expect(JSON.stringify(bodies[1])).not.toContain("GAMMA-BODY");

    // An update replaces the map (null removes it); the session keeps the version it pinned.
    const updated = await client.beta.agents.update(agent.id, {
      version: agent.version,
      skill_overrides: null,
    } as Parameters<typeof client.beta.agents.update>[1]);
    expect((updated as { skill_overrides?: unknown }).skill_overrides).toBeUndefined();
  }, 240_000);
});
