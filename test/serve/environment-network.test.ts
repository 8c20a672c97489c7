import type { EnvironmentCreateParams } from "@anthropic-ai/sdk/resources/beta/environments/environments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { environmentNetwork } from "../../src/serve/sessions/environment-network.js";
import { type LocalHttp, startLocalHttp } from "../support/local-http.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { sayAndRead } from "../support/session-stream.js";

// Issue #40 item 3: a served session's commands reach the network its environment's `networking` allows, and a
// loopback host only when the operator allows it (`serve --sandbox-allow-host`, here the runner's option).

describe("a session's sandbox network follows its environment", () => {
  const allow = ["db.internal"];
  it.each([
    ["no environment", undefined, { mode: "none" }],
    ["self_hosted", { type: "self_hosted" as const }, { mode: "none" }],
    [
      "cloud, unrestricted",
      {
        type: "cloud" as const,
        networking: { type: "unrestricted" as const },
        packages: { type: "packages" as const, apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
      },
      { mode: "unrestricted", allowPrivateHosts: allow },
    ],
    [
      "cloud, limited",
      {
        type: "cloud" as const,
        networking: {
          type: "limited" as const,
          allowed_hosts: ["api.example.com"],
          allow_mcp_servers: true,
          allow_package_managers: true,
        },
        packages: { type: "packages" as const, apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
      },
      { mode: "limited", allowedHosts: ["api.example.com"], allowPrivateHosts: allow },
    ],
  ])("%s", (_name, config, network) => {
    expect(environmentNetwork(config, allow)).toEqual(network);
  });
});

describe("a served session's curl, by its environment", () => {
  let local: LocalHttp;
  let hits: string[];
  let app: ServedApp;
  let url: string;
  beforeAll(async () => {
    local = await startLocalHttp();
    ({ hits, url } = local);
    const curl = (path: string) => ({ command: `curl -s ${url}/${path}; echo CURL-DONE` });
    app = await startServedApp({
      runner: { sandboxAllowHosts: ["127.0.0.1"] },
      modelTurns: [
        toolTurn("Bash", curl("allowed"), { match: { lastUserTextIncludes: "fetch allowed" } }),
        toolTurn("Bash", curl("other"), { match: { lastUserTextIncludes: "fetch other" } }),
        toolTurn("Bash", curl("self"), { match: { lastUserTextIncludes: "fetch self" } }),
        {
          ...textTurn("Fetched.", { hasToolResultFor: "Bash", toolResultIncludes: "CURL-DONE" }),
          repeat: true,
        },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await local?.close();
  });

  /** What `say` got back from Bash in a new session of an environment with `config`. */
  const fetchIn = async (config: EnvironmentCreateParams["config"], say: string) => {
    const client = app.client();
    const environment = await client.beta.environments.create({ name: say, config });
    const agent = await client.beta.agents.create({
      name: say,
      model: "claude-sonnet-5-5",
      tools: [{ type: "agent_toolset_20260401" }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    const events = await sayAndRead(client, session.id, say);
    return JSON.stringify(events.filter((e) => e.type === "agent.tool_result"));
  };

  it("reaches an allowed host of a limited network (a loopback one only by the operator's allow list)", async () => {
    const got = await fetchIn(
      { type: "cloud", networking: { type: "limited", allowed_hosts: ["127.0.0.1"] } },
      "fetch allowed",
    );
    expect(got).toContain("LOCAL-ANSWER");
    expect(hits).toEqual(["/allowed"]);
  }, 120_000);

  it("reaches no host a limited network leaves out, and nothing from a self_hosted environment", async () => {
    const other = await fetchIn(
      { type: "cloud", networking: { type: "limited", allowed_hosts: ["api.example.com"] } },
      "fetch other",
    );
    expect(other).toContain("CURL-DONE");
    expect(other).not.toContain("LOCAL-ANSWER");
    const self = await fetchIn({ type: "self_hosted" }, "fetch self");
    expect(self).toContain("CURL-DONE");
    expect(self).not.toContain("LOCAL-ANSWER");
    expect(hits).toEqual(["/allowed"]);
  }, 120_000);
});
