import type { ModelMessage, ModelToolResultBlock } from "../../agent/model-types.js";
import { REATTACH_INTRO } from "../compaction/reattach.js";
import type { TranscriptEntry } from "../transcript-store.js";

// What the model was given in a session, read back from its transcript: the `<system-reminder>` blocks (the
// skill listing as sent and its deltas), each skill's invocations (expanded inline or run as a fork) and
// expiries, and each tool call with the result the model got. For serve's model-input view.

/**
 * A `<system-reminder>` block a conversation carried: `listing` the first listing an agent was sent (the main
 * agent's again after each compaction), `delta` a later listing block (new skills, nested skills announced),
 * `reattached` the skills re-attached after a compaction, `other` any other note (a background fork's answer…).
 */
export interface ModelInputReminder {
  kind: "listing" | "delta" | "reattached" | "other";
  at: string;
  /** The fork whose conversation carried it; absent: the main agent's. */
  agentId?: string;
  /** The block as sent, tags included. */
  text: string;
}

/** One thing that happened to a skill: an invocation (`inline` or `fork`) or its expansion's expiry. */
export interface ModelInputSkillEvent {
  kind: "inline" | "fork" | "expired";
  name: string;
  at: string;
  /** The invocation's arguments (absent for an expiry). */
  args?: string;
  /** The agent that invoked it (a fork's id); absent: the main agent. */
  agentId?: string;
  /** A fork invocation: the id of the fork it ran as. */
  forkId?: string;
  /** An invocation's text: the expansion sent inline, or the fork's task. */
  text?: string;
}

/** A skill, summed over the session: listed or not, how often expanded, forked and expired, and its state now. */
export interface ModelInputSkill {
  name: string;
  listed: boolean;
  inline: number;
  forks: number;
  expired: number;
  /** Its last event: `expanded` (inline), `forked`, `expired`, or `listed` (never invoked). */
  now: "listed" | "expanded" | "forked" | "expired";
}

/** A tool call as the model made it, and the result it was given (absent while none was). */
export interface ModelInputCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  at: string;
  agentId?: string;
  result?: string;
  isError: boolean;
}

export interface ModelInput {
  reminders: ModelInputReminder[];
  skillEvents: ModelInputSkillEvent[];
  skills: ModelInputSkill[];
  calls: ModelInputCall[];
  /** When the main conversation was compacted. */
  compactions: string[];
}

/** How a listing block's second line ends (a listing, a delta, or a nested-skills announcement). */
const LISTING_HEADER_END = "the Skill tool:";

/** The user text blocks of `message` that are `<system-reminder>` blocks (with or without a line break after the tag). Pure. */
function reminderTexts(message: ModelMessage): string[] {
  if (message.role !== "user" || typeof message.content === "string") return [];
  return message.content.flatMap((b) =>
    b.type === "text" && b.text.startsWith("<system-reminder>") ? [b.text] : [],
  );
}

/** A reminder block's kind, given whether its agent was already sent a listing. Pure. */
function reminderKind(text: string, listed: boolean): ModelInputReminder["kind"] {
  const header = text.split("\n", 2)[1] ?? "";
  if (header === REATTACH_INTRO.split("\n")[0]) return "reattached";
  if (header.endsWith(LISTING_HEADER_END)) return listed ? "delta" : "listing";
  return "other";
}

/** A tool result's content as text: its text blocks, an image or a tool reference named. Pure. */
function resultText(block: ModelToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return block.content
    .map((b) => (b.type === "text" ? b.text : b.type === "image" ? "[image]" : `[tool ${b.tool_name}]`))
    .join("\n");
}

/** The first user text of a conversation (a fork's opening message carries its task). Pure. */
function openingText(messages: readonly ModelMessage[]): string {
  const first = messages.find((m) => m.role === "user");
  if (first === undefined) return "";
  if (typeof first.content === "string") return first.content;
  return first.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

/** The names a listing block lists (its `- name` and `- name: description` lines). Pure. */
function listedNames(text: string): string[] {
  const lines = text.split("\n");
  if (!(lines[1] ?? "").endsWith(LISTING_HEADER_END)) return [];
  return lines.flatMap((line) => {
    if (!line.startsWith("- ")) return [];
    const rest = line.slice(2);
    const colon = rest.indexOf(": ");
    const name = (colon < 0 ? rest : rest.slice(0, colon)).replace(/ \(.*$/, "").trim();
    return name === "" ? [] : [name];
  });
}

/**
 * What the model was given in a session, from its transcript `entries`: every `<system-reminder>` block of every
 * agent's conversation in order (the main agent's first listing, and again after each compaction, is `listing`;
 * later ones `delta`), the skills' invocations (a fork's when a fork's conversation opens with its text, else
 * inline) and expiries, each skill's totals, and the tool calls with the results sent back. Pure.
 */
export function modelInput(entries: readonly TranscriptEntry[]): ModelInput {
  const reminders: ModelInputReminder[] = [];
  const calls = new Map<string, ModelInputCall>();
  const compactions: string[] = [];
  const listedAgents = new Set<string>();
  const forkConversations = new Map<string, ModelMessage[]>();
  const MAIN = "";
  for (const entry of entries) {
    if (entry.type === "compaction") {
      compactions.push(entry.at);
      listedAgents.delete(MAIN);
      continue;
    }
    if (entry.type !== "message") continue;
    const agent = entry.agentId ?? MAIN;
    const who = entry.agentId === undefined ? {} : { agentId: entry.agentId };
    if (entry.agentId !== undefined) {
      forkConversations.set(entry.agentId, [...(forkConversations.get(entry.agentId) ?? []), entry.message]);
    }
    for (const text of reminderTexts(entry.message)) {
      const kind = reminderKind(text, listedAgents.has(agent));
      if (kind === "listing" || kind === "delta") listedAgents.add(agent);
      reminders.push({ kind, at: entry.at, ...who, text });
    }
    if (typeof entry.message.content === "string") continue;
    for (const block of entry.message.content) {
      if (block.type === "tool_use" && entry.message.role === "assistant") {
        calls.set(block.id, {
          id: block.id,
          name: block.name,
          input: block.input,
          at: entry.at,
          ...who,
          isError: false,
        });
      } else if (block.type === "tool_result") {
        const call = calls.get(block.tool_use_id);
        if (call !== undefined) {
          call.result = resultText(block);
          call.isError = block.is_error === true;
        }
      }
    }
  }
  const openings = [...forkConversations].map(([id, messages]) => ({ id, text: openingText(messages) }));
  const claimed = new Set<string>();
  const skillEvents: ModelInputSkillEvent[] = [];
  for (const entry of entries) {
    if (entry.type === "skill_expired") {
      skillEvents.push({ kind: "expired", name: entry.name, at: entry.at });
      continue;
    }
    if (entry.type !== "skill") continue;
    // The fork it ran as: the first fork not yet matched whose conversation opens with the invocation's text.
    const fork =
      entry.text === ""
        ? undefined
        : openings.find((o) => !claimed.has(o.id) && o.id !== entry.agentId && o.text.includes(entry.text));
    if (fork !== undefined) claimed.add(fork.id);
    skillEvents.push({
      kind: fork === undefined ? "inline" : "fork",
      name: entry.name,
      at: entry.at,
      args: entry.args,
      ...(entry.agentId === undefined ? {} : { agentId: entry.agentId }),
      ...(fork === undefined ? {} : { forkId: fork.id }),
      text: entry.text,
    });
  }
  return {
    reminders,
    skillEvents,
    skills: skillTotals(reminders, skillEvents),
    calls: [...calls.values()],
    compactions,
  };
}

/** Each skill listed or invoked, by name: its counts and its last event. Pure. */
function skillTotals(
  reminders: readonly ModelInputReminder[],
  events: readonly ModelInputSkillEvent[],
): ModelInputSkill[] {
  const skills = new Map<string, ModelInputSkill>();
  const skill = (name: string) => {
    let s = skills.get(name);
    if (s === undefined) {
      s = { name, listed: false, inline: 0, forks: 0, expired: 0, now: "listed" };
      skills.set(name, s);
    }
    return s;
  };
  for (const r of reminders) {
    if (r.kind !== "listing" && r.kind !== "delta") continue;
    for (const name of listedNames(r.text)) skill(name).listed = true;
  }
  for (const e of events) {
    const s = skill(e.name);
    if (e.kind === "inline") {
      s.inline++;
      // A fork's own inline invocation does not change what the main agent holds.
      if (e.agentId === undefined) s.now = "expanded";
    } else if (e.kind === "fork") {
      s.forks++;
      if (s.now !== "expanded") s.now = "forked";
    } else {
      s.expired++;
      s.now = "expired";
    }
  }
  return [...skills.values()].sort((a, b) => a.name.localeCompare(b.name));
}
