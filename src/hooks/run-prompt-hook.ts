import * as z from "zod";
import { errorMessage } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { capHookText, type HookInput, type HookRunResult, hookTimeoutMs } from "./run-hook.js";
import type { HookAgent, HookPrompt } from "./schema.js";

/** How long a prompt hook may take when it sets no `timeout` (Claude Code's default for prompt hooks). */
export const DEFAULT_PROMPT_HOOK_TIMEOUT_MS = 30_000;

/** How long an agent hook may take when it sets no `timeout` (Claude Code's default for agent hooks). */
export const DEFAULT_AGENT_HOOK_TIMEOUT_MS = 60_000;

/** Most tokens the judging model may answer with: the answer is one small JSON object. */
export const PROMPT_HOOK_MAX_TOKENS = 1024;

/** Most tokens each response of an agent hook's sub-agent may take: it may reason and call tools first. */
export const AGENT_HOOK_MAX_TOKENS = 8192;

/** What a prompt hook's model reads first: how to answer. */
export const PROMPT_HOOK_SYSTEM =
  "You judge one event of an AI coding agent's session for a hook. The user message gives the condition to " +
  "check and the event as JSON. Answer with only a JSON object, no other text: " +
  '{"ok": true} when the condition is met and the agent may go on, or {"ok": false, "reason": "…"} when it ' +
  "is not, with a reason the agent can act on.";

/** What an agent hook's sub-agent reads first: how to work and how to answer. */
export const AGENT_HOOK_SYSTEM =
  "You verify one event of an AI coding agent's session for a hook. The user message gives the condition to " +
  "check and the event as JSON. You may read the project with the read-only tools you have (Read, Grep, Glob, " +
  "LS) to check it. End with only a JSON object, no other text: " +
  '{"ok": true} when the condition is met and the agent may go on, or {"ok": false, "reason": "…"} when it ' +
  "is not, with a reason the agent can act on.";

/** The one request a prompt hook makes (an agent hook: its sub-agent's first request). */
export interface PromptHookRequest {
  system: string;
  /** The hook's prompt with `$ARGUMENTS` replaced by the event JSON (or the JSON appended). */
  prompt: string;
  /** The hook's `model`; undefined: the session's. */
  model?: string;
  maxTokens: number;
}

/** Sends a prompt hook's request to the session's model and gives back the answer's text. May reject. */
export type PromptJudge = (request: PromptHookRequest, signal: AbortSignal) => Promise<string>;

const ARGUMENTS = "$ARGUMENTS";

/**
 * The hook's prompt with every `$ARGUMENTS` replaced by the event JSON; without the placeholder, the JSON is
 * appended after a blank line (Claude Code's rule). Pure.
 */
export function promptWithArguments(prompt: string, json: string): string {
  return prompt.includes(ARGUMENTS) ? prompt.split(ARGUMENTS).join(json) : `${prompt}\n\n${json}`;
}

const verdictSchema = lazy(() => z.looseObject({ ok: z.boolean(), reason: z.string().optional() }));

/**
 * Reads the model's answer: the first `{` to the last `}` (a fenced block or a sentence around it is
 * tolerated) must be `{ "ok": boolean, "reason"?: string }`. Pure.
 */
export function readVerdict(text: string): { ok: boolean; reason?: string } | { error: string } {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return { error: `the model did not answer with JSON: ${text.slice(0, 200)}` };
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return { error: `the model's answer is not valid JSON: ${errorMessage(error)}` };
  }
  const parsed = verdictSchema().safeParse(json);
  if (!parsed.success) return { error: 'the model\'s answer has no boolean "ok"' };
  return parsed.data.reason === undefined
    ? { ok: parsed.data.ok }
    : { ok: parsed.data.ok, reason: parsed.data.reason };
}

/**
 * Asks the model (a prompt hook) or a sub-agent (an agent hook, through the `judge` given for it) to judge the
 * event: `{"ok": true}` continues; `{"ok": false, "reason"}` blocks with the reason (what blocking means depends
 * on the event, as for a command hook's exit 2). A model error, an answer that is not the JSON asked for, and
 * the timeout (the hook's `timeout`, else 30 s for a prompt hook and 60 s for an agent hook) are warnings.
 * Never rejects.
 */
export async function runPromptHook(
  hook: HookPrompt | HookAgent,
  input: HookInput,
  options: { judge: PromptJudge; signal?: AbortSignal },
): Promise<HookRunResult> {
  if (options.signal?.aborted) return { outcome: "warning", message: "aborted before it started" };
  const agent = hook.type === "agent";
  const timeoutMs = hookTimeoutMs(
    hook,
    agent ? DEFAULT_AGENT_HOOK_TIMEOUT_MS : DEFAULT_PROMPT_HOOK_TIMEOUT_MS,
  );
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  let answer: string;
  try {
    answer = await options.judge(
      {
        system: agent ? AGENT_HOOK_SYSTEM : PROMPT_HOOK_SYSTEM,
        prompt: promptWithArguments(hook.prompt, JSON.stringify(input)),
        ...(hook.model === undefined ? {} : { model: hook.model }),
        maxTokens: agent ? AGENT_HOOK_MAX_TOKENS : PROMPT_HOOK_MAX_TOKENS,
      },
      signal,
    );
  } catch (error) {
    if (timeout.aborted) return { outcome: "warning", message: `timed out after ${timeoutMs / 1000} s` };
    if (options.signal?.aborted) return { outcome: "warning", message: "aborted" };
    return { outcome: "warning", message: capHookText(`the model request failed: ${errorMessage(error)}`) };
  }
  const verdict = readVerdict(answer);
  if ("error" in verdict) return { outcome: "warning", message: capHookText(verdict.error) };
  if (verdict.ok) return { outcome: "continue", stdout: "" };
  return {
    outcome: "block",
    reason: capHookText(
      verdict.reason?.trim() || `Blocked by ${agent ? "an agent" : "a prompt"} hook (no reason given)`,
    ),
  };
}
