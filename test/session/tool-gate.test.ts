import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/agent/loop.js";
import type { HookDispatchResult } from "../../src/hooks/dispatch.js";
import type { RunHooks } from "../../src/hooks/runner.js";
import { createNodeShell } from "../../src/io/shell.js";
import type { AskPermission, PermissionRules } from "../../src/permissions/decision.js";
import { permissionSubject } from "../../src/permissions/policy.js";
import { createToolGate } from "../../src/session/tool-gate.js";
import { createBashTool } from "../../src/tools/bash.js";
import { createLoadReferenceTool } from "../../src/tools/load-reference.js";

const NO_HOOKS: RunHooks = async (): Promise<HookDispatchResult> => ({
  additionalContext: [],
  warnings: [],
  systemMessages: [],
  runs: [],
});

const bashCall = (
  command: string,
  input: Record<string, unknown> = { description: "write a file" },
): ToolCall => ({
  id: "toolu_1",
  tool: createBashTool({ shell: createNodeShell() }),
  input: { command, ...input },
  turn: { model: "m", grants: [], removedTools: [] },
  signal: new AbortController().signal,
});

const RULES: PermissionRules = { allow: ["Bash(echo:*)"], deny: [], ask: [] };
const REASON =
  "echo in '/elsewhere/file' needs approval. For security, commands may only write to files in the allowed " +
  "working directories for this session without asking: '/repo'. Add the directory with --add-dir or " +
  "permissions.additionalDirectories to allow it.";

describe("the tool gate on a write out of the project (issue 16.6, SPEC §14.9)", () => {
  it("asks the host, with the reason in the question, and follows the answer", async () => {
    for (const answer of [true, false]) {
      const prompts: string[] = [];
      const askPermission: AskPermission = async ({ prompt }) => {
        prompts.push(prompt);
        return answer;
      };
      const gate = createToolGate({ rules: RULES, cwd: "/repo", home: "/home/u", askPermission }, NO_HOOKS);
      const decision = await gate.before(bashCall("echo x > /elsewhere/file"));
      expect(prompts).toEqual([`Allow Bash(echo x > /elsewhere/file)? ${REASON}`]);
      expect(decision).toEqual(
        answer ? { behavior: "allow" } : { behavior: "deny", message: "The user denied permission." },
      );
    }
  });

  it("headless, refuses with the reason alone (it says what needs approval)", async () => {
    const gate = createToolGate({ rules: RULES, cwd: "/repo", home: "/home/u" }, NO_HOOKS);
    expect(await gate.before(bashCall("echo x > /elsewhere/file"))).toEqual({
      behavior: "deny",
      message: REASON,
    });
  });

  it("does not ask for a write inside the project that a rule covers", async () => {
    const askPermission: AskPermission = async () => {
      throw new Error("not asked");
    };
    const gate = createToolGate({ rules: RULES, cwd: "/repo", home: "/home/u", askPermission }, NO_HOOKS);
    expect(await gate.before(bashCall("echo x > notes.txt"))).toEqual({ behavior: "allow" });
  });
});

describe("scoped Bash rules match the call Claude's model sends (issue 11.6)", () => {
  const CLAUDE_INPUTS = [
    { description: "make a file" },
    { description: "make a file", timeout: 120_000 },
    { description: "make a file", run_in_background: false, unknown_future_key: 1 },
  ];

  it.each(CLAUDE_INPUTS)("the subject of %j is the command", (extra) => {
    const tool = createBashTool({ shell: createNodeShell() });
    expect(permissionSubject(tool, { command: "touch x", ...extra }, "/repo")).toEqual({
      kind: "command",
      command: "touch x",
    });
  });

  it.each(CLAUDE_INPUTS)("Bash(touch:*) allows %j headless", async (extra) => {
    const rules: PermissionRules = { allow: ["Bash(touch:*)"], deny: [], ask: [] };
    const gate = createToolGate({ rules, cwd: "/repo", home: "/home/u" }, NO_HOOKS);
    expect(await gate.before(bashCall("touch x", extra))).toEqual({ behavior: "allow" });
  });
});

describe("the tool gate on a call that reads a file besides its subject (load_reference)", () => {
  const refCall = (): ToolCall => ({
    id: "toolu_2",
    tool: createLoadReferenceTool({ skills: () => [] }),
    input: { skill: "docs", name: "secret.env" },
    turn: { model: "m", grants: ["load_reference"], removedTools: [] },
    signal: new AbortController().signal,
  });
  const filesRead = (tool: string) => (tool === "load_reference" ? ["/repo/skills/docs/secret.env"] : []);

  it("a Read deny rule on that file denies, even with load_reference allowed and granted", async () => {
    const rules: PermissionRules = {
      allow: ["load_reference"],
      deny: ["Read(//repo/skills/**/*.env)"],
      ask: [],
    };
    const gate = createToolGate({ rules, cwd: "/repo", home: "/home/u", filesRead }, NO_HOOKS);
    expect(await gate.before(refCall())).toEqual({
      behavior: "deny",
      message:
        "Permission to use Read(/repo/skills/docs/secret.env) was denied by the rule Read(//repo/skills/**/*.env).",
    });
  });

  it("a Read ask rule asks; Read rules on other files and no rules leave it allowed", async () => {
    const prompts: string[] = [];
    const askPermission: AskPermission = async ({ prompt }) => {
      prompts.push(prompt);
      return true;
    };
    const ask: PermissionRules = { allow: [], deny: [], ask: ["Read(//repo/skills/docs/secret.env)"] };
    const gate = createToolGate(
      { rules: ask, cwd: "/repo", home: "/home/u", askPermission, filesRead },
      NO_HOOKS,
    );
    expect(await gate.before(refCall())).toEqual({ behavior: "allow" });
    expect(prompts).toEqual([
      "Allow Read(/repo/skills/docs/secret.env)? (the rule Read(//repo/skills/docs/secret.env) asks to confirm)",
    ]);
    const other: PermissionRules = { allow: [], deny: ["Read(//repo/src/**)"], ask: [] };
    const quiet = createToolGate({ rules: other, cwd: "/repo", home: "/home/u", filesRead }, NO_HOOKS);
    expect(await quiet.before(refCall())).toEqual({ behavior: "allow" });
  });
});
