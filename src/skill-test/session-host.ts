import { cp, mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import type { AgentEvent } from "../agent/events.js";
import { createModelClient, type ModelClient } from "../agent/model-client.js";
import { type ModelServer, startModelServer } from "../dev/model-server.js";
import type { Engine, EngineOptions } from "../engine/engine.js";
import { createNodeFs } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import { gradeAttempt } from "../outcome/grader.js";
import { runOutcomeLoop } from "../outcome/outcome-loop.js";
import { evaluationResult } from "../outcome/outcome-prompts.js";
import { createMemoryTranscriptStore } from "../session/memory-transcript-store.js";
import type { OpenedSession, OpenSessionOptions } from "../session/open-options.js";
import type { Skill } from "../skill/skill.js";
import type { GradedCase, SessionCase } from "./cases.js";
import { createHookRecordingShell } from "./hook-recorder.js";
import { type ClientMeter, meteredClient } from "./metered-client.js";
import { type HookRun, type SessionObservation, stringsIn } from "./session-checks.js";

/** The key the in-process scripted server demands (it listens on 127.0.0.1 only, for the length of a case). */
const SESSION_TEST_KEY = "sk-skillwright-test";

/** What a session case runs with: where the project is, and the engine entry points (injected). */
export interface SessionHostDeps {
  /** The project dir of the run and the cwd inside it. */
  projectDir: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  bundledDir?: string;
  shell: ShellOps;
  createEngine: (options: EngineOptions) => Engine;
  openSession: (engine: Engine, options: OpenSessionOptions) => Promise<OpenedSession>;
}

/**
 * How one run of a case goes under `--baseline`: the model that answers (the case's scripted turns are not
 * played) and whether the skill is removed from the temp project first (the without-skill side).
 */
export interface CaseRunOptions {
  client: ModelClient;
  without: boolean;
  /** The model when the case names none (default: the project's). */
  model?: string;
}

/** What a run cost: its model requests and the tokens their answers reported. */
export interface CaseUsage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}

/** Runs one session case and reports what it observed. */
export type RunSessionCase = (
  skill: Skill,
  testCase: SessionCase,
  options?: CaseRunOptions,
) => Promise<SessionObservation & { usage: CaseUsage }>;

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The temp project a case runs in: a copy of the project (without `node_modules` and `.git`) when the skill is
 * one of its skills, else an empty project holding only a copy of the skill in `.claude/skills/`. Either way a
 * new, empty git repository, with an empty home beside it.
 */
async function tempProject(
  skill: Skill,
  deps: SessionHostDeps,
  without: boolean,
): Promise<{ root: string; project: string; cwd: string; home: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "skillwright-session-test-")));
  const project = join(root, "project");
  const home = join(root, "home");
  await mkdir(home);
  const ofProject = skill.source === "project" && inside(deps.projectDir, skill.baseDir);
  if (ofProject) {
    const gitDir = join(deps.projectDir, ".git");
    await cp(deps.projectDir, project, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => basename(source) !== "node_modules" && source !== gitDir,
    });
    // The without-skill side of a baseline: the skill leaves the catalog, everything else stays.
    if (without)
      await rm(join(project, relative(deps.projectDir, skill.baseDir)), { recursive: true, force: true });
  } else if (!without) {
    await cp(skill.baseDir, join(project, ".claude", "skills", basename(skill.baseDir)), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  // A fresh repository (the project's history stays behind), so skills that run git find one; without git, an
  // empty `.git` still marks the project root.
  await mkdir(project, { recursive: true });
  const init = await deps.shell
    .run("git init -q", { cwd: project, timeoutMs: 30_000 })
    .catch(() => ({ exitCode: 1 }));
  if (init.exitCode !== 0) await mkdir(join(project, ".git"), { recursive: true });
  const cwd =
    ofProject && inside(deps.projectDir, deps.cwd)
      ? join(project, relative(deps.projectDir, deps.cwd))
      : project;
  await mkdir(cwd, { recursive: true });
  return { root, project, cwd, home };
}

function observe(events: readonly AgentEvent[]) {
  const skillCalls: SessionObservation["skillCalls"] = [];
  const toolResults: SessionObservation["toolResults"] = [];
  const errors: string[] = [];
  let reply = "";
  for (const event of events) {
    if (event.type === "skill_invoked") skillCalls.push({ name: event.name, args: event.args });
    if (event.type === "tool_end") {
      const text = event.result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      toolResults.push({ tool: event.name, isError: event.result.isError, text });
    }
    if (event.type === "error" && event.agentId === undefined) errors.push(`${event.kind}: ${event.message}`);
    if (event.type === "assistant_message" && event.agentId === undefined) {
      reply = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    }
  }
  return { skillCalls, toolResults, errors, reply };
}

/** Session cases through the engine's real session (see {@link withCaseSession}): the prompts sent in order. */
export function createSessionHost(deps: SessionHostDeps): RunSessionCase {
  return (skill, testCase, options) =>
    withCaseSession(
      skill,
      testCase,
      deps,
      options,
      async ({ session, where, requests, unusedTurns, hooks, meter }) => {
        const events: AgentEvent[] = [];
        const prompts = typeof testCase.prompt === "string" ? [testCase.prompt] : testCase.prompt;
        for (const prompt of prompts) for await (const event of session.send(prompt)) events.push(event);
        const files = new Map<string, string | undefined>();
        for (const file of testCase.expect.files ?? []) {
          const text = await readFile(resolve(where.project, file.path), "utf8").catch(() => undefined);
          files.set(file.path, text);
        }
        return {
          ...observe(events),
          requests: requests(),
          hooks,
          files,
          unusedTurns: unusedTurns(),
          usage: usageOf(meter),
        };
      },
    );
}

/** What a graded case's run found: each evaluation's result and explanation, in order. */
export interface GradedObservation {
  evaluations: { result: string; explanation: string }[];
  /** The agent's `error` events. */
  errors: string[];
  /** Scripted turns no request asked for (repeat turns not counted). */
  unusedTurns: number;
}

/** Runs one graded case and reports its evaluations. */
export type RunGradedCase = (
  skill: Skill,
  testCase: GradedCase,
  options?: CaseRunOptions,
) => Promise<GradedObservation & { usage: CaseUsage }>;

function usageOf(meter: ClientMeter): CaseUsage {
  return {
    requests: meter.requests.length,
    inputTokens: meter.inputTokens,
    outputTokens: meter.outputTokens,
    cacheReadTokens: meter.cacheReadTokens,
  };
}

/**
 * Graded cases: the write–grade–revise loop ({@link runOutcomeLoop}, the one serve runs for
 * `user.define_outcome`) in the session a session case gets, the grader on the same scripted server with its
 * read-only tools over the temp project.
 */
export function createGradedHost(deps: SessionHostDeps): RunGradedCase {
  return (skill, testCase, options) =>
    withCaseSession(
      skill,
      testCase,
      deps,
      options,
      async ({ session, model, client, where, unusedTurns, meter }) => {
        const outcome = {
          outcomeId: testCase.name,
          description: testCase.description,
          rubric: testCase.rubric,
          maxIterations: testCase.max_iterations,
        };
        const evaluations: GradedObservation["evaluations"] = [];
        const events: AgentEvent[] = [];
        const signal = new AbortController().signal;
        await runOutcomeLoop(outcome, {
          async attempt(prompt) {
            let deliverable = "";
            let clean = false;
            for await (const event of session.send(prompt)) {
              events.push(event);
              if (event.type === "done" && event.agentId === undefined) {
                deliverable = event.result.text;
                clean = event.result.cause === "end_turn";
              }
            }
            return { deliverable, clean };
          },
          async evaluate(iteration, deliverable) {
            const verdict = await gradeAttempt({
              client,
              model,
              outcome,
              deliverable,
              files: { fs: createNodeFs(), cwd: where.cwd, home: where.home },
              signal,
            });
            const result = evaluationResult(verdict.result, iteration, outcome.maxIterations);
            evaluations.push({ result, explanation: verdict.explanation });
            return { result, explanation: verdict.explanation };
          },
        });
        return {
          evaluations,
          errors: observe(events).errors,
          unusedTurns: unusedTurns(),
          usage: usageOf(meter),
        };
      },
    );
}

function modelOption(model: string | undefined): { model?: string } {
  return model === undefined ? {} : { model };
}

/** What a case's session gives the code that drives it. */
interface CaseSession {
  session: OpenedSession["session"];
  /** The model the session runs on. */
  model: string;
  client: ModelClient;
  where: { project: string; cwd: string; home: string };
  /** The requests made so far: the scripted server's as it received them, else the client's. */
  requests: () => SessionObservation["requests"];
  /** Scripted turns never requested (repeat turns not counted); 0 when the model is not scripted. */
  unusedTurns: () => number;
  /** Every request of the session and its grader, with the usage answered. */
  meter: ClientMeter;
  hooks: HookRun[];
}

/**
 * A case's session: a temp copy of the project, a fresh engine on it (empty home, the run's env and bundled
 * skills), the case's turns played by an in-process scripted Messages API server, headless permissions plus
 * the case's `allowed_tools`, a transcript in memory, every hook command run logged. The temp tree, the
 * engine, the session and the server are gone when it returns.
 */
async function withCaseSession<T>(
  skill: Skill,
  testCase: Pick<SessionCase, "turns" | "allowed_tools" | "model">,
  deps: SessionHostDeps,
  options: CaseRunOptions | undefined,
  drive: (opened: CaseSession) => Promise<T>,
): Promise<T> {
  const where = await tempProject(skill, deps, options?.without === true);
  // Under --baseline the run's model answers; otherwise the case's turns, played by a server of its own.
  let server: ModelServer | undefined;
  let answering: ModelClient;
  if (options === undefined) {
    server = await startModelServer({ apiKey: SESSION_TEST_KEY, script: { turns: testCase.turns } });
    answering = createModelClient({ apiKey: SESSION_TEST_KEY, baseURL: server.url, maxRetries: 0 });
  } else answering = options.client;
  const hooks: HookRun[] = [];
  const engine = deps.createEngine({
    cwd: where.cwd,
    home: where.home,
    env: deps.env,
    ...(deps.bundledDir === undefined ? {} : { bundledDir: deps.bundledDir }),
  });
  try {
    const { client, meter } = meteredClient(answering);
    const requests = () =>
      server === undefined
        ? [...meter.requests]
        : server.requests
            .filter((r) => r.path === "/v1/messages")
            .map((r) => ({ agentId: r.agentId, text: stringsIn(r.body) }));
    const unusedTurns = () =>
      server === undefined ? 0 : server.remainingTurns().filter((t) => !t.repeat).length;
    const { session, model } = await deps.openSession(engine, {
      client,
      ...modelOption(testCase.model ?? options?.model),
      allowedTools: testCase.allowed_tools,
      shell: createHookRecordingShell(deps.shell, hooks),
      store: createMemoryTranscriptStore(),
    });
    try {
      return await drive({ session, model, client, where, requests, unusedTurns, meter, hooks });
    } finally {
      await session.close();
    }
  } finally {
    await engine.close();
    await server?.close();
    await rm(where.root, { recursive: true, force: true });
  }
}
