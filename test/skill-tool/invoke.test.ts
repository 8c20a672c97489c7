// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { access, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { createModelClient } from "../../src/agent/model-client.js";
import type { TurnState } from "../../src/agent/turn-patch.js";
import type { RunContext } from "../../src/context.js";
import type { ForkOutcome, ForkRequest } from "../../src/fork/fork-request.js";
import { createHookRegistry, type HookRegistry } from "../../src/hooks/registry.js";
import { createHooksRunner } from "../../src/hooks/runner.js";
import type { HooksConfig } from "../../src/hooks/schema.js";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import type { AskPermission, PermissionRules } from "../../src/permissions/decision.js";
import { createSkillView } from "../../src/session/view.js";
import type { Skill } from "../../src/skill/skill.js";
import {
  type InvocationDeps,
  type InvocationRequest,
  invokeSkill,
  skillPatch,
} from "../../src/skill-tool/invoke.js";
import type { InvokedSkill } from "../../src/skill-tool/invoked-skill.js";
import { createLoadedSkills } from "../../src/skill-tool/reinvocation.js";
import type { UsageScores } from "../../src/usage.js";
import { makeSkill } from "../support/make-skill.js";

const NOW = Date.UTC(2025, 5, 1, 12);
const SESSION_MODEL = "claude-sonnet-5-5";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "skillwright-invoke-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Fixture {
  deps: InvocationDeps;
  hooks: HookRegistry;
  events: AgentEvent[];
  invocations: InvokedSkill[];
  usage: Array<{ name: string; now: number }>;
  forks: ForkRequest[];
  asked: Array<{ tool: string; prompt: string }>;
}

function fixture(
  options: {
    rules?: Partial<PermissionRules>;
    ask?: boolean;
    fork?: ForkOutcome;
    usageFails?: boolean;
    hookConfig?: HooksConfig;
  } = {},
): Fixture {
  const shell = createNodeShell();
  const hooks = createHookRegistry();
  if (options.hookConfig !== undefined) {
    hooks.register({ kind: "settings", name: "settings" }, options.hookConfig);
  }
  const f: Omit<Fixture, "deps"> = { hooks, events: [], invocations: [], usage: [], forks: [], asked: [] };
  const askPermission: AskPermission = async ({ tool, prompt }) => {
    f.asked.push({ tool, prompt });
    return options.ask === true;
  };
  const fs = createNodeFs();
  const context: RunContext = {
    sessionId: "session-1",
    cwd: dir,
    projectDir: dir,
    home: dir,
    env: {},
    fs,
    shell,
    client: createModelClient({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9" }),
    model: SESSION_MODEL,
    skills: createSkillView({ cwd: dir, skills: [] }),
    agents: [],
    tools: [],
    rules: { allow: [], deny: [], ask: [], ...options.rules },
    hooks,
    signal: new AbortController().signal,
    transcript: async () => {},
    depth: 0,
    now: () => NOW,
  };
  const deps: InvocationDeps = {
    context,
    policy: {
      rules: { allow: [], deny: [], ask: [], ...options.rules },
      cwd: dir,
      home: dir,
      ...(options.ask === undefined ? {} : { askPermission }),
    },
    runHooks: createHooksRunner(hooks, { shell, sessionId: "session-1", cwd: dir }, (message) =>
      f.events.push({ type: "warning", message }),
    ),
    usage: {
      load: async (): Promise<UsageScores> => new Map(),
      record: async (name, now) => {
        if (options.usageFails) throw new Error("disk full");
        f.usage.push({ name, now });
      },
    },
    emit: (event) => f.events.push(event),
    record: async (invocation) => {
      f.invocations.push(invocation);
    },
    loaded: createLoadedSkills(),
    runFork: async (request) => {
      f.forks.push(request);
      return options.fork ?? { ok: true, text: "forked", answer: "answer" };
    },
  };
  return { ...f, deps };
}

const TURN: TurnState = { model: SESSION_MODEL, grants: [], removedTools: [] };

function request(skill: Skill, extra: Partial<InvocationRequest> = {}): InvocationRequest {
  return {
    skill,
    args: "",
    origin: "model",
    turn: TURN,
    signal: new AbortController().signal,
    depth: 0,
    ...extra,
  };
}

function skill(fields: Partial<Skill> & { name: string; body?: string }): Skill {
  return makeSkill({ baseDir: join(dir, fields.name), root: dir, ...fields });
}

describe("skillPatch", () => {
  it.each([
    { case: "nothing", fields: {}, want: {} },
    {
      case: "model + effort, switching",
      fields: { model: "haiku", effort: "high" as const },
      want: { model: "haiku", effort: "high" },
    },
    {
      case: "model + effort, keeping the turn's model: effort only",
      fields: { model: "haiku", effort: "high" as const },
      keep: true,
      want: { effort: "high" },
    },
    { case: "inherit is no model", fields: { model: "inherit" }, want: {} },
    {
      case: "allowed-tools grant",
      fields: { allowedTools: ["Bash(git:*)"] },
      want: { grants: ["Bash(git:*)"] },
    },
    {
      case: "disallowed-tools remove",
      fields: { disallowedTools: ["Bash"] },
      want: { removeTools: ["Bash"], removedBy: "x" },
    },
  ])("$case", ({ fields, want, keep }) => {
    expect(skillPatch(makeSkill({ name: "x", ...fields }), keep !== true)).toEqual(want);
  });
});

describe("invokeSkill: inline", () => {
  it.each([
    { case: "a typed /name", origin: "user" as const, switchModel: false },
    { case: "skillModelSwitch", origin: "model" as const, switchModel: true },
  ])("$case switches the turn's model and sends no note", async ({ origin, switchModel }) => {
    const f = fixture();
    const s = skill({ name: "quick", body: "Q.", model: "haiku", effort: "high" });
    const outcome = await invokeSkill(request(s, { origin }), { ...f.deps, switchModel });
    expect(outcome).toMatchObject({ kind: "inline", patch: { model: "haiku", effort: "high" } });
    expect(outcome).not.toHaveProperty("modelNote");
  });

  it("no note when the skill's model is the turn's (alias or id) or inherit", async () => {
    const f = fixture();
    for (const model of ["inherit", SESSION_MODEL]) {
      const outcome = await invokeSkill(request(skill({ name: `same-${model}`, body: ".", model })), f.deps);
      expect(outcome).not.toHaveProperty("modelNote");
    }
  });

  it("expands with the Base directory line, records usage and the invocation, emits skill_invoked", async () => {
    const f = fixture();
    const s = skill({ name: "greet", body: "Hi $0 in ${CLAUDE_SKILL_DIR}.", model: "haiku" });
    const outcome = await invokeSkill(request(s, { args: "Bob", agentId: "fork-1" }), f.deps);
    const text = `Base directory for this skill: ${s.baseDir}\n\nHi Bob in ${s.baseDir}.`;
    // Model-invoked: the turn keeps its model; a note names the skill's (SPEC §5, as Claude Code does).
    expect(outcome).toEqual({
      kind: "inline",
      text,
      modelNote:
        '<system-reminder>The skill "greet" names the model claude-haiku-5-5; this conversation stays on ' +
        `${SESSION_MODEL}, so follow its instructions here.</system-reminder>`,
      patch: {},
    });
    expect(f.usage).toEqual([{ name: "greet", now: NOW }]);
    expect(f.invocations).toEqual([{ name: "greet", args: "Bob", text, at: NOW, agentId: "fork-1" }]);
    expect(f.events).toEqual([
      {
        type: "skill_invoked",
        agentId: "fork-1",
        name: "greet",
        args: "Bob",
        mode: "inline",
        source: s.source,
        trigger: "nested",
        expansionChars: text.length,
      },
    ]);
  });

  it("a legacy command expands to its body alone", async () => {
    const f = fixture();
    const outcome = await invokeSkill(
      request(skill({ name: "old", kind: "command", body: "Body $ARGUMENTS" }), { args: "x" }),
      f.deps,
    );
    expect(outcome).toMatchObject({ kind: "inline", text: "Body x" });
  });

  it("a literal body (MCP prompt) is fetched with the args and left unsubstituted", async () => {
    const f = fixture();
    const seen: Array<string | undefined> = [];
    const s = skill({
      name: "mcp__srv__p",
      source: "mcp",
      baseDir: "",
      literalBody: true,
      loadBody: async (_signal, args) => {
        seen.push(args);
        return "Prompt $ARGUMENTS !`echo no`";
      },
    });
    const outcome = await invokeSkill(request(s, { args: "a b" }), f.deps);
    expect(outcome).toMatchObject({ kind: "inline", text: "Prompt $ARGUMENTS !`echo no`" });
    expect(seen).toContain("a b");
  });

  it("an unreadable body refuses the call and records nothing", async () => {
    const f = fixture();
    const s = skill({
      name: "gone",
      loadBody: async () => {
        throw new Error("ENOENT: no such file");
      },
    });
    const outcome = await invokeSkill(request(s), f.deps);
    expect(outcome).toEqual({ kind: "refused", message: "Could not read skill gone: ENOENT: no such file" });
    expect([f.usage, f.invocations, f.events]).toEqual([[], [], []]);
  });

  it("a failing usage store does not fail the invocation", async () => {
    const f = fixture({ usageFails: true });
    const outcome = await invokeSkill(request(skill({ name: "ok", body: "Fine." })), f.deps);
    expect(outcome.kind).toBe("inline");
    expect(f.invocations).toHaveLength(1);
  });

  it("creates a plugin skill's data dir", async () => {
    const f = fixture();
    const dataDir = join(dir, "data", "plug");
    const s = skill({
      name: "plug:s",
      source: "plugin",
      plugin: { name: "plug", root: dir, dataDir },
      body: "x",
    });
    await invokeSkill(request(s), f.deps);
    await expect(access(dataDir)).resolves.toBeUndefined();
  });
});

describe("invokeSkill: inline shell", () => {
  const shelly = () => skill({ name: "shelly", allowedTools: ["Bash(echo:*)"], body: "Out: !`echo hi`" });

  it("runs with the skill's allowed-tools granted", async () => {
    const f = fixture({ rules: { allow: ["Skill(shelly)"] } });
    expect(await invokeSkill(request(shelly()), f.deps)).toMatchObject({
      kind: "inline",
      text: expect.stringContaining("Out: hi"),
    });
  });

  it("an earlier skill's scoped disallowed-tools deny the command (the Bash tool's check)", async () => {
    const f = fixture({ rules: { allow: ["Skill(shelly)"] } });
    const outcome = await invokeSkill(
      request(shelly(), { turn: { ...TURN, removedTools: ["Bash(echo:*)"] } }),
      f.deps,
    );
    expect(outcome).toEqual({
      kind: "refused",
      message:
        'Shell command permission check failed for pattern "!`echo hi`": Permission to use Bash(echo hi) was denied by the rule Bash(echo:*).',
      shell: true,
    });
    expect(f.usage).toEqual([]);
  });

  it("a settings deny rule beats the skill's grant", async () => {
    const f = fixture({ rules: { allow: ["Skill(shelly)"], deny: ["Bash(echo:*)"] } });
    expect((await invokeSkill(request(shelly()), f.deps)).kind).toBe("refused");
  });
});

describe("invokeSkill: permissions", () => {
  // Plugin skills: the sources the user put in place (project, user, …) are allowed without asking.
  const danger = () => skill({ name: "danger", source: "plugin", allowedTools: ["Bash"], body: "D." });

  it("model origin, headless: an unsafe skill is refused and leaves no trace", async () => {
    const f = fixture();
    const s = skill({
      name: "danger",
      source: "plugin",
      allowedTools: ["Bash"],
      hooks: { Stop: [] },
      body: "D.",
    });
    const outcome = await invokeSkill(request(s), f.deps);
    expect(outcome).toEqual({
      kind: "refused",
      message:
        "Allow Skill(danger)? The skill grants tools without asking, registers hooks. Permission was not granted (no one to ask: allow it with --allowedTools or a permissions.allow rule).",
    });
    expect([f.usage, f.invocations, f.events, f.hooks.all()]).toEqual([[], [], [], []]);
  });

  it.each([
    { answer: true, kind: "inline" },
    { answer: false, kind: "refused" },
  ])("model origin asks the host once (answer $answer)", async ({ answer, kind }) => {
    const f = fixture({ ask: answer });
    expect((await invokeSkill(request(danger()), f.deps)).kind).toBe(kind);
    expect(f.asked).toEqual([
      { tool: "Skill", prompt: "Allow Skill(danger)? The skill grants tools without asking." },
    ]);
  });

  it("user origin: typing /name is the yes an ask wants; the host is not asked", async () => {
    const f = fixture({ ask: false });
    expect((await invokeSkill(request(danger(), { origin: "user" }), f.deps)).kind).toBe("inline");
    expect(f.asked).toEqual([]);
  });

  it("user origin: a deny rule still refuses", async () => {
    const f = fixture({ rules: { deny: ["Skill(dan:*)"] } });
    expect(await invokeSkill(request(danger(), { origin: "user" }), f.deps)).toEqual({
      kind: "refused",
      message: "Permission to use Skill(danger) was denied by the rule Skill(dan:*).",
    });
  });

  it("a turn grant of Skill(name) allows it", async () => {
    const f = fixture();
    const outcome = await invokeSkill(
      request(danger(), { turn: { ...TURN, grants: ["Skill(danger)"] } }),
      f.deps,
    );
    expect(outcome.kind).toBe("inline");
  });

  it("an earlier skill's scoped disallowed-tools Skill(name) denies it for the turn", async () => {
    const f = fixture();
    const safe = skill({ name: "safe", body: "S." });
    const outcome = await invokeSkill(
      request(safe, { turn: { ...TURN, removedTools: ["Skill(safe)"] } }),
      f.deps,
    );
    expect(outcome).toEqual({
      kind: "refused",
      message: "Permission to use Skill(safe) was denied by the rule Skill(safe).",
    });
  });

  it("a safe skill runs without asking", async () => {
    const f = fixture({ ask: false });
    expect((await invokeSkill(request(skill({ name: "safe", body: "S." })), f.deps)).kind).toBe("inline");
    expect(f.asked).toEqual([]);
  });
});

describe("invokeSkill: hooks", () => {
  it("a PreToolUse hook on Skill that exits 2 refuses with its stderr; the skill's hooks are not registered", async () => {
    const f = fixture({
      hookConfig: {
        PreToolUse: [{ matcher: "Skill", hooks: [{ type: "command", command: "echo frozen >&2; exit 2" }] }],
      },
    });
    const s = skill({
      name: "h",
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
      body: "x",
    });
    const outcome = await invokeSkill(request(s, { origin: "user" }), f.deps);
    expect(outcome).toEqual({ kind: "refused", message: "PreToolUse hook blocked skill h: frozen" });
    expect(f.hooks.all().map((e) => e.source.kind)).toEqual(["settings"]);
    expect(f.usage).toEqual([]);
  });

  it("the hook gets the skill and args as tool_input", async () => {
    const log = join(dir, "hook.json");
    const f = fixture({
      hookConfig: {
        PreToolUse: [{ matcher: "Skill(greet)", hooks: [{ type: "command", command: `cat > '${log}'` }] }],
      },
    });
    await invokeSkill(request(skill({ name: "greet", body: "x" }), { args: "Bob" }), f.deps);
    expect(JSON.parse(await readFile(log, "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Skill",
      tool_input: { skill: "greet", args: "Bob" },
    });
  });

  it("registers the skill's hooks (once per skill, however often it runs), with its dir", async () => {
    const f = fixture({ rules: { allow: ["Skill(w)"] } });
    const s = skill({
      name: "w",
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] },
      body: "x",
    });
    await invokeSkill(request(s), f.deps);
    await invokeSkill(request(s), f.deps);
    expect(f.hooks.all()).toEqual([
      expect.objectContaining({
        event: "PreToolUse",
        matcher: "Bash",
        source: expect.objectContaining({ kind: "skill", name: "w", skillDir: s.baseDir }),
      }),
    ]);
  });

  it("invalid skill hooks become warnings, not failures", async () => {
    const f = fixture({ rules: { allow: ["Skill(bad)"] } });
    const s = skill({ name: "bad", hooks: { PreToolUse: "nope" }, body: "x" });
    expect((await invokeSkill(request(s), f.deps)).kind).toBe("inline");
    expect(f.events.some((e) => e.type === "warning")).toBe(true);
  });
});

describe("invokeSkill: fork", () => {
  it("hands the expanded task to runFork with the asking agent's depth and the main agent's current model", async () => {
    const f = fixture({
      rules: { allow: ["Skill(research)"] },
      fork: { ok: false, text: "Fork failed: no text" },
    });
    const s = skill({ name: "research", context: "fork", body: "Find $ARGUMENTS." });
    const turn = { ...TURN, model: "claude-haiku-5-5" };
    const outcome = await invokeSkill(request(s, { args: "bugs", depth: 2, turn }), f.deps);
    expect(outcome).toEqual({ kind: "fork", outcome: { ok: false, text: "Fork failed: no text" } });
    expect(f.forks).toEqual([
      expect.objectContaining({
        skill: s,
        args: "bugs",
        task: `Base directory for this skill: ${s.baseDir}\n\nFind bugs.`,
        depth: 2,
        sessionModel: "claude-haiku-5-5",
      }),
    ]);
    expect(f.events).toEqual([
      {
        type: "skill_invoked",
        name: "research",
        args: "bugs",
        mode: "fork",
        source: s.source,
        trigger: "model",
        expansionChars: `Base directory for this skill: ${s.baseDir}\n\nFind bugs.`.length,
      },
    ]);
  });

  it("a plugin fork skill is unsafe: headless without a rule it is refused and never forks", async () => {
    const f = fixture();
    const outcome = await invokeSkill(
      request(skill({ name: "research", source: "plugin", context: "fork", body: "x" })),
      f.deps,
    );
    expect(outcome.kind).toBe("refused");
    expect(f.forks).toEqual([]);
  });
});
