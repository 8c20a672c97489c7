import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingPackageLine } from "../../src/io/optional-package.js";
import { servedCapabilities } from "../../src/serve/sessions/served-capabilities.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { sayAndRead } from "../support/session-stream.js";

// Issue #45: installed with --omit=optional, serve has no just-bash, so its default tier (simulated) cannot run.
// Its sessions then get the none tier standing in, and no host shell: Bash stays offered and every call of it
// answers with the line saying what to install. (test/cli/pack.test.ts runs this in a real lean install.)

const MISSING = missingPackageLine("just-bash");

describe("servedCapabilities with the none tier standing in", () => {
  it("runs nothing, offers Bash, and its refusal is the line; --sandbox none offers no Bash", async () => {
    const standIn = servedCapabilities(
      { tier: "none", noShellReason: MISSING },
      { network: { mode: "none" } },
    );
    expect(standIn.sandbox.tier).toBe("none");
    expect(standIn.bashTool).toBe(true);
    expect(standIn.sandbox.shell.refusal).toBe(MISSING);
    await expect(standIn.sandbox.shell.run("echo hi", { cwd: "/workspace" })).rejects.toThrow(MISSING);
    const chosen = servedCapabilities({ tier: "none" }, { network: { mode: "none" } });
    expect(chosen.bashTool).toBe(false);
    expect(chosen.sandbox.shell.refusal).not.toContain("just-bash");
  });
});

describe("a served session whose simulated sandbox is not installed", () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await startServedApp({
      runner: { sandbox: "none", sandboxNoShellReason: MISSING },
      modelTurns: [
        toolTurn("Bash", { command: "echo ran-on-some-shell" }, { match: { lastUserTextIncludes: "run" } }),
        textTurn("Done.", { hasToolResultFor: "Bash" }),
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("answers the model's Bash call with what to install, and runs nothing", async () => {
    const client = app.client();
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "runner",
      model: "claude-sonnet-5-5",
      tools: [{ type: "agent_toolset_20260401" }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    const events = await sayAndRead(client, session.id, "run it");
    const first = app.model?.requests[0]?.body as { tools?: { name: string }[]; system?: unknown };
    expect((first.tools ?? []).map((t) => t.name)).toContain("Bash");
    const result = events.find((e) => e.type === "agent.tool_result");
    const text = JSON.stringify(result);
    expect(text).toContain("npm install just-bash");
    expect(text).not.toContain("ran-on-some-shell");
    expect(JSON.stringify(app.model?.requests[1]?.body)).toContain(
      "the simulated sandbox of served sessions (serve --sandbox simulated, the default) needs the optional package just-bash",
    );
    expect(events.at(-1)).toMatchObject({ type: "session.status_idle" });
  }, 120_000);
});
