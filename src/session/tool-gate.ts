import type { ToolGate } from "../agent/loop.js";
import type { RunHooks } from "../hooks/runner.js";
import { decide } from "../permissions/decide.js";
import { readRuleDecision, stricter } from "../permissions/file-reads.js";
import {
  denialText,
  type PermissionPolicy,
  permissionSubject,
  settle,
  withTurnDenials,
} from "../permissions/policy.js";
import { notLoadedText } from "../skill-tool/owned-tools.js";

/** The Skill tool runs its own permission and hook checks (one pipeline for both invocation paths). */
export const SELF_GATED_TOOLS: ReadonlySet<string> = new Set(["Skill"]);

/** `agent_id` for a sub-agent's call (Claude Code's field), nothing for the main agent's. */
function agentField(call: { agentId?: string }): { agent_id?: string } {
  return call.agentId === undefined ? {} : { agent_id: call.agentId };
}

/** Whether skill `skill` is loaded in the conversation of `agentId` (undefined: the main agent's). */
export type SkillLoaded = (agentId: string | undefined, skill: string) => boolean;

/**
 * The gate around every tool call except the Skill tool: a skill's own tool (`owner`) is refused, naming the
 * skill to load, until `loaded` says that skill is loaded in the caller's conversation; then PreToolUse hooks first (a block or a hook `deny`
 * stops the call; a hook `allow` answers an `ask`), then `decide()` with the turn's grants (deny rules always
 * win) and the `Read` rules over any file the call reads (`policy.filesRead`: the stricter decision wins), then
 * PermissionRequest hooks and the host's `askPermission` for an `ask`; a call the permissions deny (a rule, a
 * hook's PermissionRequest answer, the user, or headless mode) fires PermissionDenied. After the call,
 * PostToolUse hooks (PostToolUseFailure when the call failed) may add context for the model; once a batch of
 * calls has resolved, PostToolBatch hooks may add context or stop the loop before the next request. An allowed call
 * (the Skill tool's too) waits for `policy.beforeRun` before it runs.
 */
export function createToolGate(policy: PermissionPolicy, runHooks: RunHooks, loaded?: SkillLoaded): ToolGate {
  return {
    async ready(call) {
      await policy.beforeRun?.({ id: call.id, name: call.tool.name, agentId: call.agentId }, call.signal);
    },
    async before(call) {
      if (SELF_GATED_TOOLS.has(call.tool.name)) return { behavior: "allow" };
      const owner = call.tool.owner;
      if (owner !== undefined && loaded !== undefined && !loaded(call.agentId, owner)) {
        return { behavior: "deny", message: notLoadedText(call.tool.name, owner) };
      }
      const hook = await runHooks(
        "PreToolUse",
        { tool_name: call.tool.name, tool_input: call.input, tool_use_id: call.id, ...agentField(call) },
        call.signal,
      );
      if (hook.blocked !== undefined) {
        return {
          behavior: "deny",
          message: `PreToolUse hook blocked ${call.tool.name}: ${hook.blocked.reason}`,
        };
      }
      const subject = permissionSubject(call.tool, call.input, policy.cwd, policy.home);
      const rules = withTurnDenials(policy.rules, call.turn.removedTools);
      let decision = decide({
        rules,
        grants: call.turn.grants,
        tool: call.tool.name,
        subject,
        cwd: policy.cwd,
        home: policy.home,
        // A skill's own tool runs without a question once its skill (trusted to load) is loaded; rules still apply.
        readOnly: call.tool.readOnly || owner !== undefined,
      });
      // A file the call reads (a skill's reference file) is under the Read rules that cover it: deny wins.
      for (const path of policy.filesRead?.(call.tool.name, call.input) ?? []) {
        decision = stricter(decision, readRuleDecision(rules, path, policy));
      }
      if (decision.behavior === "ask" && hook.permission?.decision === "allow")
        decision = { behavior: "allow" };
      if (decision.behavior === "allow" && hook.permission?.decision === "ask") {
        decision = { behavior: "ask", prompt: hook.permission.reason ?? `Allow ${call.tool.name}?` };
      }
      decision = await settle(decision, call.tool.name, policy, call.signal, call.input, call.id);
      if (decision.behavior === "allow") return { behavior: "allow" };
      const message = denialText(decision);
      // Claude Code's PermissionDenied payload; the hooks' answer changes nothing (the call is denied).
      await runHooks(
        "PermissionDenied",
        {
          tool_name: call.tool.name,
          tool_input: call.input,
          tool_use_id: call.id,
          reason: message,
          ...agentField(call),
        },
        call.signal,
      );
      return { behavior: "deny", message };
    },
    async after(call, result) {
      const text = result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
      if (result.isError) {
        // Claude Code's split: PostToolUse after a call that succeeded, PostToolUseFailure after one that failed.
        const failure = await runHooks(
          "PostToolUseFailure",
          {
            tool_name: call.tool.name,
            tool_input: call.input,
            tool_use_id: call.id,
            error: text,
            is_interrupt: call.signal.aborted,
            ...agentField(call),
          },
          call.signal,
        );
        const extra = [...failure.additionalContext];
        if (failure.blocked !== undefined)
          extra.push(`PostToolUseFailure hook feedback: ${failure.blocked.reason}`);
        return extra;
      }
      const hook = await runHooks(
        "PostToolUse",
        {
          tool_name: call.tool.name,
          tool_input: call.input,
          tool_use_id: call.id,
          tool_response: text,
          ...agentField(call),
        },
        call.signal,
      );
      const extra = [...hook.additionalContext];
      if (hook.blocked !== undefined) extra.push(`PostToolUse hook feedback: ${hook.blocked.reason}`);
      return extra;
    },
    async afterBatch(calls, signal, agentId) {
      const hook = await runHooks(
        "PostToolBatch",
        {
          tool_calls: calls.map((c) => ({
            tool_name: c.name,
            tool_input: c.input,
            tool_use_id: c.id,
            tool_response: c.response,
          })),
          ...agentField({ ...(agentId === undefined ? {} : { agentId }) }),
        },
        signal,
      );
      const reason = hook.blocked?.reason ?? (hook.stop === undefined ? undefined : (hook.stop.reason ?? ""));
      if (reason === undefined) return { context: hook.additionalContext };
      const stop = `PostToolBatch hook stopped the agent${reason === "" ? "." : `: ${reason}`}`;
      return { context: hook.additionalContext, stop };
    },
  };
}
