/**
 * Hooks in a project's committed settings (`.claude/settings.json`, `.skillwright/settings.json`) come with a
 * cloned repository: they run only once the user's own settings set `enableProjectHooks: true`
 * (`skillwright hooks approve`). Hooks in user settings and `.claude/settings.local.json` always run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings-schema.js";
import { approvedSettingsHooks } from "../../src/hooks/settings-hooks.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

const USER = "/home/u/.claude/settings.json";
const COMMITTED = "/repo/.claude/settings.json";
const LOCAL = "/repo/.claude/settings.local.json";
const TRUSTED = [USER, LOCAL];
const hook = (command: string): Settings["hooks"] => ({
  UserPromptSubmit: [{ hooks: [{ type: "command", command }] }],
});

describe("approvedSettingsHooks (pure)", () => {
  it.each<{
    case: string;
    layers: { path: string; settings: Settings }[];
    commands: string[];
    pending: string[];
  }>([
    {
      case: "user and local hooks run; the committed file's wait",
      layers: [
        { path: USER, settings: { hooks: hook("user") } },
        { path: COMMITTED, settings: { hooks: hook("repo") } },
        { path: LOCAL, settings: { hooks: hook("local") } },
      ],
      commands: ["user", "local"],
      pending: [COMMITTED],
    },
    {
      case: "enableProjectHooks in local settings approves the committed file",
      layers: [
        { path: COMMITTED, settings: { hooks: hook("repo") } },
        { path: LOCAL, settings: { enableProjectHooks: true } },
      ],
      commands: ["repo"],
      pending: [],
    },
    {
      case: "the committed file cannot approve itself",
      layers: [{ path: COMMITTED, settings: { hooks: hook("repo"), enableProjectHooks: true } }],
      commands: [],
      pending: [COMMITTED],
    },
    {
      case: "a later trusted false takes an earlier true back",
      layers: [
        { path: USER, settings: { enableProjectHooks: true } },
        { path: COMMITTED, settings: { hooks: hook("repo") } },
        { path: LOCAL, settings: { enableProjectHooks: false } },
      ],
      commands: [],
      pending: [COMMITTED],
    },
  ])("$case", ({ layers, commands, pending }) => {
    const got = approvedSettingsHooks(layers, TRUSTED);
    const groups = (got.hooks?.UserPromptSubmit ?? []) as { hooks: { command: string }[] }[];
    const ran = groups.flatMap((g) => g.hooks.map((h) => h.command));
    expect(ran).toEqual(commands);
    expect(got.pending).toEqual(pending);
  });
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  tree = undefined;
  model = undefined;
});

describe("the shipped bin: a cloned repo's settings hooks wait for skillwright hooks approve", () => {
  it("doctor names them, -p does not run them until approved, the repo cannot approve itself", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true }, "home/.keep": "" });
    const t = tree;
    const marker = t.path("HOOK_RAN");
    mkdirSync(t.path("repo/.claude"), { recursive: true });
    writeFileSync(
      t.path("repo/.claude/settings.json"),
      JSON.stringify({ enableProjectHooks: true, hooks: hook(`touch '${marker}'`) }),
    );
    model = await startTestModel([textTurn("hello", undefined)]);
    const env = { ANTHROPIC_BASE_URL: model.server.url, ANTHROPIC_API_KEY: TEST_API_KEY };
    const run = (args: string[]) =>
      execa(process.execPath, [BIN, ...args, "--cwd", t.path("repo"), "--home", t.path("home")], {
        env: { PATH: process.env.PATH ?? "", SKILLWRIGHT_MANAGED_DIR: t.path("managed"), ...env },
        extendEnv: false,
        reject: false,
      });

    const doctor = await run(["doctor", "--json"]);
    const report = JSON.parse(doctor.stdout) as { diagnostics: { code: string; path?: string }[] };
    expect(report.diagnostics.filter((d) => d.code === "hooks-unapproved").map((d) => d.path)).toEqual([
      t.path("repo/.claude/settings.json"),
    ]);

    const first = await run(["-p", "hi"]);
    expect(first.stdout).toBe("hello");
    expect(first.stderr).toContain("skillwright hooks approve");
    expect(existsSync(marker)).toBe(false);

    writeFileSync(t.path("repo/.claude/settings.local.json"), JSON.stringify({ model: "sonnet" }));
    const approve = await run(["hooks", "approve"]);
    expect(approve.exitCode, approve.stderr).toBe(0);
    expect(JSON.parse(readFileSync(t.path("repo/.claude/settings.local.json"), "utf8"))).toEqual({
      model: "sonnet",
      enableProjectHooks: true,
    });

    const second = await run(["-p", "hi"]);
    expect(second.stderr).not.toContain("skillwright hooks approve");
    expect(existsSync(marker)).toBe(true);
  });
});
