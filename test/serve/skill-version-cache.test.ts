import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// The runner keeps parsed skill versions across turns and sessions; a new version of a skill must still be
// what the next turn of an agent on `latest` runs, on the same instance (the cache is keyed by version id).

const KEY = "sk-skill-cache";

let tree: TmpTree;
let model: ModelServer;
let server: ServeProcess;
let client: Anthropic;

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn("Skill", { skill: "cachey" }, { match: { lastUserTextIncludes: "first use" } }),
        textTurn("saw v1", { hasToolResultFor: "Skill", lastUserTextIncludes: "CACHE-V1" }),
        toolTurn("Skill", { skill: "cachey" }, { match: { lastUserTextIncludes: "second use" } }),
        textTurn("saw v2", { hasToolResultFor: "Skill", lastUserTextIncludes: "CACHE-V2" }),
        textTurn("saw a stale version", { hasToolResultFor: "Skill" }),
      ],
    },
  });
  server = await startServe(["--db", tree.path("data"), "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
  });
  client = sdkClient(server.url, KEY);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

const skillMd = (marker: string) =>
  toFile(
    Buffer.from(`---\nname: cachey\ndescription: Cached skill\n---\n${marker}: follow me.\n`),
    "cachey/SKILL.md",
  );

/** Sends `text` to `sessionId` and returns the turn's agent.message texts. */
async function say(sessionId: string, text: string): Promise<string[]> {
  const stream = await client.beta.sessions.events.stream(sessionId);
  await client.beta.sessions.events.send(sessionId, {
    events: [{ type: "user.message", content: [{ type: "text", text }] }],
  });
  const texts: string[] = [];
  try {
    for await (const event of stream) {
      if (event.type === "agent.message")
        texts.push(event.content.map((b) => (b.type === "text" ? b.text : "")).join(""));
      if (event.type === "session.status_idle") break;
    }
  } finally {
    stream.controller.abort();
  }
  return texts;
}

describe("parsed skill versions cached across turns", () => {
  it("runs a skill's new version on the next turn of the session", async () => {
    const skill = await client.beta.skills.create({ files: [await skillMd("CACHE-V1")] });
    const env = await client.beta.environments.create({ name: "cache-env" });
    const agent = await client.beta.agents.create({
      name: "cacher",
      model: "claude-sonnet-5-5",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    expect(await say(session.id, "first use")).toContain("saw v1");

    await client.beta.skills.versions.create(skill.id, { files: [await skillMd("CACHE-V2")] });
    expect(await say(session.id, "second use")).toContain("saw v2");
  });
});
