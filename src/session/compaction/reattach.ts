import type { InvokedSkill } from "../../skill-tool/invoked-skill.js";
import type { TranscriptEntry } from "../transcript-store.js";
import { ESTIMATE_CHARS_PER_TOKEN, estimateTokens } from "./tokens.js";

/** Most tokens of one skill's text re-attached after compaction; longer text is truncated with a note. */
export const REATTACH_SKILL_TOKEN_CAP = 5_000;
/** Most tokens of skill text re-attached after compaction in all; older skills that do not fit are dropped. */
export const REATTACH_TOTAL_TOKEN_CAP = 25_000;
/** Chars kept free for the truncation note, so a truncated text plus its note stays within the cap. */
const TRUNCATION_NOTE_RESERVE = 240;
/** A truncated text ends at a line break when there is one within this many chars before the cut. */
const LINE_SNAP_CHARS = 1_000;

/** A skill re-attached after compaction. */
export interface ReattachedSkill {
  name: string;
  args: string;
  /** The text as re-attached: the expansion, or its head plus {@link truncationNote}. */
  text: string;
  truncated: boolean;
  /** `estimateTokens(text)`; at most {@link REATTACH_SKILL_TOKEN_CAP}. */
  tokens: number;
}

/** What {@link planReattachment} keeps and drops. */
export interface ReattachmentPlan {
  /** Newest first; the sum of `tokens` is at most {@link REATTACH_TOTAL_TOKEN_CAP}. */
  included: ReattachedSkill[];
  /** Names of skills left out to stay within the total cap, newest first. */
  dropped: string[];
}

/** Opening line of the re-attached skills block (after `<system-reminder>⏎`). */
export const REATTACH_INTRO =
  "The skills below were invoked earlier in this session, before the conversation was compacted. Each is " +
  "shown as it was expanded at its last invocation, newest first. They are context, not new requests: their " +
  "arguments are historical and must not be re-executed, so do not invoke a skill again because of them, do " +
  "not re-run its inline shell commands and do not redo actions it asked for that were already done. Keep " +
  "following their instructions where they still apply to the current work.";

/** Thousands separators, independent of the runtime's locale data. */
function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The note that ends a truncated skill text; `omitted` is how many chars of the expansion were left out. */
export function truncationNote(omitted: number): string {
  return (
    `[Truncated when re-attached after compaction: the last ${formatCount(omitted)} chars of this skill's ` +
    `text were left out (limit ${formatCount(REATTACH_SKILL_TOKEN_CAP)} tokens per skill).]`
  );
}

/** The heading of one re-attached skill: its name, the previously-invoked mark and its historical args. */
export function reattachedSkillHeading(name: string, args: string): string {
  const shownArgs = args === "" ? "none" : JSON.stringify(args);
  return (
    `## Skill "${name}", previously invoked in this session\n` +
    `Arguments (historical, not to be re-executed): ${shownArgs}`
  );
}

/** The closing line naming the skills dropped to fit {@link REATTACH_TOTAL_TOKEN_CAP}. */
export function droppedSkillsNote(names: readonly string[]): string {
  const list = names.map((n) => `"${n}"`).join(", ");
  return (
    `(Not re-attached, to stay within ${formatCount(REATTACH_TOTAL_TOKEN_CAP)} tokens of skill text: ` +
    `${list}. Invoke a skill again with the Skill tool if it is needed now.)`
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The text capped at {@link REATTACH_SKILL_TOKEN_CAP}: its head (at a line break when one is near) + note. */
function capText(text: string): { text: string; truncated: boolean } {
  if (estimateTokens(text) <= REATTACH_SKILL_TOKEN_CAP) return { text, truncated: false };
  let cut = REATTACH_SKILL_TOKEN_CAP * ESTIMATE_CHARS_PER_TOKEN - TRUNCATION_NOTE_RESERVE;
  const lineBreak = text.lastIndexOf("\n", cut - 1);
  if (lineBreak > 0 && lineBreak >= cut - LINE_SNAP_CHARS) cut = lineBreak;
  else if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return { text: `${text.slice(0, cut)}\n\n${truncationNote(text.length - cut)}`, truncated: true };
}

/**
 * Chooses what to re-attach after compaction (SPEC §8): only the main agent's inline invocations (no `agentId`;
 * a fork's task text was its sub-agent's, never in this conversation, so it is not brought in as a skill);
 * for each skill name its last invocation (greatest `at`, later in the array on a tie); newest first; each
 * text capped at {@link REATTACH_SKILL_TOKEN_CAP} tokens; then, newest first, each skill is kept when it
 * fits in what is left of {@link REATTACH_TOTAL_TOKEN_CAP}, else dropped (and the next one tried). Pure.
 */
export function planReattachment(invocations: readonly InvokedSkill[]): ReattachmentPlan {
  const latest = new Map<string, { invocation: InvokedSkill; index: number }>();
  invocations.forEach((invocation, index) => {
    if (invocation.agentId !== undefined || invocation.fork === true) return;
    const seen = latest.get(invocation.name);
    if (seen === undefined || invocation.at >= seen.invocation.at)
      latest.set(invocation.name, { invocation, index });
  });
  const newestFirst = [...latest.values()].sort(
    (a, b) => b.invocation.at - a.invocation.at || b.index - a.index,
  );
  const plan: ReattachmentPlan = { included: [], dropped: [] };
  let used = 0;
  for (const { invocation } of newestFirst) {
    const capped = capText(invocation.text);
    const tokens = estimateTokens(capped.text);
    if (used + tokens > REATTACH_TOTAL_TOKEN_CAP) {
      plan.dropped.push(invocation.name);
      continue;
    }
    used += tokens;
    plan.included.push({ name: invocation.name, args: invocation.args, ...capped, tokens });
  }
  return plan;
}

/** One re-attached skill as it appears in the block: heading, blank line, text. */
export function renderReattachedSkill(skill: Pick<ReattachedSkill, "name" | "args" | "text">): string {
  return `${reattachedSkillHeading(skill.name, skill.args)}\n\n${skill.text}`;
}

/**
 * The text block that re-attaches invoked skills after compaction, or undefined when the main agent invoked
 * none: `<system-reminder>⏎{REATTACH_INTRO}⏎⏎{skill}⏎⏎{skill}…[⏎⏎{dropped note}]⏎</system-reminder>`, each
 * skill rendered by {@link renderReattachedSkill}, chosen and ordered by {@link planReattachment}. Pure.
 */
export function reattachInvokedSkills(invocations: readonly InvokedSkill[]): string | undefined {
  const plan = planReattachment(invocations);
  if (plan.included.length === 0) return undefined;
  const parts = [REATTACH_INTRO, ...plan.included.map(renderReattachedSkill)];
  if (plan.dropped.length > 0) parts.push(droppedSkillsNote(plan.dropped));
  return `<system-reminder>\n${parts.join("\n\n")}\n</system-reminder>`;
}

/**
 * The skill invocations a transcript recorded (its `skill` entries), in order, with `at` parsed to ms
 * (an unparsable time counts as 0, so it sorts oldest). Pure.
 */
export function invocationsFromTranscript(entries: readonly TranscriptEntry[]): InvokedSkill[] {
  const invocations: InvokedSkill[] = [];
  for (const entry of entries) {
    if (entry.type !== "skill") continue;
    const at = Date.parse(entry.at);
    invocations.push({
      name: entry.name,
      args: entry.args,
      text: entry.text,
      ...(entry.agentId === undefined ? {} : { agentId: entry.agentId }),
      ...(entry.fork === true ? { fork: true } : {}),
      at: Number.isNaN(at) ? 0 : at,
    });
  }
  return invocations;
}

/** The transcript entry that records an invocation: the inverse of {@link invocationsFromTranscript}. Pure. */
export function invocationEntry(invocation: InvokedSkill): TranscriptEntry {
  return {
    type: "skill",
    name: invocation.name,
    args: invocation.args,
    text: invocation.text,
    at: new Date(invocation.at).toISOString(),
    ...(invocation.agentId ? { agentId: invocation.agentId } : {}),
    ...(invocation.fork === true ? { fork: true } : {}),
  };
}
