import type Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FsOps } from "../../src/io/fs.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { type StreamEvent, sayAndRead } from "../support/session-stream.js";
import { greetSkillTurns, uploadGreetSkills } from "./greet-skills.js";

// A served session reads nothing from any file system: its skills, rules and agent types come from the store.
// Here the file system the sessions are handed throws on every call, and records it: a Skill call, a lazily read
// reference, a forked skill and a custom tool all work, and nothing touched it.

const touched: string[] = [];
/** An `FsOps` whose every method throws (and is recorded); `host` is unset. */
const throwingFs = new Proxy({} as FsOps, {
  get(_target, property) {
    if (typeof property === "symbol" || property === "host" || property === "then") return undefined;
    return (...args: unknown[]) => {
      touched.push(`${property}(${String(args[0])})`);
      throw new Error(`a served session touched the file system: ${property}`);
    };
  },
});

let served: ServedApp;
let client: Anthropic;

beforeAll(async () => {
  served = await startServedApp({
    modelTurns: [...greetSkillTurns()],
    runner: { fs: throwingFs },
  });
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
});

/** One user turn, read up to its idle. */
const say = (sessionId: string, text: string) => sayAndRead(client, sessionId, text);

describe("a served session's host", () => {
  it("runs skills, references and forks without one call to its file system", async () => {
    const { greet, forky } = await uploadGreetSkills(client);
    const env = await client.beta.environments.create({ name: "throwing-fs" });
    const agent = await client.beta.agents.create({
      name: "helper",
      model: "claude-sonnet-4-6",
      skills: [
        { type: "custom", skill_id: greet.id },
        { type: "custom", skill_id: forky.id },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });

    const greeted = await say(session.id, "greet me");
    expect(greeted.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    const texts = (events: StreamEvent[]) =>
      events.flatMap((e) =>
        e.type === "agent.message" ? e.content.map((c) => ("text" in c ? c.text : "")) : [],
      );
    expect(texts(greeted)).toContain("Greeted.");
    const results = greeted.flatMap((e) => (e.type === "agent.tool_result" ? [e] : []));
    expect(results.map((r) => r.is_error)).toEqual([false, false]);

    const forked = await say(session.id, "run the fork");
    expect(forked.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    expect(texts(forked)).toContain("Fork finished.");
    expect(touched).toEqual([]);
  });
});
