// `serve --script turns.json`: sessions answer from a scripted model server started in the serve process, so a
// chat works offline in one command (the README's serve quick start); a bad script exits 2 before listening.
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../cli/run-cli.js";
import { attr, spansOf, startReceiver } from "../support/otlp-receiver.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

const SCRIPT = {
  turns: [
    {
      match: { hasToolResultFor: "Skill" },
      response: { content: [{ type: "text", text: "scripted: done" }] },
    },
    { response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "hello" } }] } },
  ],
};
const SKILL = "---\ndescription: Says hello. Use when greeted.\n---\nSay hello.\n";

/** Uploads the hello skill, makes an agent with it and a session, and sends "hi" (key `k`). */
async function sayHi(url: string) {
  const client = sdkClient(url, "k");
  const skill = await client.beta.skills.create({
    files: [new File([SKILL], "hello/SKILL.md", { type: "text/markdown" })],
  });
  const environment = await client.beta.environments.create({ name: "e" });
  const agent = await client.beta.agents.create({
    name: "a",
    model: "claude-sonnet-5-5",
    skills: [{ type: "custom", skill_id: skill.id }],
  });
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  await client.beta.sessions.events.send(session.id, {
    events: [{ type: "user.message", content: [{ type: "text", text: "hi" }] }],
  });
  return { client, session };
}

let tree: TmpTree | undefined;
let served: ServeProcess | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
  await tree?.cleanup();
  tree = undefined;
});

describe("serve --script", () => {
  it("exports each served turn's spans over OTLP when telemetry is on, and counters at the interval asked (issues #31, #45)", async () => {
    tree = await tmpTree({ "home/.keep": "", "turns.json": JSON.stringify(SCRIPT) });
    const receiver = await startReceiver();
    try {
      served = await startServe(
        ["--api-key", "k", "--script", "turns.json"],
        {
          HOME: tree.path("home"),
          SKILLWRIGHT_ENABLE_TELEMETRY: "1",
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          // Counters every second instead of every minute (issue #45 item 4).
          OTEL_METRIC_EXPORT_INTERVAL: "1000",
        },
        tree.path(),
      );
      const { client, session } = await sayHi(served.url);
      await expect
        .poll(
          async () => {
            const types = [];
            for await (const event of client.beta.sessions.events.list(session.id)) types.push(event.type);
            return types.includes("session.status_idle") && types.includes("agent.message");
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      // While it runs, the counters go out at OTEL_METRIC_EXPORT_INTERVAL: two exports holding the invocation
      // come within seconds (at the default interval the second would take two minutes, past this test's limit).
      await expect
        .poll(
          () =>
            receiver.exports.filter(
              (e) => e.path === "/v1/metrics" && e.body.includes("skillwright.skill.invocations"),
            ).length,
          { timeout: 60_000 },
        )
        .toBeGreaterThanOrEqual(2);
      // Stopping the server flushes what its telemetry buffered.
      await served.stop();
      served = undefined;
      const spans = spansOf(receiver.exports);
      const turn = spans.find((s) => s.name === "skillwright.turn");
      const invocation = spans.find((s) => s.name === "skillwright.skill_invocation");
      expect(attr(invocation, "skill.name")).toBe("hello");
      expect(attr(invocation, "skill.trigger")).toBe("model");
      expect(invocation?.parentSpanId).toBe(turn?.spanId);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("runs a session's turn against the script, with no API key in the environment", async () => {
    tree = await tmpTree({ "home/.keep": "", "turns.json": JSON.stringify(SCRIPT) });
    served = await startServe(
      ["--api-key", "k", "--script", "turns.json"],
      { HOME: tree.path("home") },
      tree.path(),
    );
    // Printed after the `listening on` line that startServe waits for: it may arrive a moment later.
    const started = served;
    await expect.poll(() => started.stdout()).toContain("scripted model of turns.json");
    const { client, session } = await sayHi(served.url);
    await expect
      .poll(
        async () => {
          const events = [];
          for await (const event of client.beta.sessions.events.list(session.id)) events.push(event);
          return events.flatMap((e) =>
            e.type === "agent.message" ? e.content.map((c) => ("text" in c ? c.text : c.type)) : [],
          );
        },
        { timeout: 60_000 },
      )
      .toEqual(["scripted: done"]);
  }, 120_000);

  it("exits 2 naming the file and the problem when the script is invalid, before listening", async () => {
    tree = await tmpTree({ "home/repo/.keep": "", "home/repo/turns.json": '{"turns": [{"nope": 1}]}' });
    const result = await cli(tree, ["serve", "--port", "0", "--script", "turns.json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("turns.json is invalid");
    expect(result.stdout).not.toContain("listening");
  }, 60_000);
});
