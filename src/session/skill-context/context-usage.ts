import type { ModelMessage } from "../../agent/model-types.js";
import { LISTING_HEADER } from "../../listing/block.js";
import { reminderTexts } from "../../listing/read-blocks.js";
import { REATTACH_INTRO } from "../compaction/reattach.js";
import { estimateTokens, messagesTokens } from "../compaction/tokens.js";
import { replayMessages, type TranscriptEntry } from "../transcript-store.js";
import { expiredSkillStub } from "./expiry.js";

/** What one skill costs the context now, in estimated tokens (characters / 4, as compaction counts). */
export interface SkillContextCost {
  name: string;
  /** Its lines in the listing blocks the main conversation holds. */
  listing: number;
  /** Its inline expansions the main agent's requests carry (not expired). */
  expansions: number;
  /** Its section of the re-attachment block after the last compaction. */
  reattached: number;
  /** The stubs that stand in for its expired expansions in the requests. */
  expiredStubs: number;
  /** The conversations of the forks it ran (their own contexts, not the main agent's). */
  forks: number;
  /** listing + expansions + reattached + expiredStubs: what it costs the main agent's requests. */
  mainTotal: number;
}

/** Every skill's cost, heaviest first, and the sums. */
export interface SkillContextUsage {
  skills: SkillContextCost[];
  total: Omit<SkillContextCost, "name">;
}

const COST_FIELDS = ["listing", "expansions", "reattached", "expiredStubs", "forks"] as const;

/** The name an entry line (`- name: description` or `- name`) lists. Pure. */
function listedName(line: string): string {
  const rest = line.slice(2);
  const colon = rest.indexOf(": ");
  return colon < 0 ? rest.trim() : rest.slice(0, colon);
}

/** The texts of the user text blocks of `messages`. Pure. */
function userTexts(messages: readonly ModelMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role !== "user"
      ? []
      : typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])),
  );
}

const REATTACHED_HEADING = /^## Skill "([^"\n]+)", previously invoked in this session$/gm;

/** Each re-attached skill's section (from its heading to the next, or the block's end) by name. Pure. */
function reattachedSections(text: string): { name: string; text: string }[] {
  if (!text.includes(REATTACH_INTRO)) return [];
  const body = text.replace(/\n<\/system-reminder>$/, "");
  const heads = [...body.matchAll(REATTACHED_HEADING)];
  return heads.map((h, i) => {
    const start = h.index ?? 0;
    const end = heads[i + 1]?.index ?? body.length;
    const section = body.slice(start, end).replace(/\n\n\(Not re-attached[\s\S]*$/, "");
    return { name: h[1] ?? "", text: section.trimEnd() };
  });
}

/**
 * What each skill costs the context now, from a session's transcript: its listing lines, live inline
 * expansions, re-attached sections and expired stubs in the main agent's conversation since the last
 * compaction, and its forks' conversations. The one function behind `/context`, `skillwright stats --session`,
 * `session.contextUsage()` and serve's session stats, so they agree. Pure.
 */
export function skillContextUsage(entries: readonly TranscriptEntry[]): SkillContextUsage {
  const costs = new Map<string, SkillContextCost>();
  const cost = (name: string) => {
    let c = costs.get(name);
    if (c === undefined) {
      c = { name, listing: 0, expansions: 0, reattached: 0, expiredStubs: 0, forks: 0, mainTotal: 0 };
      costs.set(name, c);
    }
    return c;
  };
  const main = replayMessages(entries);
  for (const text of reminderTexts(main)) {
    const lines = text.split("\n");
    const header = lines.indexOf(LISTING_HEADER);
    if (header < 0) continue;
    for (const line of lines.slice(header + 1)) {
      if (line.startsWith("- ")) cost(listedName(line)).listing += estimateTokens(line);
    }
  }
  const texts = userTexts(main);
  for (const text of texts) {
    for (const section of reattachedSections(text))
      cost(section.name).reattached += estimateTokens(section.text);
  }
  // The main agent's invocations since the last compaction, each live until an expiry entry for its skill.
  const lastCompaction = entries.findLastIndex((e) => e.type === "compaction");
  const live = new Map<string, string[]>();
  const stubbed = new Set<string>();
  for (const entry of entries.slice(lastCompaction + 1)) {
    if (entry.type === "skill" && entry.agentId === undefined && texts.some((t) => t === entry.text)) {
      live.set(entry.name, [...(live.get(entry.name) ?? []), entry.text]);
      stubbed.delete(entry.name);
    } else if (entry.type === "skill_expired" && live.has(entry.name)) {
      live.delete(entry.name);
      stubbed.add(entry.name);
    }
  }
  for (const [name, expansions] of live) {
    cost(name).expansions += expansions.reduce((sum, t) => sum + estimateTokens(t), 0);
  }
  for (const name of stubbed) cost(name).expiredStubs += estimateTokens(expiredSkillStub(name));
  // A fork's conversation: the messages of its agent, whose first message carries the invocation's text.
  const forkMessages = new Map<string, ModelMessage[]>();
  for (const entry of entries) {
    if (entry.type !== "message" || entry.agentId === undefined) continue;
    forkMessages.set(entry.agentId, [...(forkMessages.get(entry.agentId) ?? []), entry.message]);
  }
  const invocations = entries.flatMap((e) => (e.type === "skill" ? [e] : []));
  for (const messages of forkMessages.values()) {
    const opening = userTexts(messages.slice(0, 1)).join("\n");
    const skill = invocations.find((i) => i.text !== "" && opening.includes(i.text));
    if (skill !== undefined) cost(skill.name).forks += messagesTokens(messages);
  }
  const skills = [...costs.values()]
    .map((c) => ({ ...c, mainTotal: c.listing + c.expansions + c.reattached + c.expiredStubs }))
    .sort((a, b) => b.mainTotal + b.forks - (a.mainTotal + a.forks) || a.name.localeCompare(b.name));
  const total = { listing: 0, expansions: 0, reattached: 0, expiredStubs: 0, forks: 0, mainTotal: 0 };
  for (const s of skills) {
    for (const f of COST_FIELDS) total[f] += s[f];
    total.mainTotal += s.mainTotal;
  }
  return { skills, total };
}

/** The usage as a table: one line per skill, then the total. Pure. */
export function contextUsageLines(usage: SkillContextUsage): string[] {
  const rows = [
    ["skill", "listing", "expansions", "re-attached", "expired stubs", "forks", "main total"],
    ...usage.skills.map((s) => [s.name, ...COST_FIELDS.map((f) => String(s[f])), String(s.mainTotal)]),
    ["total", ...COST_FIELDS.map((f) => String(usage.total[f])), String(usage.total.mainTotal)],
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return [
    ...rows.map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  "),
    ),
    "(estimated tokens: characters / 4; forks count their own context, not the main agent's)",
  ];
}
