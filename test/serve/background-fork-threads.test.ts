import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { openPgliteDriver } from "../../src/serve/store/pglite-driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import type { RequestBody } from "../support/harness.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, type StreamEvent, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// A served session's background fork (issue #27 item 7): the Skill call answers with a handle at once, the fork
// is a child thread the SDK client sees (`session.thread_*`, its events tagged `session_thread_id`), and the
// served turn waits for it, so the agent answers once more with the fork's answer before the session goes idle.

let tree: TmpTree;
let model: ModelServer;
let store: Store;
let served: ServedApp;
let client: Anthropic;

beforeAll(async () => {
  tree = await tmpTree({ ".keep": "" });
  await freshPgliteDir(tree.path("data"));
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Skill",
          { skill: "survey" },
          { match: { agentId: null, lastUserTextIncludes: "go survey" } },
        ),
        textTurn("BG-ANSWER 7", { agentId: "*", lastUserTextIncludes: "SURVEY-BODY" }),
        // The answer is in the first main request made after it was ready: the one after the handle, or a
        // request of its own once the turn's answer was in.
        textTurn("Thanks: got it.", { agentId: null, lastUserTextIncludes: "BG-ANSWER" }),
        textTurn("Started.", { agentId: null, hasToolResultFor: "Skill", toolResultIncludes: '"survey"' }),
        toolTurn("Skill", { skill: "watch" }, { match: { agentId: null, lastUserTextIncludes: "go watch" } }),
        {
          match: { agentId: "*", lastUserTextIncludes: "WATCH-BODY" },
          response: { content: [{ type: "text", text: "never" }] },
          fault: { kind: "stall", afterEvents: 0 },
        },
        textTurn("Watching.", { agentId: null, hasToolResultFor: "Skill", toolResultIncludes: '"watch"' }),
      ],
    },
  });
  store = await createStore(await openPgliteDriver(tree.path("data")));
  served = await startServedApp({
    store,
    runner: { client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }) },
  });
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
  await store?.close();
  await model?.close();
  await tree?.cleanup();
});

const threadOf = (e: StreamEvent) => ("session_thread_id" in e ? e.session_thread_id : undefined);

const skillFile = async (name: string, body: string) =>
  toFile(
    Buffer.from(
      `---\nname: ${name}\ndescription: Runs ${name}\ncontext: fork\nbackground: true\n---\n${body}\n`,
    ),
    `${name}/SKILL.md`,
  );
let sessionId: string;

describe("a background fork in a served session", () => {
  it("streams as a child thread, and the turn ends with the agent's answer to the fork's answer", async () => {
    const survey = await client.beta.skills.create({ files: [await skillFile("survey", "SURVEY-BODY")] });
    const watch = await client.beta.skills.create({ files: [await skillFile("watch", "WATCH-BODY")] });
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: [
        { type: "custom", skill_id: survey.id },
        { type: "custom", skill_id: watch.id },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    sessionId = session.id;
    const stream = await client.beta.sessions.events.stream(session.id);
    let events: StreamEvent[];
    try {
      await client.beta.sessions.events.send(session.id, userMessage("go survey"));
      events = await readUntil(stream[Symbol.asyncIterator](), (e) => e.type === "session.status_idle");
    } finally {
      stream.controller.abort();
    }

    // The Skill call's result is the handle.
    const result = events.find((e) => e.type === "agent.tool_result" && threadOf(e) === undefined);
    expect(JSON.stringify(result)).toContain('Skill \\"survey\\" started in the background');

    const created = events.find((e) => e.type === "session.thread_created");
    expect(created).toMatchObject({ agent_name: "survey" });
    const forkId = String(threadOf(created as StreamEvent));
    expect(events.filter((e) => threadOf(e) === forkId).map((e) => e.type)).toEqual([
      "session.thread_created",
      "session.thread_status_running",
      "span.model_request_start",
      "agent.message",
      "span.model_request_end",
      "session.thread_status_idle",
    ]);
    // The main thread's last message answers the fork's answer; the session then goes idle, done.
    const mainMessages = events.flatMap((e) =>
      e.type === "agent.message" && threadOf(e) === undefined ? [e.content] : [],
    );
    expect(mainMessages.at(-1)).toEqual([{ type: "text", text: "Thanks: got it." }]);
    expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });

    // The answer reached the model once, in a reminder naming the fork's handle.
    const main = model.requests.filter((r) => r.path === "/v1/messages" && r.agentId === undefined);
    const last = main.at(-1)?.body as RequestBody;
    const texts = last.messages
      .filter((m) => m.role === "user")
      .flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.map((b) => b.text ?? "")));
    expect(texts.filter((t) => t.includes("BG-ANSWER 7"))).toHaveLength(1);
    expect(texts.find((t) => t.includes("BG-ANSWER 7"))).toMatch(
      /^<system-reminder>The background fork fork-1-\w+ finished\.\n\nSkill "survey" completed/,
    );
  });

  it("an interrupt while the turn waits on a background fork ends the fork's thread and the turn", async () => {
    const stream = await client.beta.sessions.events.stream(sessionId);
    const events = stream[Symbol.asyncIterator]();
    try {
      await client.beta.sessions.events.send(sessionId, userMessage("go watch"));
      // The agent answered the handle; the fork's request is held: the turn now waits on the fork.
      const before = await readUntil(
        events,
        (e) =>
          e.type === "agent.message" &&
          threadOf(e) === undefined &&
          JSON.stringify(e.content).includes("Watching."),
      );
      const created = before.find((e) => e.type === "session.thread_created");
      expect(created).toMatchObject({ agent_name: "watch" });
      const forkId = threadOf(created as StreamEvent);
      await client.beta.sessions.events.send(sessionId, { events: [{ type: "user.interrupt" }] });
      const after = await readUntil(events, (e) => e.type === "session.status_idle");
      expect(after.filter((e) => threadOf(e) === forkId).map((e) => e.type)).toContain(
        "session.thread_status_terminated",
      );
      // The fork's answer never reached the model: the turn ended without another main request.
      expect(after.some((e) => e.type === "agent.message")).toBe(false);
    } finally {
      stream.controller.abort();
    }
  });
});
