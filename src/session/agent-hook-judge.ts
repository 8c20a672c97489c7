import { randomUUID } from "node:crypto";
import { executeAgent, type ToolGate } from "../agent/loop.js";
import type { ModelClient } from "../agent/model-client.js";
import type { PromptJudge } from "../hooks/run-prompt-hook.js";
import type { FsOps } from "../io/fs.js";
import { resolveModel } from "../models.js";
import { decide } from "../permissions/decide.js";
import type { PermissionRules } from "../permissions/decision.js";
import { denialText, permissionSubject } from "../permissions/policy.js";
import { createBuiltinTools } from "../tools/builtin.js";

/** The only tools an agent hook's sub-agent gets: it checks the work, never changes it. */
export const AGENT_HOOK_TOOL_NAMES = ["Read", "Grep", "Glob", "LS"] as const;

/** The most model requests one agent hook's sub-agent makes (its tool rounds included), as Claude Code's. */
export const AGENT_HOOK_MAX_TURNS = 50;

/** What an agent hook's sub-agent reads with: the session's file system, working directory and rules. */
export interface AgentHookFiles {
  fs: FsOps;
  cwd: string;
  home: string;
  /** The session's permission rules in force now. */
  rules: () => PermissionRules;
}

/**
 * The gate of an agent hook's sub-agent: it reads what the session's agent may read without a question (inside
 * the working directory, or what an allow rule covers; deny rules first), and nothing else: there is no one to
 * ask, and a prompt-injected event must not steer it to the user's other files.
 */
export function agentHookGate(files: AgentHookFiles): ToolGate {
  return {
    async before(call) {
      const decision = decide({
        rules: files.rules(),
        tool: call.tool.name,
        subject: permissionSubject(call.tool, call.input, files.cwd, files.home),
        cwd: files.cwd,
        home: files.home,
        readOnly: true,
      });
      if (decision.behavior === "allow") return { behavior: "allow" };
      return { behavior: "deny", message: `An agent hook reads without asking: ${denialText(decision)}` };
    },
  };
}

/**
 * The session's judge for `type: agent` hooks: a sub-agent in a fresh conversation of one user message (the
 * hook's prompt with the event), with the read-only tools {@link AGENT_HOOK_TOOL_NAMES} over `files` behind
 * {@link agentHookGate}, on the
 * hook's `model` (an alias resolved) or else `sessionModel`, at most {@link AGENT_HOOK_MAX_TURNS} requests; its
 * requests carry its own agent id (`hook-…`). Gives its final text; rejects when it fails or is aborted (the hook
 * runner turns that into a warning).
 */
export function agentHookJudge(
  client: ModelClient,
  sessionModel: string,
  files: AgentHookFiles,
): PromptJudge {
  return async (request, signal) => {
    const tools = createBuiltinTools({ fs: files.fs, homeDir: files.home }).filter((t) =>
      (AGENT_HOOK_TOOL_NAMES as readonly string[]).includes(t.name),
    );
    const result = await executeAgent(
      {
        client,
        system: request.system,
        tools,
        messages: [{ role: "user", content: request.prompt }],
        turn: {
          model: request.model === undefined ? sessionModel : resolveModel(request.model),
          grants: [],
          removedTools: [],
        },
        maxTokens: request.maxTokens,
        maxTurns: AGENT_HOOK_MAX_TURNS,
        cwd: files.cwd,
        gate: agentHookGate(files),
        signal,
        agentId: `hook-${randomUUID().slice(0, 8)}`,
      },
      () => {},
    );
    if (result.error !== undefined) throw result.error;
    if (result.cause === "aborted" || signal.aborted) throw new Error("the sub-agent was aborted");
    return result.text;
  };
}
