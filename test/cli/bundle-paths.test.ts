// One test per code path the shipped bundle (dist/bin, scripts/bundle.mjs) loads lazily, each reached through
// `node dist/bin/main.js`, so a bundling change that breaks a chunk (as `import("yaml")` once was) fails here.
//
//   dynamic import                                          test below
//   cli/run.ts          ../engine/engine.js, ../io/fs.js    every test (first: "list")
//   cli/run.ts          ./commands/list.js                  "list"
//   cli/run.ts          ./commands/doctor.js                "doctor"
//   cli/run.ts          ./commands/show.js                  "show"
//   cli/run.ts          ./commands/validate.js              "validate"
//   cli/run.ts          ./commands/plugin-validate.js       "plugin validate"
//   cli/run.ts          ./commands/dev.js                   "-p … against `dev model-server`"
//   cli/run.ts          ./commands/headless.js              "-p … against `dev model-server`"
//   cli/model-setup.ts  ../agent/model-client.js            "-p … against `dev model-server`"
//   agent/model-client.ts  ./sdk.js (@anthropic-ai/sdk)     "-p … against `dev model-server`"
//   agent/http-fetch.ts node:http                           "-p … against `dev model-server`"
//                       (node:https: test/agent/https.test.ts runs dist/bin against a TLS server)
//   io/shell.ts         execa                               "show --run-shell" and the -p run's hook
//   skill/frontmatter-core.ts  yaml                         "list" (a block-scalar head)
//   engine/engine.ts    ./extensions.js (settings, plugins, MCP configs)  "list"
//   engine/extensions.ts  ../mcp/manager.js                 "--mcp-config"
//   plugins/load-plugins.ts  ./load-plugin.js               "--plugin-dir"
//   config/settings.ts  ./settings-schema.js (zod, a file the zod-free reader declines)  "doctor: … marketplace"
//   plugins/marketplace.ts, find-plugins.ts  ./parse-marketplace.js  "doctor: … marketplace"
//   mcp/config.ts       ./config-schema.js                  "--mcp-config"
//   cli/run.ts          ./commands/serve.js (hono)           "serve … keys create"
//   serve/store/open-driver.ts  ./pglite-driver.js (@electric-sql/pglite, external)  "serve … keys create"
//   cli/run.ts          ./commands/keys.js                  "serve … keys create"
//   serve/sessions/agent-mcp.ts  ../../mcp/connect.js, client-ops.js, tools.js, names.js (the MCP client)
//                       test/serve/agent-mcp.test.ts runs dist/bin serve with an agent's MCP server
//                       (./pg-driver.js, pg: test/serve/sdk.test.ts runs dist/bin on PostgreSQL)
//   cli/main.ts         ./interactive.js                    "interactive" (in a pseudo-terminal via script(1))
//   session/open.ts     ./open-session.js (tools, hooks, agent types)  "interactive"
//   cli/main.ts → run.ts  the print bundle (one p-run-*.cjs, every -p run, compiled through the V8 code cache:
//                       scripts/bundle.mjs, cli/print-bundle.ts), its lazy parts inlined (import() → require):
//                       headless, model client, SDK, http, execa   "-p … against `dev model-server`"
//                       MCP manager, plugin loader, yaml            "-p --mcp-config --plugin-dir …"
//                       (the cache itself: test/cli/code-cache.test.ts)
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe } from "../serve/serve-process.js";
import { startTestModel, TEST_API_KEY, textTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { waitUntil } from "../support/processes.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN, cli, json } from "./run-cli.js";

const MCP_SERVER = fileURLToPath(new URL("../support/mcp-server.mjs", import.meta.url));
const GIT_GUARD = fileURLToPath(new URL("../../plugins/git-guard", import.meta.url));

const SCRIPT = {
  turns: [
    {
      match: { agentId: null, lastUserTextIncludes: "research" },
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "research", args: "x" } }] },
    },
    { match: { agentId: "*" }, response: { content: [{ type: "text", text: "FORK-ANSWER" }] } },
    {
      match: { agentId: null, toolResultIncludes: "completed (forked execution)" },
      response: { content: [{ type: "text", text: "MAIN-ANSWER" }] },
    },
  ],
};

let tree: TmpTree;
beforeAll(async () => {
  assertBuilt();
  tree = await tmpTree({
    "home/.keep": "",
    "home/repo/.git/HEAD": "",
    "home/repo/.claude/skills/folded/SKILL.md":
      "---\ndescription: |\n  Block scalar\n  description.\n---\nBody\n",
    "home/repo/.claude/skills/shelly/SKILL.md": "---\ndescription: runs shell\n---\nOut: !`echo shell-ran`\n",
    "home/repo/.claude/skills/research/SKILL.md":
      "---\ndescription: Researches in a fork\ncontext: fork\n---\nResearch $ARGUMENTS.\n",
    "home/repo/.claude/settings.local.json": JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Skill", hooks: [{ type: "command", command: "touch hook-fired" }] }],
      },
    }),
    "script.json": JSON.stringify(SCRIPT),
    "home/market/.git/HEAD": "",
    // `model` must be a string: the zod-free settings reader declines the file.
    "home/market/.claude/settings.json": JSON.stringify({ model: 3, enabledPlugins: { "gg@mk": true } }),
    "home/market/.claude-plugin/marketplace.json": JSON.stringify({
      name: "mk",
      plugins: [{ name: "gg", source: "./gg" }],
    }),
    "home/market/gg/.claude-plugin/plugin.json": JSON.stringify({ name: "gg" }),
    "home/market/gg/skills/hello/SKILL.md": "---\ndescription: Says hello\n---\nHello.\n",
  });
});
afterAll(() => tree.cleanup());

describe("every lazily loaded path of dist/bin", () => {
  it("list: the engine, fs and list chunks, and yaml for a block-scalar head", async () => {
    const result = await cli(tree, ["list", "--json"]);
    expect(result.stderr).toBe("");
    const skills = json<{ name: string; description: string }[]>(result);
    expect(skills.find((s) => s.name === "folded")?.description).toBe("Block scalar description.");
  });

  it("serve … keys create: the serve and keys chunks, Hono, PGlite (external) and its wasm", async () => {
    const db = await freshPgliteDir(tree.path("serve-db"));
    const made = await cli(tree, ["keys", "create", "--workspace", "w", "--db", db]);
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    const server = await startServe(["--db", db]);
    try {
      await waitUntil(() => server.stdout().includes("API key for the default workspace"), 30_000);
      expect(server.stdout()).toMatch(/API key for the default workspace .*: sk-sw-/);
      const response = await fetch(`${server.url}/v1/agents`, { headers: { "x-api-key": key } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ data: [] });
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("doctor", async () => {
    const result = await cli(tree, ["doctor", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("yaml-invalid");
    expect(json<{ roots: unknown[] }>(result).roots.length).toBeGreaterThan(0);
  });

  it("show", async () => {
    const result = await cli(tree, ["show", "folded"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Block scalar");
  });

  it("show --run-shell: execa runs the inline shell", async () => {
    const result = await cli(tree, ["show", "shelly", "--run-shell"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Out: shell-ran");
  });

  it("validate", async () => {
    const result = await cli(tree, ["validate", tree.path("home/repo/.claude/skills/folded")]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("yaml-invalid");
  });

  it("plugin validate", async () => {
    const result = await cli(tree, ["plugin", "validate", GIT_GUARD]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("git-guard 1.0.0");
  });

  it("--plugin-dir: the plugin loader", async () => {
    const result = await cli(tree, ["list", "--json", "--plugin-dir", GIT_GUARD]);
    expect(json<{ name: string }[]>(result).map((s) => s.name)).toContain("git-guard:commit");
  });

  it("doctor: a settings file zod checks, and a project marketplace's plugin (the zod schema chunks)", async () => {
    const result = await cli(tree, ["doctor"], "home/market");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "settings-invalid: model: Invalid input: expected string, received number",
    );
    expect(result.stdout).toContain("gg:hello");
  });

  it("--mcp-config: the MCP manager starts a stdio server and lists its skills", async () => {
    const config = { mcpServers: { srv: { command: process.execPath, args: [MCP_SERVER] } } };
    const result = await cli(tree, ["list", "--json", "--start-mcp", "--mcp-config", JSON.stringify(config)]);
    expect(result.stderr).toBe("");
    expect(json<{ name: string }[]>(result).map((s) => s.name)).toContain("mcp__srv__greet");
  });

  it("-p … against `dev model-server`: headless, model client, SDK, http; a forked skill and a hook", async () => {
    const server = execa(
      process.execPath,
      [BIN, "dev", "model-server", "--script", tree.path("script.json")],
      {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        extendEnv: false,
        reject: false,
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = "";
        server.stdout?.on("data", (chunk: Buffer) => {
          seen += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(seen);
          if (found?.[1] !== undefined) resolve(found[1]);
        });
        server.on("exit", () => reject(new Error(`dev model-server exited: ${seen}`)));
      });
      const result = await cli(
        tree,
        ["-p", "do the research", "--allowedTools", "Skill(research)", "--output-format", "json"],
        "home/repo",
        {
          ANTHROPIC_BASE_URL: url,
          ANTHROPIC_API_KEY: "test",
        },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(json<{ result: string; num_turns: number }>(result)).toMatchObject({
        result: "MAIN-ANSWER",
        num_turns: 2,
      });
      expect(existsSync(tree.path("home/repo/hook-fired")), "the PreToolUse hook ran").toBe(true);
    } finally {
      server.kill("SIGTERM");
      const stopped = await server;
      expect(stopped.stdout).toContain("served 3 request(s)");
    }
  });

  it("-p --mcp-config --plugin-dir …: the print bundle's MCP manager, plugin loader and yaml", async () => {
    const model = await startTestModel([textTurn("LISTED")]);
    try {
      const config = { mcpServers: { srv: { command: process.execPath, args: [MCP_SERVER] } } };
      const result = await cli(
        tree,
        ["-p", "list them", "--mcp-config", JSON.stringify(config), "--plugin-dir", GIT_GUARD],
        "home/repo",
        {
          ANTHROPIC_BASE_URL: model.server.url,
          ANTHROPIC_API_KEY: TEST_API_KEY,
          // Every head read and parsed: the block-scalar one needs yaml.
          SKILLWRIGHT_DISCOVERY_CACHE: "off",
        },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe("LISTED");
      const [request] = model.server.requests.filter((r) => r.path === "/v1/messages");
      const sent = JSON.stringify(request?.body);
      expect(sent).toContain("mcp__srv__greet");
      expect(sent).toContain("git-guard:commit");
      expect(sent).toContain("Block scalar description.");
    } finally {
      await model.close();
    }
  });

  it("interactive: the interactive chunk, in a pseudo-terminal", async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
    const child = execa("script", ["-qec", command, "/dev/null"], {
      cwd: tree.path("home/repo"),
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path("home"),
        SKILLWRIGHT_HOME: tree.path("home"),
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      // The prompt is up: Ctrl-D ends the session.
      if (seen.includes("Ctrl-D to exit")) child.stdin?.write("\u0004");
    });
    const result = await child;
    expect(result.stdout).toContain("Type a message, /skill to run a skill");
    expect(result.exitCode).toBe(0);
  });
});
