import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { assertBuilt, BIN } from "../cli/run-cli.js";
import { type LocalHttp, startLocalHttp } from "../support/local-http.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { osTierMissing } from "../support/os-tier.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type StreamEvent, sayAndRead } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #41 item 2 and 3, through the shipped bin's `serve --sandbox os`, the official SDK client and the
// scripted model: a skill's script imports PyYAML from the host's python3 under bubblewrap and writes /workspace,
// which the default tier reads back after a restart; the serve user's home folder stays invisible; curl reaches a
// local server only through the session's proxy, by the operator's `--sandbox-allow-host`; with a PATH that hides
// bubblewrap or socat serve refuses to start with one line naming what to install, and the default tier's
// start-up line says why the os tier is unavailable.

const KEY = "sk-os-sandbox";
const MISSING = osTierMissing();
if (MISSING !== undefined) console.warn(`served-os-sandbox: skipping the os-tier session tests: ${MISSING}`);

/** The skill's script: PyYAML, a third-party package, from the host's python3. */
const DUMP =
  "import yaml\n" +
  "doc = {'tool': 'pyyaml', 'version': yaml.__version__, 'numbers': [1, 2, 3]}\n" +
  "open('/workspace/out.yaml', 'w').write(yaml.safe_dump(doc))\n" +
  "print('DUMPED with', yaml.__file__)\n";

/** The text of every tool result a turn's events hold, joined. */
function toolResults(events: StreamEvent[]): string {
  return JSON.stringify(events.filter((e) => e.type === "agent.tool_result"));
}

let tree: TmpTree;
let model: ModelServer;
let db: string;
let server: ServeProcess | undefined;
let client: Anthropic;
let secretDir: string;

/** Starts serve on the test's database with `args` (and `PATH` = `path`, default the test's own). */
function serve(args: string[], path?: string): Promise<ServeProcess> {
  return startServe(
    ["--db", db, "--api-key", KEY, ...args],
    {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
      ...(path === undefined ? {} : { PATH: path }),
    },
    tree.path("cwd"),
  );
}

/** A local HTTP server: an os-tier command reaches it only through its session's proxy, as the network allows. */
let local: LocalHttp | undefined;

beforeAll(async () => {
  tree = await tmpTree({ "cwd/.keep": "", "empty-bin/.keep": "", "bwrap-only/.keep": "" });
  // A folder of the serve user's own home, with a secret in it: no os-tier command may see either.
  secretDir = mkdtempSync(join(homedir(), ".skillwright-os-test-"));
  writeFileSync(join(secretDir, "secret"), "HOME-SECRET-TEXT");
  if (MISSING !== undefined) return;
  local = await startLocalHttp();
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Bash",
          { command: "python3 /mnt/skills/yaml-dump/scripts/dump.py" },
          { match: { lastUserTextIncludes: "dump yaml" } },
        ),
        textTurn("Dumped.", { hasToolResultFor: "Bash", toolResultIncludes: "DUMPED" }),
        toolTurn(
          "Bash",
          { command: `cat ${secretDir}/secret 2>/dev/null; ls -a ${homedir()}; echo LOOKED` },
          { match: { lastUserTextIncludes: "look home" } },
        ),
        textTurn("Looked.", { hasToolResultFor: "Bash", toolResultIncludes: "LOOKED" }),
        toolTurn(
          "Bash",
          { command: `curl -sS ${local.url}/os-tier; echo " CURL-DONE"` },
          { match: { lastUserTextIncludes: "fetch local" } },
        ),
        textTurn("Fetched.", { hasToolResultFor: "Bash", toolResultIncludes: "CURL-DONE" }),
        toolTurn(
          "Bash",
          { command: "cat /workspace/out.yaml" },
          { match: { lastUserTextIncludes: "read back" } },
        ),
        textTurn("Read back.", { hasToolResultFor: "Bash" }),
      ],
    },
  });
  db = await freshPgliteDir(tree.path("data"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await local?.close();
  await model?.close();
  rmSync(secretDir, { recursive: true, force: true });
  await tree?.cleanup();
});

describe.skipIf(MISSING !== undefined)("a served session under serve --sandbox os", () => {
  let sessionId: string;

  it("says so at start-up and runs a skill script importing PyYAML that writes /workspace", async () => {
    server = await serve(["--sandbox", "os", "--sandbox-allow-host", "127.0.0.1"]);
    const os = server;
    await expect.poll(() => os.stdout()).toContain("sessions run code in the OS sandbox (--sandbox os)");
    client = sdkClient(server.url, KEY);
    const skillMd = "---\nname: yaml-dump\ndescription: Dumps YAML with PyYAML\n---\nRun scripts/dump.py.\n";
    const files = await Promise.all([
      toFile(Buffer.from(skillMd), "yaml-dump/SKILL.md"),
      toFile(Buffer.from(DUMP), "yaml-dump/scripts/dump.py"),
    ]);
    const skill = await client.beta.skills.create({ files });
    const environment = await client.beta.environments.create({
      name: "os",
      config: { type: "cloud", networking: { type: "unrestricted" } },
    });
    const agent = await client.beta.agents.create({
      name: "os-tier",
      model: "claude-sonnet-5-5",
      skills: [{ type: "custom", skill_id: skill.id }],
      tools: [{ type: "agent_toolset_20260401" }],
    });
    sessionId = (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
    const events = await sayAndRead(client, sessionId, "dump yaml");
    expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
    const result = events.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ is_error: false });
    expect(JSON.stringify(result)).toContain("DUMPED with /usr/");
  }, 180_000);

  it("cannot read the serve user's home folder", async () => {
    const results = toolResults(await sayAndRead(client, sessionId, "look home"));
    expect(results).toContain("LOOKED");
    expect(results).not.toContain(".bashrc");
    expect(results).not.toContain("HOME-SECRET-TEXT");
    expect(results).not.toContain(basename(secretDir));
  }, 120_000);

  it("reaches a host its environment allows through the session's proxy (a loopback one by the operator's leave)", async () => {
    const results = toolResults(await sayAndRead(client, sessionId, "fetch local"));
    expect(results).toContain("LOCAL-ANSWER CURL-DONE");
    expect(local?.hits).toEqual(["/os-tier"]);
  }, 120_000);

  it("keeps /workspace's file: the default tier reads it back after a restart on the same database", async () => {
    await server?.stop();
    // Restarted with a PATH that hides bubblewrap and socat: the start-up line says why the os tier is unavailable.
    const simulated = await serve([], tree.path("empty-bin"));
    server = simulated;
    await expect
      .poll(() => simulated.stdout())
      .toMatch(
        /sessions run code in the simulated sandbox .*\(--sandbox os is unavailable here: .*bubblewrap, socat/,
      );
    client = sdkClient(server.url, KEY);
    const results = toolResults(await sayAndRead(client, sessionId, "read back"));
    expect(results).toContain("tool: pyyaml");
    expect(results).toContain("- 3");
  }, 180_000);
});

describe("serve --sandbox os without its programs", () => {
  it("refuses to start with one line naming what to install", async () => {
    assertBuilt();
    const run = await execa(process.execPath, [BIN, "serve", "--port", "0", "--sandbox", "os"], {
      cwd: tree.path("cwd"),
      env: { PATH: tree.path("empty-bin"), HOME: tree.path("cwd") },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("serve --sandbox os");
    expect(lines[0]).toContain("apt-get install bubblewrap");
  }, 60_000);

  it.skipIf(MISSING !== undefined)(
    "nor without socat, which bridges a session's network, naming only what is missing",
    async () => {
      assertBuilt();
      const bwrap = execFileSync("sh", ["-c", "command -v bwrap"], { encoding: "utf8" }).trim();
      symlinkSync(bwrap, tree.path("bwrap-only/bwrap"));
      const run = await execa(process.execPath, [BIN, "serve", "--port", "0", "--sandbox", "os"], {
        cwd: tree.path("cwd"),
        env: { PATH: tree.path("bwrap-only"), HOME: tree.path("cwd") },
        extendEnv: false,
        reject: false,
        stdin: "ignore",
      });
      expect(run.exitCode).toBe(1);
      expect(run.stderr.trim()).toBe(
        "skillwright: serve --sandbox os: the OS sandbox needs socat (missing here): install it (e.g. apt-get install socat)",
      );
    },
    60_000,
  );
});
