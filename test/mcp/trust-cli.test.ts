/**
 * Issue 16.1: a project's `.mcp.json` and a plugin's MCP servers start only when the user approved them in user
 * or local settings (Claude Code's `enabledMcpjsonServers`, `enableAllProjectMcpServers`,
 * `disabledMcpjsonServers`), or named them with `--mcp-config`. The offline commands (`list`, `show`,
 * `doctor`) never start a server unless asked with `--start-mcp`. Runs the shipped bin (dist/bin/main.js).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { SERVER_SCRIPT } from "./support.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  tree = undefined;
  model = undefined;
});

function put(t: TmpTree, relative: string, text: string): void {
  mkdirSync(dirname(t.path(relative)), { recursive: true });
  writeFileSync(t.path(relative), text);
}

/** A stdio server that first touches `marker` (proof that its command ran), then serves the test server. */
function markingServer(marker: string): Record<string, unknown> {
  const script = `touch '${marker}'; exec '${process.execPath}' '${SERVER_SCRIPT}'`;
  return { command: "sh", args: ["-c", script] };
}

/** A project `proj` whose `.mcp.json` defines `proj-srv`, and a plugin `plug` (in `plug/`) defining `plug-srv`. */
async function project(files: Record<string, TreeEntry> = {}): Promise<TmpTree> {
  tree = await tmpTree({ "proj/.git": { dir: true }, "home/.keep": "", ...files });
  const t = tree;
  put(
    t,
    "proj/.mcp.json",
    JSON.stringify({ mcpServers: { "proj-srv": markingServer(t.path("PROJ_MARKER")) } }),
  );
  put(t, "plug/.claude-plugin/plugin.json", JSON.stringify({ name: "plug" }));
  put(
    t,
    "plug/.mcp.json",
    JSON.stringify({ mcpServers: { "plug-srv": markingServer(t.path("PLUG_MARKER")) } }),
  );
  put(t, "proj/.claude/skills/local/SKILL.md", "---\ndescription: a local skill\n---\nLocal body.\n");
  return t;
}

function run(t: TmpTree, args: string[], env: Record<string, string> = {}) {
  return execa(
    process.execPath,
    [BIN, ...args, "--cwd", t.path("proj"), "--home", t.path("home"), "--plugin-dir", t.path("plug")],
    {
      env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed"), PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    },
  );
}

const markers = (t: TmpTree) => ({
  proj: existsSync(t.path("PROJ_MARKER")),
  plug: existsSync(t.path("PLUG_MARKER")),
});

interface ServerRow {
  kind: string;
  name: string;
  origin: string;
  state: string;
  approvedBy?: string;
  disabledBy?: string;
}
const serverRows = (stdout: string) =>
  (JSON.parse(stdout) as ServerRow[]).filter((r) => r.kind === "mcp-server");

describe("MCP trust: list, show and doctor start no unapproved server", () => {
  it("list, list --json, show and doctor leave no marker; doctor names each pending server and its setting", async () => {
    const t = await project();
    for (const args of [
      ["list"],
      ["list", "--json"],
      ["show", "local"],
      ["show", "mcp__proj-srv__greet"],
      ["doctor"],
      ["doctor", "--json"],
    ]) {
      await run(t, args);
      expect(markers(t), args.join(" ")).toEqual({ proj: false, plug: false });
    }
    const doctor = await run(t, ["doctor"]);
    expect(doctor.stdout).toContain("proj-srv  [project]");
    expect(doctor.stdout).toContain("plug-srv  [plugin]");
    expect(doctor.stdout).toContain(
      "waiting for approval: run `skillwright mcp approve proj-srv` or add it to enabledMcpjsonServers in user or local settings",
    );
    expect(doctor.stdout).toContain("mcp-unapproved");
    const rows = serverRows((await run(t, ["list", "--json"])).stdout);
    expect(rows.map((r) => [r.name, r.origin, r.state])).toEqual([
      ["proj-srv", "project", "waiting-for-approval"],
      ["plug-srv", "plugin", "waiting-for-approval"],
    ]);
    const show = await run(t, ["show", "mcp__proj-srv__greet"]);
    expect(show.exitCode).toBe(1);
    expect(show.stderr).toContain('MCP server "proj-srv"');
    expect(show.stderr).toContain("skillwright mcp approve proj-srv");
  });

  it("approved servers stay stopped in list and doctor (offline) and start with --start-mcp", async () => {
    const t = await project({
      "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["proj-srv", "plug-srv"] }),
    });
    await run(t, ["list"]);
    const offline = await run(t, ["doctor", "--json"]);
    expect(markers(t)).toEqual({ proj: false, plug: false });
    const report = JSON.parse(offline.stdout) as { mcpServers: ServerRow[] };
    expect(report.mcpServers.map((r) => [r.name, r.state, r.approvedBy])).toEqual([
      ["proj-srv", "not-started", t.path("home/.claude/settings.json")],
      ["plug-srv", "not-started", t.path("home/.claude/settings.json")],
    ]);
    const started = await run(t, ["list", "--json", "--start-mcp"]);
    expect(markers(t)).toEqual({ proj: true, plug: true });
    expect(serverRows(started.stdout).map((r) => [r.name, r.state])).toEqual([
      ["proj-srv", "connected"],
      ["plug-srv", "connected"],
    ]);
  });

  it("show of an approved server's skill starts that server only and prints the fetched skill", async () => {
    const t = await project({
      "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["proj-srv", "plug-srv"] }),
    });
    const show = await run(t, ["show", "mcp__proj-srv__greet", "Ada"]);
    expect(show.stderr).not.toContain("ENOENT");
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain("# mcp__proj-srv__greet [mcp skill]");
    expect(show.stdout).toContain('"description": "Greets someone warmly"');
    expect(show.stdout).toContain("Say hello to Ada.");
    expect(markers(t)).toEqual({ proj: true, plug: false });
  });

  it("a committed project .claude/settings.json cannot approve its own servers; disabledMcpjsonServers wins", async () => {
    const t = await project({
      "proj/.claude/settings.json": JSON.stringify({
        enableAllProjectMcpServers: true,
        enabledMcpjsonServers: ["proj-srv", "plug-srv"],
      }),
      "proj/.claude/settings.local.json": JSON.stringify({ disabledMcpjsonServers: ["plug-srv"] }),
      "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["plug-srv"] }),
    });
    const rows = serverRows((await run(t, ["list", "--json", "--start-mcp"])).stdout);
    expect(rows.map((r) => [r.name, r.state, r.disabledBy])).toEqual([
      ["proj-srv", "waiting-for-approval", undefined],
      ["plug-srv", "disabled", t.path("proj/.claude/settings.local.json")],
    ]);
    expect(markers(t)).toEqual({ proj: false, plug: false });
  });

  it("enableAllProjectMcpServers in local settings approves the project's servers, not a plugin's", async () => {
    const t = await project({
      "proj/.claude/settings.local.json": JSON.stringify({ enableAllProjectMcpServers: true }),
    });
    const rows = serverRows((await run(t, ["list", "--json"])).stdout);
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["proj-srv", "not-started"],
      ["plug-srv", "waiting-for-approval"],
    ]);
  });
});

describe("skillwright mcp approve <name>", () => {
  it("merges the name into .claude/settings.local.json, keeping other keys; the server is then approved", async () => {
    const t = await project({
      "proj/.claude/settings.local.json": JSON.stringify({
        permissions: { allow: ["Read"] },
        enabledMcpjsonServers: ["other"],
      }),
    });
    const approve = await run(t, ["mcp", "approve", "proj-srv"]);
    expect(approve.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(t.path("proj/.claude/settings.local.json"), "utf8"))).toEqual({
      permissions: { allow: ["Read"] },
      enabledMcpjsonServers: ["other", "proj-srv"],
    });
    const rows = serverRows((await run(t, ["list", "--json"])).stdout);
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["proj-srv", "not-started"],
      ["plug-srv", "waiting-for-approval"],
    ]);
    expect(markers(t)).toEqual({ proj: false, plug: false });
  });

  it("creates the file when it is missing; an unknown name or a broken file is refused", async () => {
    const t = await project();
    expect((await run(t, ["mcp", "approve", "plug-srv"])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(t.path("proj/.claude/settings.local.json"), "utf8"))).toEqual({
      enabledMcpjsonServers: ["plug-srv"],
    });
    const unknown = await run(t, ["mcp", "approve", "nope"]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('No MCP server "nope"');
    put(t, "proj/.claude/settings.local.json", "{ not json");
    const broken = await run(t, ["mcp", "approve", "proj-srv"]);
    expect(broken.exitCode).toBe(1);
    expect(readFileSync(t.path("proj/.claude/settings.local.json"), "utf8")).toBe("{ not json");
    expect((await run(t, ["mcp"])).exitCode).toBe(2);
  });
});

describe("a -p run starts approved servers only", () => {
  it("an unapproved server gets a one-line stderr notice and never starts; an approved one starts", async () => {
    const t = await project({
      "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["plug-srv"] }),
    });
    model = await startTestModel([textTurn("hello")]);
    const result = await run(t, ["-p", "hi"], {
      ANTHROPIC_BASE_URL: model.server.url,
      ANTHROPIC_API_KEY: TEST_API_KEY,
    });
    expect(result.stdout).toBe("hello");
    expect(result.stderr.split("\n").filter((l) => l.includes("not started"))).toEqual([
      'skillwright: MCP server "proj-srv" not started (not approved); run `skillwright mcp approve <name>` or see `skillwright doctor`',
    ]);
    expect(markers(t)).toEqual({ proj: false, plug: true });
    const body = model.server.requests[0]?.body as { tools?: { name: string }[] } | undefined;
    const tools = (body?.tools ?? []).map((x) => x.name);
    expect(tools).toContain("mcp__plug-srv__add");
    expect(tools.some((n) => n.startsWith("mcp__proj-srv__"))).toBe(false);
  });
});
