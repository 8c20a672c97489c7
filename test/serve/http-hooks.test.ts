import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { type HookServer, startHookServer } from "../support/hook-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { sayAndRead } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// A served skill's http hooks are the server's own outbound requests: the shipped bin's `serve` applies the
// rule of agents' MCP servers, so a loopback URL is refused unless the operator allowed its host by name
// (`--mcp-allow-host localhost` here: the `localhost` URL reaches the hook server, the `127.0.0.1` one does not).

const KEY = "sk-http-hooks";

let tree: TmpTree;
let model: ModelServer;
let hooks: HookServer;
let server: ServeProcess;

beforeAll(async () => {
  tree = await tmpTree({ ".keep": "" });
  hooks = await startHookServer((_req, res) => res.end(), { anyLoopback: true });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn("Skill", { skill: "guarded" }, { match: { lastUserTextIncludes: "guard me" } }),
        textTurn("Guarded.", { hasToolResultFor: "Skill" }),
      ],
    },
  });
  server = await startServe(
    ["--db", await freshPgliteDir(tree.path("data")), "--api-key", KEY, "--mcp-allow-host", "localhost"],
    { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url },
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await hooks?.close();
  await tree?.cleanup();
});

describe("served http hooks follow the MCP private-address rule", () => {
  it("a loopback URL is refused; the same server by an allowed host name is reached", async () => {
    const port = new URL(hooks.url).port;
    const skill = [
      "---",
      "name: guarded",
      "description: Guards the turn",
      "hooks:",
      "  Stop:",
      "    - hooks:",
      "        - type: http",
      `          url: http://127.0.0.1:${port}/refused`,
      "        - type: http",
      `          url: http://localhost:${port}/allowed`,
      "---",
      "GUARDED-BODY",
      "",
    ].join("\n");
    const client = sdkClient(server.url, KEY);
    const uploaded = await client.beta.skills.create({
      files: [await toFile(Buffer.from(skill), "guarded/SKILL.md")],
    });
    const env = await client.beta.environments.create({ name: "hooks-env" });
    const agent = await client.beta.agents.create({
      name: "guarded-agent",
      model: "claude-sonnet-5-5",
      skills: [{ type: "custom", skill_id: uploaded.id }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const events = await sayAndRead(client, session.id, "guard me");
    expect(events.some((e) => e.type === "agent.message")).toBe(true);
    expect(hooks.requests.map((r) => [r.path, r.body.hook_event_name])).toEqual([["/allowed", "Stop"]]);
  });
});
