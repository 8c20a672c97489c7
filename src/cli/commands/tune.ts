import type { ModelClient } from "../../agent/model-client.js";
import type { Discovery } from "../../catalog/catalog.js";
import { loadSettings } from "../../config/settings.js";
import type { Engine } from "../../engine/engine.js";
import { errorMessage } from "../../io/fs.js";
import { DEFAULT_MODEL, resolveModel } from "../../models.js";
import { createMemoryTranscriptStore } from "../../session/memory-transcript-store.js";
import type { OpenSessionOptions } from "../../session/open-options.js";
import type { SessionHost } from "../../session/session-host.js";
import { answersTo, type Skill } from "../../skill/skill.js";
import { createSkillSearcher } from "../../skill-search/search.js";
import { parseCasesFile } from "../../skill-test/cases.js";
import { withDescription } from "../../skill-test/description-edit.js";
import { createProgress } from "../../skill-test/progress.js";
import { caseFiles } from "../../skill-test/run-tests.js";
import type { TriggerSession } from "../../skill-test/run-trigger.js";
import { plannedCalls, runsOf, runTune } from "../../skill-test/run-tune.js";
import { createStubShell } from "../../skill-test/stub-shell.js";
import { splitSummary, tuneJsonReport, tuneTextReport } from "../../skill-test/tune-report.js";
import { seedOfName, splitPrompts, type TunePrompt } from "../../skill-test/tune-split.js";
import { createFileUsageStore, defaultUsagePath } from "../../usage.js";
import type { CliIo } from "../io.js";
import { modelClientFromEnv } from "../model-setup.js";

export interface TuneOptions {
  json: boolean;
  /** `--model`: the model of the proposals and the trigger runs (default: the settings' or the default). */
  model: string | undefined;
  /** `--candidates N` (default {@link DEFAULT_CANDIDATES}). */
  candidates: number | undefined;
  /** `--seed N`: the split's seed (default: from the skill's name). */
  seed: number | undefined;
  yes: boolean;
  /** `--write`: write a proposed description into the SKILL.md. */
  write: boolean;
}

/** Proposals asked for when `--candidates` is not given. */
export const DEFAULT_CANDIDATES = 3;
/** The closest skills whose trigger cases join the run. */
export const TUNE_NEIGHBOURS = 5;
/** How much of the body a proposal request shows. */
const BODY_EXCERPT_CHARS = 2_000;
/** The longest proposal answer asked for, in tokens. */
const PROPOSAL_MAX_TOKENS = 1_024;

/** The prompts of a skill's trigger cases (`should` then `should_not`, file by file), and the files that failed. */
async function triggerPrompts(
  engine: Engine,
  skill: Skill,
): Promise<{ prompts: TunePrompt[]; errors: string[] }> {
  const prompts: TunePrompt[] = [];
  const errors: string[] = [];
  for (const file of await caseFiles(engine.fs, skill)) {
    let text: string;
    try {
      text = await engine.fs.readFile(file);
    } catch (error) {
      errors.push(`${file}: cannot read: ${errorMessage(error)}`);
      continue;
    }
    const parsed = parseCasesFile(file, text);
    if (!parsed.ok) {
      errors.push(...parsed.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`));
      continue;
    }
    for (const { case: c } of parsed.cases) {
      if (c.kind !== "trigger") continue;
      const of = (prompt: string, expected: TunePrompt["expected"]) => ({
        prompt,
        owner: skill.name,
        expected,
        runs: c.runs,
      });
      prompts.push(...c.should.map((p) => of(p, "trigger")), ...c.should_not.map((p) => of(p, "no-trigger")));
    }
  }
  return { prompts, errors };
}

/** `skill` as listed with another description. */
function described(skill: Skill, description: string): Skill {
  return { ...skill, description, descriptionFromBody: false };
}

/** A discovery with the tuned skill's description replaced. */
function withSkillDescription(discovery: Discovery, name: string, description: string): Discovery {
  return {
    ...discovery,
    skills: discovery.skills.map((s) => (s.name === name ? described(s, description) : s)),
  };
}

/**
 * Trigger sessions as `skillwright test` opens them (the project's real session, transcript in memory, usage
 * read but not written, inline shell refused, one turn), on a host whose catalog lists the tuned skill with
 * the description under test. The session modules load on the first one.
 */
function triggerOpener(engine: Engine, client: ModelClient, model: string | undefined, name: string) {
  const fileUsage = createFileUsageStore({ fs: engine.fs, path: defaultUsagePath(engine.home) });
  return async (description: string): Promise<TriggerSession> => {
    const [{ engineSessionHost }, { openSessionOn }] = await Promise.all([
      import("../../session/engine-host.js"),
      import("../../session/open-session.js"),
    ]);
    const options: OpenSessionOptions = {
      client,
      ...(model === undefined ? {} : { model }),
      maxTurns: 1,
      shell: createStubShell({}),
      store: createMemoryTranscriptStore(),
      usage: { load: () => fileUsage.load(), record: async () => {} },
    };
    const host = await engineSessionHost(engine, options);
    const tuned: SessionHost = {
      ...host,
      catalog: {
        get: async () => withSkillDescription(await host.catalog.get(), name, description),
        onChange: (listener) =>
          host.catalog.onChange((discovery) => listener(withSkillDescription(discovery, name, description))),
      },
    };
    const { session } = await openSessionOn(tuned, options);
    return session;
  };
}

/**
 * The offline retriever's score of a description: the share of the tuned skill's `should` prompts for which
 * the skill search ranks it first among the listed skills (one searcher, so unchanged skills' bodies are read
 * once).
 */
function offlineScorer(listed: readonly Skill[], skill: Skill) {
  const searcher = createSkillSearcher();
  const sets = new Map<string, Skill[]>();
  return async (description: string, prompts: readonly TunePrompt[]): Promise<number | undefined> => {
    let skills = sets.get(description);
    if (skills === undefined) {
      skills = listed.map((s) => (s.name === skill.name ? described(s, description) : s));
      sets.set(description, skills);
    }
    const should = prompts.filter((p) => p.owner === skill.name && p.expected === "trigger");
    if (should.length === 0) return undefined;
    let first = 0;
    for (const p of should) {
      const [top] = await searcher.search(skills, p.prompt, { limit: 1 });
      if (top?.skill.name === skill.name) first += 1;
    }
    return first / should.length;
  };
}

/** Asks before the model calls: `--yes`, else the terminal; neither: not run. */
async function approved(io: CliIo, options: TuneOptions, message: string): Promise<boolean> {
  io.stderr(message);
  if (options.yes) return true;
  if (io.confirm !== undefined) return io.confirm("Run them? [y/N] ");
  io.stderr("Not run: pass --yes to run them when stdin is not a terminal.\n");
  return false;
}

/**
 * `skillwright tune <skill>`: proposes a better description for a skill from its trigger cases and its
 * neighbours' (see `runTune`), prints the before/after table (or one JSON document) and, with `--write`,
 * writes a proposal into the skill's SKILL.md. Exit 0 when it ran, proposal or not; 1 on an error.
 */
export async function tuneCommand(
  engine: Engine,
  io: CliIo,
  name: string,
  options: TuneOptions,
): Promise<number> {
  const discovery = await engine.discover();
  const skill = discovery.skills.find((s) => answersTo(s, name));
  if (skill === undefined) {
    io.stderr(`skillwright: no skill "${name}" in this project (see skillwright list)\n`);
    return 1;
  }
  if (skill.kind !== "skill" || skill.mcpServer !== undefined || skill.source === "bundled") {
    io.stderr(
      `skillwright: ${skill.name} is not a skill folder with a SKILL.md of its own; tune works on those\n`,
    );
    return 1;
  }
  if (skill.disableModelInvocation) {
    io.stderr(`skillwright: ${skill.name} sets disable-model-invocation: the model never calls it\n`);
    return 1;
  }
  const own = await triggerPrompts(engine, skill);
  for (const e of own.errors) io.stderr(`${e}\n`);
  if (own.errors.length > 0) return 1;
  if (!own.prompts.some((p) => p.expected === "trigger")) {
    io.stderr(
      `skillwright: ${skill.name} has no trigger case with should prompts in ${skill.baseDir}/tests/*.yaml; tune measures those\n`,
    );
    return 1;
  }
  const listed = discovery.skills.filter((s) => s.paths === undefined);
  const query = [skill.name, skill.description, skill.whenToUse ?? ""].join(" ");
  const neighbours = (
    await createSkillSearcher().search(
      listed.filter((s) => s.name !== skill.name),
      query,
      { limit: TUNE_NEIGHBOURS },
    )
  ).map((m) => m.skill);
  const prompts = [...own.prompts];
  for (const neighbour of neighbours) {
    const theirs = await triggerPrompts(engine, neighbour);
    for (const e of theirs.errors) io.stderr(`warning: ${neighbour.name}'s cases left out: ${e}\n`);
    prompts.push(...theirs.prompts);
  }
  const split = splitPrompts(prompts, options.seed ?? seedOfName(skill.name));
  const client = await modelClientFromEnv(io.env);
  if (client === undefined) {
    io.stderr(
      "skillwright: tune asks the model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a local or scripted one)\n",
    );
    return 1;
  }
  let original: string;
  try {
    original = await engine.fs.readFile(skill.filePath);
  } catch (error) {
    io.stderr(`skillwright: cannot read ${skill.filePath}: ${errorMessage(error)}\n`);
    return 1;
  }
  const { projectDir } = await engine.roots();
  const settings = await loadSettings({ fs: engine.fs, home: engine.home, projectDir });
  const model = resolveModel(options.model ?? settings.settings.model ?? DEFAULT_MODEL);
  const candidates = options.candidates ?? DEFAULT_CANDIDATES;
  const calls = plannedCalls(split, candidates);
  const target = io.env.ANTHROPIC_BASE_URL ? ` at ${io.env.ANTHROPIC_BASE_URL}` : "";
  const plan =
    `tune ${skill.name}: ${splitSummary({ skill: skill.name, ...split })}\n` +
    `tune: up to ${calls} model calls (${candidates} proposal(s); ${candidates + 1} description(s) × ` +
    `${runsOf(split.working)} working run(s); 2 × ${runsOf(split.heldOut)} held-out run(s)) to ${model}${target}\n`;
  if (!(await approved(io, options, plan))) return 1;
  const progress = options.json
    ? undefined
    : createProgress({ write: io.stderr, tty: io.stderrIsTTY === true, now: Date.now });
  progress?.start(calls);
  let result: Awaited<ReturnType<typeof runTune>>;
  try {
    result = await runTune(
      { skill, neighbours, split, bodyExcerpt: (await skill.loadBody()).slice(0, BODY_EXCERPT_CHARS) },
      {
        candidates,
        propose: async (system, message) => {
          const answer = await client.stream(
            {
              model,
              system,
              messages: [{ role: "user", content: [{ type: "text", text: message }] }],
              tools: [],
              maxTokens: PROPOSAL_MAX_TOKENS,
            },
            { signal: new AbortController().signal },
          );
          return answer.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        },
        open: triggerOpener(engine, client, options.model === undefined ? undefined : model, skill.name),
        offline: offlineScorer(listed, skill),
        ...(progress === undefined ? {} : { onCall: (label: string) => progress.tick(label) }),
      },
    );
  } catch (error) {
    io.stderr(`skillwright: tune failed: ${errorMessage(error)}\n`);
    return 1;
  } finally {
    progress?.finish();
  }
  if (options.write && result.proposal !== undefined) {
    const written = await writeProposal(engine, io, skill.filePath, original, result.proposal);
    io.stdout(
      options.json
        ? tuneJsonReport(result, skill.filePath, written)
        : tuneTextReport(result, skill.filePath, written),
    );
    return written ? 0 : 1;
  }
  io.stdout(
    options.json
      ? tuneJsonReport(result, skill.filePath, false)
      : tuneTextReport(result, skill.filePath, false),
  );
  if (options.write) io.stderr("tune: nothing written (no change proposed)\n");
  return 0;
}

/** Writes `description` into the SKILL.md (true when written), refusing when the file changed during the run or cannot take it. */
async function writeProposal(
  engine: Engine,
  io: CliIo,
  file: string,
  original: string,
  description: string,
): Promise<boolean> {
  let now: string;
  try {
    now = await engine.fs.readFile(file);
  } catch (error) {
    io.stderr(`skillwright: cannot read ${file}: ${errorMessage(error)}\n`);
    return false;
  }
  if (now !== original) {
    io.stderr(`skillwright: ${file} changed during the run; nothing written\n`);
    return false;
  }
  const edit = withDescription(original, description);
  if (!edit.ok) {
    io.stderr(`skillwright: cannot write the description into ${file}: ${edit.reason}\n`);
    return false;
  }
  try {
    await engine.fs.writeFile(file, edit.text);
  } catch (error) {
    io.stderr(`skillwright: cannot write ${file}: ${errorMessage(error)}\n`);
    return false;
  }
  io.stderr(`tune: wrote the new description into ${file}\n`);
  return true;
}
