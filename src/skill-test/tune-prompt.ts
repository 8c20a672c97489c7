import type { TunePrompt } from "./tune-split.js";

/** The longest description a proposal may be (the Agent Skills limit on `description`). */
export const MAX_PROPOSED_DESCRIPTION = 1024;

/** The system prompt of a proposal request; its first sentence is how a scripted model recognises one. */
export const PROPOSAL_SYSTEM = [
  "You improve the description of an agent skill.",
  "An agent decides from each skill's name and description, listed in its context, whether to call the skill",
  "for a user's message. Write a description that makes the agent call this skill for requests like the ones",
  "it should trigger on, and not for the others, nor for what the neighbouring skills do. Say what the skill",
  "does and when to use it, in at most 1024 characters, on one line.",
  "Answer with the description alone: no name, no quotes, no commentary.",
].join("\n");

/** What a proposal request shows the model: the skill, its neighbours and the working part's prompts only. */
export interface ProposalInput {
  name: string;
  description: string;
  whenToUse?: string;
  /** The start of the skill's body, for what it does. */
  bodyExcerpt: string;
  neighbours: readonly { name: string; description: string }[];
  /** The working part (the held-out prompts are never shown). */
  working: readonly TunePrompt[];
  /** Which proposal this is (1-based) and how many are asked for. */
  attempt: number;
  of: number;
  /** Descriptions proposed before this one, to differ from. */
  earlier: readonly string[];
}

/** The user message of a proposal request. Pure. */
export function proposalMessage(input: ProposalInput): string {
  const should = input.working.filter((p) => p.owner === input.name && p.expected === "trigger");
  const shouldNot = input.working.filter((p) => !(p.owner === input.name && p.expected === "trigger"));
  const list = (items: readonly string[]) =>
    items.length === 0 ? "(none)" : items.map((i) => `- ${i}`).join("\n");
  return [
    `Skill: ${input.name}`,
    `Current description: ${input.description}`,
    ...(input.whenToUse === undefined ? [] : [`When to use (kept as is): ${input.whenToUse}`]),
    "",
    "Start of the skill's instructions:",
    input.bodyExcerpt.trim() === "" ? "(empty)" : input.bodyExcerpt.trim(),
    "",
    "Neighbouring skills (listed beside it):",
    list(input.neighbours.map((n) => `${n.name}: ${n.description}`)),
    "",
    "Messages it should be called for:",
    list(should.map((p) => p.prompt)),
    "",
    "Messages it should not be called for:",
    list(shouldNot.map((p) => (p.owner === input.name ? p.prompt : `${p.prompt} (${p.owner}'s)`))),
    "",
    `This is proposal ${input.attempt} of ${input.of}.`,
    ...(input.earlier.length === 0
      ? []
      : ["Make it differ from the earlier proposals:", list(input.earlier)]),
  ].join("\n");
}

/**
 * A proposal's answer as a description: trimmed, one surrounding pair of quotes or a code fence removed, a
 * leading `description:` dropped, whitespace runs (line ends included) made one space. `problem` when nothing
 * is left or it is too long. Pure.
 */
export function descriptionFromAnswer(answer: string): { description: string; problem?: string } {
  let text = answer.trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced?.[1] !== undefined) text = fenced[1].trim();
  text = text.replace(/^description[ \t]*:[ \t]*/i, "");
  const quoted = /^(["'“])([\s\S]*)(["'”])$/.exec(text);
  if (quoted?.[2] !== undefined) text = quoted[2].trim();
  const description = text.replace(/\s+/g, " ").trim();
  if (description === "") return { description, problem: "the answer held no description" };
  if (description.length > MAX_PROPOSED_DESCRIPTION) {
    return {
      description,
      problem: `the description is ${description.length} characters, over ${MAX_PROPOSED_DESCRIPTION}`,
    };
  }
  return { description };
}
