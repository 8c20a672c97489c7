import { answersTo, type Skill } from "../skill/skill.js";
import { skillCalled, type TriggerSession } from "./run-trigger.js";
import {
  type CandidateScore,
  heldOutVerdict,
  type PromptOutcome,
  pickCandidate,
  type SplitScore,
  scoreSplit,
} from "./tune-decision.js";
import { descriptionFromAnswer, PROPOSAL_SYSTEM, proposalMessage } from "./tune-prompt.js";
import type { TunePrompt, TuneSplit } from "./tune-split.js";

/** What a tune run works on: the skill, its neighbours (the retriever's closest) and the split of their prompts. */
export interface TuneSubject {
  skill: Skill;
  neighbours: readonly Skill[];
  split: TuneSplit;
  /** The start of the skill's body, shown to the model with the proposal request. */
  bodyExcerpt: string;
}

/** The I/O of a tune run, injected. */
export interface TuneDeps {
  /** How many descriptions to ask the model for. */
  candidates: number;
  /** One proposal request (system prompt, user message): the answer's text. */
  propose: (system: string, message: string) => Promise<string>;
  /** Opens one trigger session whose listing shows the tuned skill with `description`. */
  open: (description: string) => Promise<TriggerSession>;
  /**
   * The offline retriever's free score of a description on some prompts: the share of the tuned skill's
   * `should` prompts for which it ranks first (undefined when there are none). Absent: not scored.
   */
  offline?: (description: string, prompts: readonly TunePrompt[]) => Promise<number | undefined>;
  /** Told after each model call, for a progress bar. */
  onCall?: (label: string) => void;
}

/** A description's scores: the model's on each part it ran on, the retriever's beside them. */
export interface DescriptionScores {
  description: string;
  /** Why the proposal was not scored (empty, too long, the same as the current one). */
  problem?: string;
  working?: SplitScore;
  heldOut?: SplitScore;
  offline?: { working?: number | undefined; heldOut?: number | undefined };
}

/** Everything a tune run found, and its verdict. */
export interface TuneResult {
  skill: string;
  seed: number;
  working: readonly TunePrompt[];
  heldOut: readonly TunePrompt[];
  neighbours: string[];
  current: DescriptionScores;
  candidates: DescriptionScores[];
  /** The candidate checked on the held-out part (0-based), if any. */
  chosen?: number;
  /** The description proposed; absent when none is. */
  proposal?: string;
  reason: string;
}

/** The runs of some prompts: each prompt as many times as its case says. Pure. */
export function runsOf(prompts: readonly TunePrompt[]): number {
  return prompts.reduce((sum, p) => sum + p.runs, 0);
}

/**
 * The most model calls a tune run makes: the proposals, every description (the current one and each
 * candidate) on the working part, then the current one and the working part's choice on the held-out part
 * (skipped when nothing was chosen). Pure.
 */
export function plannedCalls(split: Pick<TuneSplit, "working" | "heldOut">, candidates: number): number {
  return candidates + (candidates + 1) * runsOf(split.working) + 2 * runsOf(split.heldOut);
}

/** The skill a call names, by its canonical name when it is the tuned skill or a neighbour. */
function canonical(called: string | undefined, known: readonly Skill[]): string | undefined {
  if (called === undefined) return undefined;
  return known.find((s) => answersTo(s, called))?.name ?? called;
}

async function runPart(
  subject: TuneSubject,
  description: string,
  prompts: readonly TunePrompt[],
  label: string,
  deps: TuneDeps,
): Promise<SplitScore> {
  const known = [subject.skill, ...subject.neighbours];
  const outcomes: PromptOutcome[] = [];
  for (const prompt of prompts) {
    const calls: (string | undefined)[] = [];
    for (let i = 0; i < prompt.runs; i++) {
      calls.push(canonical(await skillCalled(() => deps.open(description), prompt.prompt), known));
      deps.onCall?.(label);
    }
    outcomes.push({ prompt, calls });
  }
  return scoreSplit(
    subject.skill.name,
    subject.neighbours.map((n) => n.name),
    outcomes,
  );
}

/**
 * `skillwright tune`: asks the model for `candidates` descriptions (showing it the working part only), scores
 * the current description and each candidate on the working part, picks the best that beats the current one
 * there ({@link pickCandidate}), then runs it and the current one on the held-out part and proposes it only when
 * {@link heldOutVerdict} says so. Writes nothing.
 */
export async function runTune(subject: TuneSubject, deps: TuneDeps): Promise<TuneResult> {
  const { skill, split } = subject;
  const current = skill.description;
  const candidates: DescriptionScores[] = [];
  for (let attempt = 1; attempt <= deps.candidates; attempt++) {
    const answer = await deps.propose(
      PROPOSAL_SYSTEM,
      proposalMessage({
        name: skill.name,
        description: current,
        ...(skill.whenToUse === undefined ? {} : { whenToUse: skill.whenToUse }),
        bodyExcerpt: subject.bodyExcerpt,
        neighbours: subject.neighbours.map((n) => ({ name: n.name, description: n.description })),
        working: split.working,
        attempt,
        of: deps.candidates,
        earlier: candidates.map((c) => c.description).filter((d) => d !== ""),
      }),
    );
    deps.onCall?.(`proposal ${attempt}`);
    const parsed = descriptionFromAnswer(answer);
    const earlier = candidates.findIndex((c) => c.description === parsed.description);
    const problem =
      parsed.problem ??
      (parsed.description === current
        ? "the same as the current description"
        : earlier === -1
          ? undefined
          : `the same as candidate ${earlier + 1}`);
    candidates.push({ description: parsed.description, ...(problem === undefined ? {} : { problem }) });
  }
  const offline = async (description: string, prompts: readonly TunePrompt[]) =>
    deps.offline === undefined ? undefined : deps.offline(description, prompts);
  const currentWorking = await runPart(subject, current, split.working, "current (working)", deps);
  const currentScores: DescriptionScores = {
    description: current,
    working: currentWorking,
    offline: { working: await offline(current, split.working) },
  };
  for (const [i, candidate] of candidates.entries()) {
    if (candidate.problem !== undefined) continue;
    candidate.working = await runPart(
      subject,
      candidate.description,
      split.working,
      `candidate ${i + 1} (working)`,
      deps,
    );
    candidate.offline = { working: await offline(candidate.description, split.working) };
  }
  const base = {
    skill: skill.name,
    seed: split.seed,
    working: split.working,
    heldOut: split.heldOut,
    neighbours: subject.neighbours.map((n) => n.name),
    current: currentScores,
    candidates,
  };
  const scored: CandidateScore[] = candidates.map((c) => ({
    description: c.description,
    ...(c.working === undefined ? {} : { working: c.working }),
  }));
  const pick = pickCandidate(currentWorking, scored);
  const chosen = pick.index === undefined ? undefined : candidates[pick.index];
  if (pick.index === undefined || chosen === undefined) return { ...base, reason: pick.reason };
  currentScores.heldOut = await runPart(subject, current, split.heldOut, "current (held out)", deps);
  chosen.heldOut = await runPart(
    subject,
    chosen.description,
    split.heldOut,
    `candidate ${pick.index + 1} (held out)`,
    deps,
  );
  currentScores.offline = { ...currentScores.offline, heldOut: await offline(current, split.heldOut) };
  chosen.offline = { ...chosen.offline, heldOut: await offline(chosen.description, split.heldOut) };
  const verdict = heldOutVerdict(currentScores.heldOut, chosen.heldOut);
  return {
    ...base,
    chosen: pick.index,
    ...(verdict.propose ? { proposal: chosen.description } : {}),
    reason: `${pick.reason}; ${verdict.reason}`,
  };
}
