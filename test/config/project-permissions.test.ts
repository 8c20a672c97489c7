/**
 * Permission grants in a project's committed settings (`allow` rules, `additionalDirectories`) come with a cloned
 * repository: they apply only once the user's own settings set `enableProjectPermissions: true`
 * (`skillwright permissions approve`). `deny` and `ask` rules apply from every file; the user's files grant.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { approvedPermissions } from "../../src/config/project-permissions.js";
import type { Settings } from "../../src/config/settings-schema.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

const USER = "/home/u/.claude/settings.json";
const COMMITTED = "/repo/.claude/settings.json";
const LOCAL = "/repo/.claude/settings.local.json";
const TRUSTED = [USER, LOCAL];
const perms = (permissions: NonNullable<Settings["permissions"]>, extra: Settings = {}): Settings => ({
  ...extra,
  permissions,
});

describe("approvedPermissions (pure)", () => {
  it("holds back a committed file's allow rules and additionalDirectories, keeps its deny and ask rules", () => {
    const result = approvedPermissions(
      [
        { path: USER, settings: perms({ allow: ["Read"] }) },
        {
          path: COMMITTED,
          settings: perms({
            allow: ["Bash"],
            deny: ["Bash(rm *)"],
            ask: ["Write"],
            additionalDirectories: ["~"],
          }),
        },
        { path: LOCAL, settings: perms({ allow: ["Edit"], additionalDirectories: ["../lib"] }) },
      ],
      TRUSTED,
    );
    expect(result.rules).toEqual({ allow: ["Read", "Edit"], deny: ["Bash(rm *)"], ask: ["Write"] });
    expect(result.additionalDirectories).toEqual(["../lib"]);
    expect(result.pending).toEqual([{ file: COMMITTED, allow: ["Bash"], additionalDirectories: ["~"] }]);
    expect(result.approvedBy).toBeUndefined();
  });

  it("applies them, in layer order, once a user or local file sets enableProjectPermissions", () => {
    const result = approvedPermissions(
      [
        { path: USER, settings: perms({ allow: ["Read"] }) },
        { path: COMMITTED, settings: perms({ allow: ["Bash(npm test)"], additionalDirectories: ["../x"] }) },
        { path: LOCAL, settings: { enableProjectPermissions: true } },
      ],
      TRUSTED,
    );
    expect(result.rules.allow).toEqual(["Read", "Bash(npm test)"]);
    expect(result.additionalDirectories).toEqual(["../x"]);
    expect(result.pending).toEqual([]);
    expect(result.approvedBy).toBe(LOCAL);
  });

  it("a committed file cannot approve itself; a later false takes an approval back", () => {
    const self = approvedPermissions(
      [{ path: COMMITTED, settings: perms({ allow: ["Bash"] }, { enableProjectPermissions: true }) }],
      TRUSTED,
    );
    expect(self.rules.allow).toEqual([]);
    expect(self.pending.map((p) => p.file)).toEqual([COMMITTED]);
    const revoked = approvedPermissions(
      [
        { path: USER, settings: { enableProjectPermissions: true } },
        { path: COMMITTED, settings: perms({ allow: ["Bash"] }) },
        { path: LOCAL, settings: { enableProjectPermissions: false } },
      ],
      TRUSTED,
    );
    expect(revoked.rules.allow).toEqual([]);
  });

  it("enableProjectHooks does not approve permission grants", () => {
    const result = approvedPermissions(
      [
        { path: COMMITTED, settings: perms({ allow: ["Bash"] }) },
        { path: LOCAL, settings: { enableProjectHooks: true } },
      ],
      TRUSTED,
    );
    expect(result.rules.allow).toEqual([]);
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

describe("the shipped bin: a cloned repo's allow rules wait for skillwright permissions approve", () => {
  it("doctor names them, -p refuses the command until approved, then runs it", async () => {
    tree = await tmpTree({ "repo/.git": { dir: true }, "home/.keep": "" });
    const t = tree;
    const marker = t.path("repo/GRANTED");
    mkdirSync(t.path("repo/.claude"), { recursive: true });
    writeFileSync(
      t.path("repo/.claude/settings.json"),
      JSON.stringify({ enableProjectPermissions: true, permissions: { allow: ["Bash(touch *)"] } }),
    );
    const call = toolTurn("Bash", { command: `touch '${marker}'` });
    model = await startTestModel([call, textTurn("done"), call, textTurn("done")]);
    const env = { ANTHROPIC_BASE_URL: model.server.url, ANTHROPIC_API_KEY: TEST_API_KEY };
    const run = (args: string[]) =>
      execa(process.execPath, [BIN, ...args, "--cwd", t.path("repo"), "--home", t.path("home")], {
        env: { PATH: process.env.PATH ?? "", SKILLWRIGHT_MANAGED_DIR: t.path("managed"), ...env },
        extendEnv: false,
        reject: false,
      });

    const doctor = await run(["doctor", "--json"]);
    const report = JSON.parse(doctor.stdout) as {
      diagnostics: { code: string; path?: string; message: string }[];
    };
    const unapproved = report.diagnostics.filter((d) => d.code === "permissions-unapproved");
    expect(unapproved.map((d) => d.path)).toEqual([t.path("repo/.claude/settings.json")]);
    expect(unapproved[0]?.message).toContain("Bash(touch *)");

    const first = await run(["-p", "touch it"]);
    expect(first.stderr).toContain("skillwright permissions approve");
    expect(existsSync(marker)).toBe(false);
    const refused = JSON.stringify(model.server.requests[1]?.body ?? {});
    expect(refused).toContain(`touch in '${marker}' needs approval.`);

    const approve = await run(["permissions", "approve"]);
    expect(approve.exitCode, approve.stderr).toBe(0);
    expect(approve.stdout).toContain("Bash(touch *)");
    expect(JSON.parse(readFileSync(t.path("repo/.claude/settings.local.json"), "utf8"))).toEqual({
      enableProjectPermissions: true,
    });

    const second = await run(["-p", "touch it"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("skillwright permissions approve");
    expect(existsSync(marker)).toBe(true);
  });
});
