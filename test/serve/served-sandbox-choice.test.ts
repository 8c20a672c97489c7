import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagesRefusal } from "../../src/serve/http/environments-routes.js";
import { servedSandboxLine, serveSandboxTier } from "../../src/serve/sessions/served-sandbox-tier.js";
import { servedSkillWarnings } from "../../src/serve/upload/skill-warnings.js";
import { all, apiError } from "../support/sdk-calls.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";

// How serve decides where its sessions run code: the tier's name, the start-up line, the packages an
// environment may not ask for, and the upload warnings.

describe("the served sandbox tier", () => {
  it("parses --sandbox's names and says which tier is active", () => {
    expect(serveSandboxTier("simulated")).toBe("simulated");
    expect(serveSandboxTier("none")).toBe("none");
    expect(serveSandboxTier("host")).toBeUndefined();
    expect(servedSandboxLine(false, "simulated")).toContain("simulated sandbox");
    expect(servedSandboxLine(false, "none")).toContain("run no code");
    expect(servedSandboxLine(true, "simulated")).toContain("--host-tools");
    const missing = "the OS sandbox needs socat (missing here)";
    expect(servedSandboxLine(false, "simulated", missing)).toMatch(
      /simulated sandbox .*\(--sandbox os is unavailable here: the OS sandbox needs socat \(missing here\)\)$/,
    );
    expect(servedSandboxLine(false, "os", undefined)).not.toContain("unavailable");
    expect(servedSandboxLine(false, "simulated", undefined)).not.toContain("unavailable");
    // The default tier not installed (npm install --omit=optional): the line says so and what to install.
    const notInstalled = "the simulated sandbox … needs just-bash: install it with npm install just-bash";
    const standIn = servedSandboxLine(false, "none", missing, notInstalled);
    expect(standIn).toMatch(/^the simulated sandbox is unavailable: .*npm install just-bash\. Until then/);
    expect(standIn).toContain("sessions run no code");
    expect(standIn).not.toContain("--sandbox os");
  });

  it("warns of inline shell, hooks and scripts only where the tier runs no code", () => {
    const files = [
      { path: "SKILL.md", content: Buffer.from("---\nname: s\ndescription: d\n---\nnow !`date`\n") },
      { path: "scripts/run.py", content: Buffer.from("print(1)\n") },
    ];
    expect(servedSkillWarnings(files, "none").map((w) => w.code)).toEqual([
      "inline-shell-not-run",
      "scripts-not-run",
    ]);
    for (const tier of ["simulated", "os", "host"] as const)
      expect(servedSkillWarnings(files, tier)).toEqual([]);
  });
});

describe("an environment's packages", () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await startServedApp();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("names each list it cannot honour (pure)", () => {
    expect(packagesRefusal(undefined)).toBeUndefined();
    expect(packagesRefusal({ type: "cloud", packages: { pip: [], npm: null } })).toBeUndefined();
    const refusal = packagesRefusal({
      type: "cloud",
      packages: { pip: ["pandas", "numpy"], apt: ["ffmpeg"] },
    });
    expect(refusal).toContain("apt (ffmpeg); pip (pandas, numpy)");
  });

  it("is a 400 at creation and at update, and nothing is stored", async () => {
    const client = app.client();
    const refused = await apiError(
      client.beta.environments.create({
        name: "data",
        config: { type: "cloud", packages: { pip: ["pandas"] } },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("pip (pandas)");
    expect(await all(client.beta.environments.list())).toEqual([]);

    const made = await client.beta.environments.create({
      name: "plain",
      config: { type: "cloud", networking: { type: "limited", allowed_hosts: ["api.example.com"] } },
    });
    const again = await apiError(
      client.beta.environments.update(made.id, { config: { type: "cloud", packages: { npm: ["express"] } } }),
    );
    expect(again.status).toBe(400);
    expect((await client.beta.environments.retrieve(made.id)).config).toEqual(made.config);
  });
});
