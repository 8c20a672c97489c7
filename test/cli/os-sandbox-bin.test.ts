import { randomUUID } from "node:crypto";
import { accessSync, constants, existsSync } from "node:fs";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { resultText, toolResultsOf } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

const SPAWN_TIMEOUT_MS = 60_000;
const PATH = process.env.PATH ?? "/usr/bin:/bin";

/** Where `program` is on the test's PATH, or undefined. */
function which(program: string): string | undefined {
  for (const dir of PATH.split(delimiter)) {
    if (dir === "") continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {}
  }
  return undefined;
}

const MISSING = ["bwrap", "socat", "rg"].filter((p) => which(p) === undefined);
const HAS_RUNTIME = MISSING.length === 0 && process.platform === "linux";
if (!HAS_RUNTIME)
  console.log(
    `os-sandbox-bin: the OS sandbox runs skipped: ${MISSING.join(", ") || "not Linux"} missing (apt-get install bubblewrap socat ripgrep)`,
  );

const SANDBOX_ON = JSON.stringify({ sandbox: { enabled: true } });

let tree: TmpTree | undefined;
let model: TestModel | undefined;
let server: Server | undefined;
const cleanups: string[] = [];
afterEach(async () => {
  await model?.close();
  model = undefined;
  await tree?.cleanup();
  tree = undefined;
  await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())));
  server = undefined;
  for (const path of cleanups.splice(0)) await rm(path, { force: true });
});

/** A local HTTP server counting the requests it gets. */
async function localServer(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((_req, res) => {
    hits += 1;
    res.end("reached\n");
  });
  const started = server;
  await new Promise<void>((done) => started.listen(0, "127.0.0.1", done));
  const { port } = started.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, hits: () => hits };
}

/**
 * Runs `skillwright -p go --allowedTools Bash` (or `grant` in its place) in `repo` against the scripted model,
 * with `path` as PATH.
 */
async function run(t: TmpTree, m: TestModel, path = PATH, grant = ["--allowedTools", "Bash"]) {
  assertBuilt();
  return execa(
    process.execPath,
    [BIN, "--cwd", t.path("repo"), "--home", t.path("home"), "-p", "go", ...grant],
    {
      env: {
        PATH: path,
        HOME: t.path("home"),
        SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
        ANTHROPIC_BASE_URL: m.server.url,
        ANTHROPIC_API_KEY: TEST_API_KEY,
      },
      extendEnv: false,
      reject: false,
      timeout: SPAWN_TIMEOUT_MS,
    },
  );
}

/** The project, with `.claude/settings.json` when given, and the model running `commands` one after another. */
async function setup(commands: string[], settings?: string) {
  tree = await tmpTree({
    "home/.keep": "",
    "repo/.git": { dir: true },
    ...(settings === undefined ? {} : { "repo/.claude/settings.json": settings }),
  });
  model = await startTestModel([
    ...commands.map((command, i) =>
      toolTurn(
        "Bash",
        { command, description: `step ${i}` },
        i === 0 ? {} : { match: { hasToolResultFor: "Bash" } },
      ),
    ),
    textTurn("done"),
  ]);
  return { tree, model };
}

/** The text and error flag of the only tool result in request `index`. */
function result(m: TestModel, index: number): { text: string; isError: boolean } {
  const results = toolResultsOf(m.server.requests[index]);
  expect(results).toHaveLength(1);
  return { text: resultText(results[0]), isError: results[0]?.is_error === true };
}

/** A file in the system temp folder, outside the project. */
function outsideTemp(): string {
  const path = join(tmpdir(), `skillwright-sandbox-escape-${randomUUID()}`);
  cleanups.push(path);
  return path;
}

describe.skipIf(!HAS_RUNTIME)("the CLI's Bash under settings sandbox.enabled (issue 41)", () => {
  it("writes inside the project, not in the system temp folder, and reaches no local server", async () => {
    const outsideFile = outsideTemp();
    const local = await localServer();
    const { tree: t, model: m } = await setup(
      ["touch inside.txt", `touch ${outsideFile}`, `curl -sS -m 20 ${local.url}`],
      SANDBOX_ON,
    );
    const done = await run(t, m);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(result(m, 1).isError).toBe(false);
    expect(existsSync(t.path("repo/inside.txt"))).toBe(true);
    const write = result(m, 2);
    expect(write.isError).toBe(true);
    expect(write.text).toContain("Read-only file system");
    expect(existsSync(outsideFile)).toBe(false);
    const fetch = result(m, 3);
    expect(fetch.isError).toBe(true);
    expect(fetch.text).not.toContain("reached");
    expect(local.hits()).toBe(0);
  });

  it("Bash inside the sandbox needs no grant (autoAllowBashIfSandboxed); an ask rule still holds", async () => {
    const { tree: t, model: m } = await setup(["touch inside.txt", "touch asked.txt"], SANDBOX_ON);
    await writeFile(
      t.path("repo/.claude/settings.local.json"),
      JSON.stringify({ permissions: { ask: ["Bash(touch asked.txt)"] } }),
    );
    const done = await run(t, m, PATH, []);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(result(m, 1).isError).toBe(false);
    expect(existsSync(t.path("repo/inside.txt"))).toBe(true);
    expect(result(m, 2).isError).toBe(true);
    expect(existsSync(t.path("repo/asked.txt"))).toBe(false);
  });

  it("the same project without the setting runs Bash on the host as before: both reach", async () => {
    const outsideFile = outsideTemp();
    const local = await localServer();
    const { tree: t, model: m } = await setup([`touch ${outsideFile}`, `curl -sS -m 20 ${local.url}`]);
    const done = await run(t, m);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(result(m, 1).isError).toBe(false);
    expect(existsSync(outsideFile)).toBe(true);
    expect(result(m, 2)).toEqual({ text: "reached", isError: false });
    expect(local.hits()).toBe(1);
  });
});

describe("the CLI's sandbox with its dependencies hidden (issue 41: never a fallback to the host)", () => {
  /** A PATH folder holding links to `programs` only (those found on the test's PATH). */
  async function pathWith(t: TmpTree, programs: string[]): Promise<string> {
    const dir = t.path("bin");
    await mkdir(dir, { recursive: true });
    for (const program of programs) {
      const found = which(program);
      if (found !== undefined) await symlink(found, join(dir, program));
    }
    return dir;
  }

  it("a PATH without bubblewrap, socat and ripgrep: Bash refuses with one line naming them, runs nothing", async () => {
    const outsideFile = outsideTemp();
    const { tree: t, model: m } = await setup([`touch inside.txt; touch ${outsideFile}`], SANDBOX_ON);
    const done = await run(t, m, await pathWith(t, ["bash", "touch"]));
    expect(done.exitCode, done.stderr).toBe(0);
    const refused = result(m, 1);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("the OS sandbox needs bubblewrap, socat, ripgrep (missing here)");
    expect(refused.text).toContain("apt-get install bubblewrap socat ripgrep");
    expect(refused.text.trim().split("\n")).toHaveLength(1);
    const warning = done.stderr.split("\n").filter((l) => l.includes("OS sandbox"));
    expect(warning).toHaveLength(1);
    expect(existsSync(t.path("repo/inside.txt"))).toBe(false);
    expect(existsSync(outsideFile)).toBe(false);
  });

  it.skipIf(!HAS_RUNTIME)("a PATH without socat alone names socat alone", async () => {
    const { tree: t, model: m } = await setup(["touch inside.txt"], SANDBOX_ON);
    const done = await run(t, m, await pathWith(t, ["bash", "touch", "bwrap", "rg"]));
    expect(done.exitCode, done.stderr).toBe(0);
    const refused = result(m, 1);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("the OS sandbox needs socat (missing here): install it");
    expect(existsSync(t.path("repo/inside.txt"))).toBe(false);
  });
});

describe("doctor shows the effective sandbox (issue 41)", () => {
  /** `skillwright doctor [--json]` in `repo` with `path` as PATH. */
  async function doctor(t: TmpTree, path: string, json = false) {
    assertBuilt();
    const args = [
      BIN,
      "doctor",
      "--cwd",
      t.path("repo"),
      "--home",
      t.path("home"),
      ...(json ? ["--json"] : []),
    ];
    return execa(process.execPath, args, {
      env: { PATH: path, HOME: t.path("home"), SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
      extendEnv: false,
      reject: false,
      timeout: SPAWN_TIMEOUT_MS,
    });
  }

  it("on, tightened by the project, a loosening held back; and which tier runs, or why none can", async () => {
    const committed = {
      sandbox: {
        enabled: true,
        network: { allowedDomains: ["exfil.example"] },
        filesystem: { denyRead: ["~/.ssh"] },
      },
    };
    tree = await tmpTree({
      "home/.keep": "",
      "repo/.git": { dir: true },
      "repo/.claude/settings.json": JSON.stringify(committed),
      "empty-bin/.keep": "",
    });
    const settings = tree.path("repo/.claude/settings.json");
    const hidden = await doctor(tree, tree.path("empty-bin"));
    expect(hidden.exitCode, hidden.stderr).toBe(0);
    expect(hidden.stdout).toContain(
      `Sandbox: on (${settings}), but the OS sandbox needs bubblewrap, socat, ripgrep (missing here): install them (e.g. apt-get install bubblewrap socat ripgrep): Bash, inline shell and command hooks do not run`,
    );
    expect(hidden.stdout).toContain(`  not readable: ${tree.path("home/.ssh")}`);
    expect(hidden.stdout).toContain(
      `  held back until approved (${settings}): sandbox.network.allowedDomains`,
    );
    expect(hidden.stdout).toContain("  network: allowed none; denied none");
    const json = JSON.parse((await doctor(tree, tree.path("empty-bin"), true)).stdout) as {
      sandbox: { tier: string; enabled: boolean; pending: unknown[] };
    };
    expect(json.sandbox).toMatchObject({ tier: "none", enabled: true });
    expect(json.sandbox.pending).toHaveLength(1);
    if (HAS_RUNTIME) {
      const shown = await doctor(tree, PATH);
      expect(shown.stdout).toContain(
        `Sandbox: on (${settings}): Bash, inline shell and command hooks run in the OS sandbox`,
      );
    }
  });
});

describe.skipIf(!HAS_RUNTIME)(
  "a skill's inline shell and command hooks run in the same sandbox (issue 41)",
  () => {
    /** A skill whose inline shell and a UserPromptSubmit hook each write inside the project and to `outside`. */
    async function project(outside: { shell: string; hook: string }, sandbox: boolean) {
      const hook = {
        type: "command",
        command: `touch "$CLAUDE_PROJECT_DIR/hook-inside"; touch ${outside.hook}`,
      };
      const local = {
        ...(sandbox ? { sandbox: { enabled: true } } : {}),
        hooks: { UserPromptSubmit: [{ hooks: [hook] }] },
      };
      tree = await tmpTree({
        "home/.keep": "",
        "repo/.git": { dir: true },
        "repo/.claude/settings.local.json": JSON.stringify(local),
        "repo/.claude/skills/writer/SKILL.md":
          "---\ndescription: Writes two markers\nallowed-tools: Bash(sh:*)\n---\n" +
          `Before\n!\`sh -c 'touch shell-inside; touch ${outside.shell}'\`\nAfter\n`,
      });
      model = await startTestModel([
        toolTurn("Skill", { skill: "writer" }),
        textTurn("done", { hasToolResultFor: "Skill" }),
      ]);
      return { tree, model };
    }

    it.each([
      [true, false],
      [false, true],
    ])("sandbox %s: the writes outside the project land: %s", async (sandbox, outsideLands) => {
      const outside = { shell: outsideTemp(), hook: outsideTemp() };
      const { tree: t, model: m } = await project(outside, sandbox);
      const done = await run(t, m, PATH, ["--allowedTools", "Skill"]);
      expect(done.exitCode, done.stderr).toBe(0);
      expect(existsSync(t.path("repo/hook-inside"))).toBe(true);
      expect(existsSync(t.path("repo/shell-inside"))).toBe(true);
      expect(existsSync(outside.hook)).toBe(outsideLands);
      expect(existsSync(outside.shell)).toBe(outsideLands);
    });
  },
);
