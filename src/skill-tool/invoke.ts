import type { AgentEvent } from "../agent/events.js";
import type { TurnPatch, TurnState } from "../agent/turn-patch.js";
import { type ApprovalState, capabilityBody, type SkillApprovals } from "../approvals/skill-approvals.js";
import type { RunContext } from "../context.js";
import type { ForkOutcome, ForkRequest } from "../fork/fork-request.js";
import { userPromptExpansionPayload } from "../hooks/prompt-expansion.js";
import type { RunHooks } from "../hooks/runner.js";
import { registerSkillHooks } from "../hooks/skill-hooks.js";
import { expandSkill } from "../inline/expand-skill.js";
import type { InlineExpansion } from "../inline/inline-shell.js";
import { skillExpansionText } from "../inline/render.js";
import { hasInlineShell } from "../inline/shell-regions.js";
import { resolveModel } from "../models.js";
import type { PermissionRules } from "../permissions/decision.js";
import {
  denialText,
  inlineShellCheck,
  type PermissionPolicy,
  settle,
  withTurnDenials,
} from "../permissions/policy.js";
import type { Skill, SkillTrigger } from "../skill/skill.js";
import { namesReferences, referenceSection } from "../sources/reference-section.js";
import type { UsageStore } from "../usage.js";
import type { InvokedSkill } from "./invoked-skill.js";
import { decideSkill, needsApproval } from "./permissions.js";
import { invocationText, type LoadedSkills } from "./reinvocation.js";

/** Who invoked a skill: the model through the Skill tool, or a person typing `/name`. */
export type InvocationOrigin = "model" | "user";

/**
 * What the one invocation pipeline needs from its session: the session's `RunContext` (session id, project
 * dir, fs, shell, hook registry, clock) and the few things a context does not hold.
 */
export interface InvocationDeps {
  context: RunContext;
  /** The session's permission policy (its rules, the host's ask, PermissionRequest hooks). */
  policy: PermissionPolicy;
  runHooks: RunHooks;
  usage: UsageStore;
  /**
   * Content-pinned approvals of project, plugin and MCP skills: checked before such a skill runs, recorded when
   * the user says yes (or types `/name`). Absent: every such skill is asked about as never approved.
   */
  approvals?: SkillApprovals;
  emit: (event: AgentEvent) => void;
  /** Logs the invocation (invoked-skill log and transcript). */
  record: (invocation: InvokedSkill) => Promise<void>;
  /** The expansions each conversation already holds, for re-invocations (SPEC §14.3). */
  loaded: LoadedSkills;
  /**
   * Whether a model-invoked skill's `model:` switches the turn's model (a typed `/name` always does). False: the
   * request model stays and a note names the skill's model (Claude Code's behaviour, which keeps the cache).
   */
  switchModel?: boolean;
  runFork: (request: ForkRequest) => Promise<ForkOutcome>;
}

export interface InvocationRequest {
  skill: Skill;
  /** The name as called, leading `/` stripped (an alias stays the alias); default `skill.name`. */
  name?: string;
  args: string;
  origin: InvocationOrigin;
  turn: TurnState;
  signal: AbortSignal;
  agentId?: string;
  depth: number;
}

/** The outcome of the pipeline: refused (with the reason), expanded inline, or run as a fork. */
export type InvocationOutcome =
  | {
      kind: "refused";
      message: string /** An inline shell failure: sent without `<tool_use_error>` (§14.9). */;
      shell?: true;
    }
  /**
   * `text` is one text block; `note` (a re-invocation, SPEC §14.3) a text block of its own before it;
   * `modelNote` (the skill's model, not switched to: SPEC §5) a text block after it.
   */
  | { kind: "inline"; note?: string; text: string; modelNote?: string; patch: TurnPatch }
  | { kind: "fork"; outcome: ForkOutcome };

/**
 * The turn patch an inline skill applies (SPEC §5 turn-scoped overrides): its `effort` and tool rules always,
 * its `model` only when `switchModel` (a typed `/name`, or the `skillModelSwitch` setting). Pure.
 */
export function skillPatch(skill: Skill, switchModel: boolean): TurnPatch {
  const patch: TurnPatch = {};
  if (switchModel && skill.model !== undefined && skill.model !== "inherit") patch.model = skill.model;
  if (skill.effort !== undefined) patch.effort = skill.effort;
  if (skill.allowedTools.length > 0) patch.grants = [...skill.allowedTools];
  if (skill.disallowedTools.length > 0) {
    patch.removeTools = [...skill.disallowedTools];
    patch.removedBy = skill.name;
  }
  return patch;
}

/**
 * THE invocation pipeline (SPEC §4), the same for the model's Skill tool and a user's `/name`: permissions
 * (`Skill(name)` rules, safe-property auto-allow, content-pinned approvals, the host's ask; a person typing
 * `/name` has already said yes to an `ask`, never to a `deny`, nor to a skill held because it gained
 * capabilities since its approval; the user's yes, typed or answered, records the approval), PreToolUse hooks for `Skill`, the skill's own hooks registered, expansion
 * (substitution, inline shell through the Bash permission check with the skill's `allowed-tools` granted),
 * then inline or fork, usage recording and the invocation log. An inline expansion already in the agent's
 * conversation is sent as `invocationText` says (SPEC §14.3); the log keeps the full text. Validation is the
 * caller's (it differs by path). Never rejects for user content.
 */
export async function invokeSkill(
  request: InvocationRequest,
  deps: InvocationDeps,
): Promise<InvocationOutcome> {
  const { skill, args, signal } = request;
  const body = await capabilityBody(skill, signal);
  // Scoped `disallowed-tools` of earlier skills this turn (`Skill(x)`, `Bash(rm:*)`) are deny rules here too.
  const rules = withTurnDenials(deps.policy.rules, request.turn.removedTools);
  const bodyHasInlineShell = hasInlineShell(body);
  const approvals = needsApproval(skill, { bodyHasInlineShell }) ? deps.approvals : undefined;
  const approval = await approvalOf(approvals, skill, body, deps);
  const decision = decideSkill({
    rules,
    skill,
    cwd: deps.policy.cwd,
    bodyHasInlineShell,
    grants: request.turn.grants,
    ...(approval === undefined ? {} : { approval }),
  });
  // A person typing `/name` has said yes to the skill, unless it is held: then they are asked what it gained.
  const typed = request.origin === "user" && decision.behavior === "ask" && approval?.state !== "held";
  let saidYes = typed;
  const ask = deps.policy.askPermission;
  const policy: PermissionPolicy =
    approvals === undefined || ask === undefined
      ? deps.policy
      : {
          ...deps.policy,
          askPermission: async (question) => {
            const answer = await ask(question);
            saidYes = answer === true;
            return answer;
          },
        };
  const settled = typed
    ? ({ behavior: "allow" } as const)
    : await settle(decision, "Skill", policy, signal, { skill: skill.name, args });
  if (settled.behavior !== "allow") return { kind: "refused", message: denialText(settled) };
  if (approvals !== undefined && decision.behavior === "ask" && saidYes) {
    await approvals.approve(skill, body).catch((error: unknown) =>
      deps.emit({
        type: "warning",
        message: `skill ${skill.name}: the approval was not recorded: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
  }

  const hook = await deps.runHooks(
    "PreToolUse",
    { tool_name: "Skill", tool_input: { skill: skill.name, args }, invocation: request.origin },
    signal,
  );
  if (hook.blocked !== undefined) {
    return {
      kind: "refused",
      message: `PreToolUse hook blocked skill ${skill.name}: ${hook.blocked.reason}`,
    };
  }

  // A session given no shell registers no command hooks (each would be refused when it fires); the model is
  // told why. Its http and prompt hooks need no shell and are registered.
  const refusal = deps.context.shell.refusal;
  const registered = registerSkillHooks(deps.context.hooks, skill, { commands: refusal === undefined });
  for (const message of registered.warnings) deps.emit({ type: "warning", message });
  const hooksNote =
    refusal !== undefined && registered.commandsLeftOut > 0
      ? `(This skill's command hooks were not registered: ${refusal}.)`
      : undefined;
  if (hooksNote !== undefined) deps.emit({ type: "warning", message: `skill ${skill.name}: ${hooksNote}` });
  if (skill.plugin !== undefined) await deps.context.fs.mkdir(skill.plugin.dataDir).catch(() => undefined);

  const expanded = await expandBody(skill, request, rules, deps);
  if (!expanded.ok) {
    return expanded.shell === true
      ? { kind: "refused", message: expanded.message, shell: true }
      : { kind: "refused", message: expanded.message };
  }
  let text =
    skill.literalBody === true ? expanded.text : skillExpansionText(skill.kind, skill.baseDir, expanded.text);
  if (hooksNote !== undefined) text = `${text}\n\n${hooksNote}`;
  if (namesReferences(skill)) {
    const section = referenceSection(
      skill.name,
      (await skill.references?.list(signal).catch(() => [])) ?? [],
    );
    if (section !== "") text = `${text}\n\n${section}`;
  }

  if (request.origin === "user") {
    // A typed `/name` expanded: UserPromptExpansion hooks see it before it reaches the model (exit 2 blocks).
    const expansion = await deps.runHooks(
      "UserPromptExpansion",
      userPromptExpansionPayload(skill, args, text),
      signal,
    );
    if (expansion.blocked !== undefined) {
      return {
        kind: "refused",
        message: `UserPromptExpansion hook blocked /${skill.name}: ${expansion.blocked.reason}`,
      };
    }
    if (expansion.additionalContext.length > 0) text = [text, ...expansion.additionalContext].join("\n\n");
  }
  const trigger: SkillTrigger =
    request.origin === "user" ? "user" : request.agentId === undefined ? "model" : "nested";
  await deps.usage.record(skill.name, deps.context.now(), trigger).catch(() => undefined);
  const mode = skill.context === "fork" ? "fork" : "inline";
  await deps.record({
    name: skill.name,
    args,
    text,
    at: deps.context.now(),
    ...(request.agentId ? { agentId: request.agentId } : {}),
    ...(mode === "fork" ? { fork: true } : {}),
  });
  deps.emit({
    type: "skill_invoked",
    ...(request.agentId ? { agentId: request.agentId } : {}),
    name: skill.name,
    args,
    mode,
    source: skill.source,
    trigger,
    expansionChars: text.length,
  });
  if (mode === "fork") {
    const outcome = await deps.runFork({
      skill,
      name: request.name ?? skill.name,
      args,
      task: text,
      signal,
      depth: request.depth,
      // The main agent's model now (its turn's); a fork's caller carries the one its chain began with.
      sessionModel: deps.context.sessionModel ?? request.turn.model,
    });
    return { kind: "fork", outcome };
  }
  const first = deps.loaded.first(request.agentId, skill.name, skill);
  deps.loaded.add(request.agentId, skill.name, text, skill);
  const sent = invocationText(request.name ?? skill.name, text, first);
  const switchModel = request.origin === "user" || deps.switchModel === true;
  const modelNote = switchModel ? undefined : keptModelNote(skill, request.turn.model);
  return {
    kind: "inline",
    ...(sent.note === undefined ? {} : { note: sent.note }),
    text: sent.text,
    ...(modelNote === undefined ? {} : { modelNote }),
    patch: skillPatch(skill, switchModel),
  };
}

/**
 * The note sent after a model-invoked skill's body when its `model:` names another model than the turn's and
 * the turn keeps its own (SPEC §5): the model learns which model the skill asked for, and the request prefix
 * (and so the prompt cache) stays. Undefined when there is nothing to say. Pure.
 */
export function keptModelNote(skill: Pick<Skill, "name" | "model">, turnModel: string): string | undefined {
  if (skill.model === undefined || skill.model === "inherit") return undefined;
  const wanted = resolveModel(skill.model);
  if (wanted === resolveModel(turnModel)) return undefined;
  return (
    `<system-reminder>The skill "${skill.name}" names the model ${wanted}; this conversation stays on ` +
    `${turnModel}, so follow its instructions here.</system-reminder>`
  );
}

/** The skill's approval state, or undefined when there are no approvals to check; unreadable ones count as none. */
async function approvalOf(
  approvals: SkillApprovals | undefined,
  skill: Skill,
  body: string,
  deps: InvocationDeps,
): Promise<ApprovalState | undefined> {
  if (approvals === undefined) return undefined;
  try {
    return (await approvals.check(skill, body)).state;
  } catch (error) {
    deps.emit({
      type: "warning",
      message: `skill ${skill.name}: approvals could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
    return undefined;
  }
}

async function expandBody(
  skill: Skill,
  request: InvocationRequest,
  rules: PermissionRules,
  deps: InvocationDeps,
): Promise<InlineExpansion> {
  if (skill.literalBody === true) {
    try {
      return { ok: true, text: await skill.loadBody(request.signal, request.args) };
    } catch (error) {
      return {
        ok: false,
        message: `Could not get ${skill.name}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  // The Bash tool's own check, with the skill's `allowed-tools` granted.
  const grants = [...request.turn.grants, ...skill.allowedTools];
  return expandSkill(skill, {
    args: request.args,
    sessionId: deps.context.sessionId,
    projectDir: deps.context.projectDir,
    shellOps: deps.context.shell,
    signal: request.signal,
    checkCommand: inlineShellCheck(deps.policy, rules, grants),
  });
}
