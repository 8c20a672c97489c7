import { type AgentTool, executeAgent } from "../agent/loop.js";
import type { ModelClient } from "../agent/model-client.js";
import type { ModelUsage } from "../agent/model-types.js";
import type { FsOps } from "../io/fs.js";
import { createBuiltinTools } from "../tools/builtin.js";
import { type DefinedOutcome, type GraderResult, parseVerdict } from "./outcome-prompts.js";

/** The only tools a grader gets: it reads the agent's work, never changes it. */
export const GRADER_TOOL_NAMES = ["Read", "Grep", "Glob", "LS"] as const;

/** The most model requests one evaluation makes (its tool rounds included). */
export const GRADER_MAX_TURNS = 20;

/** The most tokens a grader's response may take. */
export const GRADER_MAX_TOKENS = 8_192;

/** The grader's system prompt: a fresh context, the rubric its only measure, a JSON verdict its last words. */
export const GRADER_SYSTEM = `You are a grader. You judge one piece of work against a rubric, criterion by criterion.
You did not write the work and you see none of the conversation that produced it: only the task, the rubric and
the agent's final answer below, and read-only tools (Read, Grep, Glob, LS) to inspect the files it worked on.
End your answer with one JSON object on its own line:
{"result": "satisfied" | "needs_revision" | "failed", "explanation": "..."}
Use "satisfied" when every criterion is met, "needs_revision" when some are not (say which and why, so the
agent can fix them), and "failed" when the rubric cannot apply to this work at all.`;

/** Where the grader reads the work: the agent's file system and working directory. */
export interface GraderFiles {
  fs: FsOps;
  cwd: string;
  home: string;
}

/** What one evaluation needs. */
export interface GradeRequest {
  client: ModelClient;
  model: string;
  outcome: DefinedOutcome;
  /** The agent's final answer of the attempt being graded. */
  deliverable: string;
  /**
   * The files the grader may read with its read-only tools; absent: no tools (it judges the answer alone). A
   * served session with `--host-tools` gives none, so a grader never reads the host past the session's rules.
   */
  files?: GraderFiles;
  signal: AbortSignal;
  /** Called after each of the grader's model requests (the evaluation's heartbeat). */
  onRequestEnd?: () => void;
}

/** What one evaluation found. */
export interface GradeVerdict {
  result: GraderResult;
  explanation: string;
  /** Summed over the grader's model requests. */
  usage: ModelUsage;
  /** The evaluation stopped because `signal` aborted. */
  aborted: boolean;
}

/** The grader's one user message: the task, the rubric and the agent's final answer. Pure. */
export function graderPrompt(outcome: DefinedOutcome, deliverable: string): string {
  return [
    "<task>",
    outcome.description,
    "</task>",
    "<rubric>",
    outcome.rubric,
    "</rubric>",
    "<agent_final_answer>",
    deliverable,
    "</agent_final_answer>",
  ].join("\n");
}

/**
 * Grades one attempt in a fresh context: a new conversation of one user message ({@link graderPrompt}) with
 * {@link GRADER_SYSTEM}, the read-only tools {@link GRADER_TOOL_NAMES} over `files`, on `client`. A grader
 * that fails (the model errs, or its answer has no verdict) gives `failed` with an explanation saying so.
 */
export async function gradeAttempt(request: GradeRequest): Promise<GradeVerdict> {
  const { files } = request;
  const tools: AgentTool[] =
    files === undefined
      ? []
      : createBuiltinTools({ fs: files.fs, homeDir: files.home }).filter((t) =>
          (GRADER_TOOL_NAMES as readonly string[]).includes(t.name),
        );
  const result = await executeAgent(
    {
      client: request.client,
      system: GRADER_SYSTEM,
      tools,
      messages: [{ role: "user", content: graderPrompt(request.outcome, request.deliverable) }],
      turn: { model: request.model, grants: [], removedTools: [] },
      maxTokens: GRADER_MAX_TOKENS,
      maxTurns: GRADER_MAX_TURNS,
      cwd: files?.cwd ?? "/",
      signal: request.signal,
    },
    (event) => {
      if (event.type === "turn_end") request.onRequestEnd?.();
    },
  );
  const usage = result.usage;
  if (result.cause === "aborted" || request.signal.aborted) {
    return { result: "failed", explanation: "the evaluation was interrupted", usage, aborted: true };
  }
  if (result.error !== undefined) {
    return {
      result: "failed",
      explanation: `the grader could not finish: ${result.error.message}`,
      usage,
      aborted: false,
    };
  }
  const verdict = parseVerdict(result.text);
  if (verdict === undefined) {
    return {
      result: "failed",
      explanation: `the grader's answer ends with no verdict: ${result.text.slice(0, 500)}`,
      usage,
      aborted: false,
    };
  }
  return { ...verdict, usage, aborted: false };
}
