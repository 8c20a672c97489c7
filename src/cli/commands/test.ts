import { join, resolve } from "node:path";
import { loadSettings } from "../../config/settings.js";
import type { Engine } from "../../engine/engine.js";
import { errorMessage } from "../../io/fs.js";
import { createNodeShell } from "../../io/shell.js";
import { type ListingSettings, listingLimits, listingSettingsOf } from "../../listing/budget.js";
import { contextWindowFor, DEFAULT_MODEL, resolveModel } from "../../models.js";
import { createMemoryTranscriptStore } from "../../session/memory-transcript-store.js";
import type { Skill } from "../../skill/skill.js";
import { validatePath } from "../../skill/validate-path.js";
import { type TriggerAdvice, triggerAdvice } from "../../skill-test/advice.js";
import { createProgress } from "../../skill-test/progress.js";
import { jsonReport, junitReport, runPassed, textReport } from "../../skill-test/report.js";
import { runSkillTests } from "../../skill-test/run-tests.js";
import type { TriggerSession } from "../../skill-test/run-trigger.js";
import {
  createGradedHost,
  createSessionHost,
  type RunGradedCase,
  type RunSessionCase,
} from "../../skill-test/session-host.js";
import { createStubShell } from "../../skill-test/stub-shell.js";
import { copyToTemp } from "../../skill-test/temp-copy.js";
import { updatedCasesText } from "../../skill-test/update.js";
import { createFileUsageStore, defaultUsagePath } from "../../usage.js";
import type { CliIo } from "../io.js";
import { modelClientFromEnv } from "../model-setup.js";

export interface TestOptions {
  json: boolean;
  /** `--model`: the model trigger cases run against (default: the settings' or the default model). */
  model: string | undefined;
  /** `--junit FILE`: also write JUnit XML there. */
  junit: string | undefined;
  /** `--update`: rewrite failed `exact` bodies with the actual ones (after the report shows the diff). */
  update: boolean;
  /** `--baseline`: session and graded cases run with the skill and without it, against the model. */
  baseline?: boolean;
  /** `--runs N`: runs per side under `--baseline` (default {@link DEFAULT_BASELINE_RUNS}). */
  runs?: number | undefined;
  /** `--yes`: go on without asking (needed when stdin is not a terminal and the run calls the model). */
  yes?: boolean;
}

/** Runs per side of a baseline when `--runs` is not given. */
export const DEFAULT_BASELINE_RUNS = 3;

/**
 * The `--baseline` part of a run: the model client, and the question asked before any session opens (its count
 * said on stderr; answered by `--yes`, else the terminal; without either nothing runs). Undefined with a
 * message when no model is configured.
 */
async function baselineDeps(io: CliIo, options: TestOptions, model: string) {
  const client = await modelClientFromEnv(io.env);
  if (client === undefined) return undefined;
  const runs = options.runs ?? DEFAULT_BASELINE_RUNS;
  const approve = async (sessions: number): Promise<boolean> => {
    if (sessions === 0) return true;
    const target = io.env.ANTHROPIC_BASE_URL ? ` at ${io.env.ANTHROPIC_BASE_URL}` : "";
    io.stderr(
      `baseline: ${sessions} sessions (${sessions / (2 * runs)} case(s) × ${runs} run(s) × with and without the skill), each one or more model requests to ${options.model === undefined ? "the cases' model" : model}${target}\n`,
    );
    if (options.yes === true) return true;
    if (io.confirm !== undefined) return io.confirm("Run them? [y/N] ");
    io.stderr("Not run: pass --yes to run them when stdin is not a terminal.\n");
    return false;
  };
  return {
    runs,
    client,
    now: Date.now,
    approve,
    ...(options.model === undefined ? {} : { model }),
  };
}

/**
 * The skills at `target`: a skill dir (or its SKILL.md), a dir of skill dirs, or a plugin (its `skills/`).
 * Files that do not load are left out (`skillwright validate` reports why).
 */
async function skillsAt(engine: Engine, target: string): Promise<Skill[]> {
  const found = (await validatePath(engine.fs, target, false)).flatMap((r) => (r.skill ? [r.skill] : []));
  if (found.length > 0) return found;
  const plugin = join(target, "skills");
  return (await validatePath(engine.fs, plugin, false)).flatMap((r) => (r.skill ? [r.skill] : []));
}

/**
 * How trigger cases open a session: the project's real session (settings, listing, tools, model), with a
 * transcript kept in memory, usage scores read but not written, and inline shell refused (a run stops at the
 * Skill call; nothing of the skill needs to run). Headless: every `ask` is a no. Undefined without an API key.
 */
async function triggerSessions(
  engine: Engine,
  io: CliIo,
  model: string | undefined,
): Promise<(() => Promise<TriggerSession>) | undefined> {
  const client = await modelClientFromEnv(io.env);
  if (client === undefined) return undefined;
  const { openSession } = await import("../../session/open.js");
  const fileUsage = createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) });
  return async () => {
    const { session } = await openSession(engine, {
      client,
      ...(model === undefined ? {} : { model }),
      maxTurns: 1,
      shell: createStubShell({}),
      store: createMemoryTranscriptStore(),
      usage: { load: () => fileUsage.load(), record: async () => {} },
    });
    return session;
  };
}

/**
 * The advice for failed trigger cases: the listing a trigger session sends (the project's skills that are not
 * conditional, packed for the run's model with the usage scores it reads), built once on first use.
 */
async function triggerAdviser(
  engine: Engine,
  model: string,
  settings: ListingSettings,
): Promise<(skill: Skill) => TriggerAdvice> {
  const listed = (await engine.discover()).skills.filter((s) => s.paths === undefined);
  const usage = await createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) }).load();
  const limits = listingLimits({ env: engine.env, settings, contextWindowTokens: contextWindowFor(model) });
  const now = Date.now();
  return (skill) => triggerAdvice(skill, { model, limits, listed, usage, now });
}

/**
 * How session cases run: the project copied to a temp dir, a fresh engine and the real session on it, the model
 * played by the scripted server. The engine and session modules load on the first session case.
 */
function sessionRunner(engine: Engine, io: CliIo, projectDir: string): RunSessionCase {
  return async (skill, testCase, options) =>
    (await sessionHostDeps(engine, io, projectDir)).session(skill, testCase, options);
}

/** How graded cases run: as session cases do, with the write–grade–revise loop driving the session. */
function gradedRunner(engine: Engine, io: CliIo, projectDir: string): RunGradedCase {
  return async (skill, testCase, options) =>
    (await sessionHostDeps(engine, io, projectDir)).graded(skill, testCase, options);
}

/** The session and graded case runners, their engine and session modules loaded on first use. */
async function sessionHostDeps(engine: Engine, io: CliIo, projectDir: string) {
  const [{ createEngine }, { openSession }] = await Promise.all([
    import("../../engine/engine.js"),
    import("../../session/open.js"),
  ]);
  const deps = {
    projectDir,
    cwd: io.cwd,
    env: engine.env,
    bundledDir: io.bundledDir,
    shell: createNodeShell(),
    createEngine,
    openSession,
  };
  return { session: createSessionHost(deps), graded: createGradedHost(deps) };
}

/**
 * `skillwright test [path...]`: runs the cases in `<skill>/tests/*.yaml` of the skills at each path (default:
 * every skill the project discovers but the bundled ones, which ship tested: `skillwright test <bundled dir>`
 * runs theirs). Exit 1 on any failed case or tests-file mistake.
 */
export async function testCommand(engine: Engine, io: CliIo, paths: string[], options: TestOptions) {
  const skills =
    paths.length === 0
      ? (await engine.discover()).skills.filter(
          (s) => s.kind === "skill" && s.source !== "mcp" && s.source !== "bundled",
        )
      : (await Promise.all(paths.map((p) => skillsAt(engine, resolve(io.cwd, p))))).flat();
  if (paths.length > 0 && skills.length === 0) {
    io.stderr(`No skill found at ${paths.join(", ")}\n`);
    return 1;
  }
  const { projectDir } = await engine.roots();
  const openTrigger = await triggerSessions(engine, io, options.model);
  const settings = await loadSettings({ fs: engine.fs, home: engine.home, projectDir });
  const listingSettings = listingSettingsOf(settings.settings);
  const model = resolveModel(options.model ?? settings.settings.model ?? DEFAULT_MODEL);
  const adviseTrigger =
    openTrigger === undefined ? undefined : await triggerAdviser(engine, model, listingSettings);
  const baseline = options.baseline === true ? await baselineDeps(io, options, model) : undefined;
  if (options.baseline === true && baseline === undefined) {
    io.stderr(
      "test --baseline runs the cases against the model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a local or scripted one)\n",
    );
    return 2;
  }
  // Never with --json: its readers want the report alone.
  const progress = options.json
    ? undefined
    : createProgress({ write: io.stderr, tty: io.stderrIsTTY === true, now: Date.now });
  const run = await runSkillTests(skills, {
    fs: engine.fs,
    shell: createNodeShell(),
    copyDir: copyToTemp,
    env: engine.env,
    listingSettings,
    ...(adviseTrigger === undefined ? {} : { adviseTrigger }),
    runSession: sessionRunner(engine, io, projectDir),
    runGraded: gradedRunner(engine, io, projectDir),
    ...(openTrigger === undefined ? {} : { openTrigger }),
    ...(baseline === undefined
      ? {}
      : {
          baseline: {
            ...baseline,
            ...(progress === undefined ? {} : { onRun: (label: string) => progress.tick(label) }),
          },
        }),
    ...(progress === undefined
      ? {}
      : { onPlan: (n: number) => progress.start(n), onModelRun: (label: string) => progress.tick(label) }),
  });
  if (run.declined === true) {
    progress?.finish();
    return 1;
  }
  progress?.finish();
  io.stdout(options.json ? jsonReport(run) : textReport(run, io.cwd));
  if (options.junit !== undefined) {
    const file = resolve(io.cwd, options.junit);
    try {
      await engine.fs.writeFile(file, junitReport(run));
    } catch (error) {
      io.stderr(`Could not write ${file}: ${errorMessage(error)}\n`);
      return 1;
    }
  }
  if (options.update) {
    const files = [...new Set(run.outcomes.filter((o) => !o.passed).map((o) => o.file))];
    for (const file of files) {
      const text = await engine.fs.readFile(file);
      const updated = updatedCasesText(
        text,
        run.outcomes.filter((o) => o.file === file),
      );
      if (updated === text) continue;
      await engine.fs.writeFile(file, updated);
      io.stderr(`updated ${file}\n`);
    }
  }
  return runPassed(run) ? 0 : 1;
}
