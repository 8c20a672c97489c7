// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  expandSkill,
  mayRunInlineShell,
  type SkillInvocation,
  skillVars,
} from "../../src/inline/expand-skill.js";
import { createNodeShell } from "../../src/io/shell.js";
import type { Skill } from "../../src/skill/skill.js";

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "sw-expand-")));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type TestSkill = Parameters<typeof expandSkill>[0];

function skill(body: string, overrides: Partial<TestSkill> = {}): TestSkill {
  return {
    name: "demo",
    kind: "skill",
    source: "project",
    baseDir: "/skills/demo",
    argumentNames: [],
    shell: "bash",
    loadBody: async () => body,
    ...overrides,
  };
}

function invocation(overrides: Partial<SkillInvocation> = {}): SkillInvocation {
  return {
    args: "",
    sessionId: "S1",
    projectDir: dir,
    shellOps: createNodeShell(),
    checkCommand: async () => ({ behavior: "allow" }),
    ...overrides,
  };
}

describe("skillVars", () => {
  const plugin: Skill["plugin"] = { name: "p", root: "/plug", dataDir: "/data/p" };
  it.each<[string, Pick<Skill, "kind" | "baseDir" | "plugin">, ReturnType<typeof skillVars>]>([
    [
      "directory skill",
      { kind: "skill", baseDir: "/s" },
      { skillDir: "/s", sessionId: "S1", projectDir: "/p", pluginRoot: undefined, pluginData: undefined },
    ],
    [
      "legacy command has no skill dir",
      { kind: "command", baseDir: "/c" },
      {
        skillDir: undefined,
        sessionId: "S1",
        projectDir: "/p",
        pluginRoot: undefined,
        pluginData: undefined,
      },
    ],
    [
      "plugin skill",
      { kind: "skill", baseDir: "/plug/skills/x", plugin },
      {
        skillDir: "/plug/skills/x",
        sessionId: "S1",
        projectDir: "/p",
        pluginRoot: "/plug",
        pluginData: "/data/p",
      },
    ],
  ])("%s", (_name, input, expected) => {
    expect(skillVars(input, { sessionId: "S1", projectDir: "/p" })).toEqual(expected);
  });
});

describe("mayRunInlineShell", () => {
  it.each<[Pick<Skill, "source" | "mcpServer">, boolean]>([
    [{ source: "project" }, true],
    [{ source: "bundled" }, true],
    [{ source: "mcp", mcpServer: "srv" }, false],
    [{ source: "plugin", mcpServer: "srv" }, false],
  ])("%j → %s", (input, expected) => {
    expect(mayRunInlineShell(input)).toBe(expected);
  });
});

describe("expandSkill", () => {
  it("uses the skill's names, vars and shell, and runs in the project dir", async () => {
    const body =
      "Dir ${CLAUDE_SKILL_DIR}, session ${CLAUDE_SESSION_ID}, target $target: !`echo $target; pwd`";
    const result = await expandSkill(
      skill(body, { argumentNames: ["target"] }),
      invocation({ args: "prod" }),
    );
    expect(result).toEqual({ ok: true, text: `Dir /skills/demo, session S1, target prod: prod\n${dir}` });
  });

  it("leaves the markers of an MCP skill literal", async () => {
    const result = await expandSkill(skill("!`touch x`", { source: "mcp", mcpServer: "srv" }), invocation());
    expect(result).toEqual({ ok: true, text: "!`touch x`" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("reports an unreadable body instead of rejecting", async () => {
    const gone = skill("", {
      loadBody: async () => {
        throw new Error("ENOENT: gone");
      },
    });
    expect(await expandSkill(gone, invocation())).toEqual({
      ok: false,
      message: "Could not read skill demo: ENOENT: gone",
    });
  });
});
