import type { ModelMessage } from "../agent/model-types.js";
import type { TranscriptEntry } from "../session/transcript-store.js";
import { withoutReminders } from "./export-markdown.js";

/** What `/resume` shows of a stored session. */
export interface SessionSummary {
  id: string;
  name: string | undefined;
  createdAt: string | undefined;
  model: string | undefined;
  /** The first words the user typed. */
  firstPrompt: string | undefined;
  /** Messages of the main conversation. */
  messages: number;
}

function promptText(message: ModelMessage): string | undefined {
  if (typeof message.content === "string") return message.content;
  const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(" ");
  return text === "" ? undefined : text;
}

/** A session's summary from its transcript: the last `/name` counts. Pure. */
export function summarizeSession(id: string, entries: readonly TranscriptEntry[]): SessionSummary {
  let name: string | undefined;
  let createdAt: string | undefined;
  let model: string | undefined;
  let firstPrompt: string | undefined;
  let messages = 0;
  for (const entry of entries) {
    if (entry.type === "name") name = entry.name;
    else if (entry.type === "session") {
      createdAt ??= entry.createdAt;
      model ??= entry.model;
    } else if (entry.type === "message" && entry.agentId === undefined) {
      messages++;
      if (firstPrompt === undefined && entry.message.role === "user") {
        // Skip the listing and other reminders the engine puts before what was typed.
        const text = withoutReminders(promptText(entry.message) ?? "");
        if (text !== "") firstPrompt = text;
      }
    }
  }
  return { id, name, createdAt, model, firstPrompt, messages };
}

/** Which stored session `target` names: an exact id, a session's name, or a unique id prefix of 4+ characters. Pure. */
export function findSession(
  target: string,
  sessions: readonly SessionSummary[],
): { ok: true; id: string } | { ok: false; message: string } {
  const exact = sessions.find((s) => s.id === target);
  if (exact !== undefined) return { ok: true, id: exact.id };
  const named = sessions.filter((s) => s.name === target);
  if (named.length === 1 && named[0] !== undefined) return { ok: true, id: named[0].id };
  if (named.length > 1) {
    return { ok: false, message: `${named.length} sessions are named "${target}": resume one by its id.` };
  }
  const prefixed = target.length >= 4 ? sessions.filter((s) => s.id.startsWith(target)) : [];
  if (prefixed.length === 1 && prefixed[0] !== undefined) return { ok: true, id: prefixed[0].id };
  if (prefixed.length > 1)
    return { ok: false, message: `"${target}" starts ${prefixed.length} session ids.` };
  return { ok: false, message: `No session "${target}". /resume lists the recent ones.` };
}

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The `/resume` list: one line per session, newest first, the current one marked. Pure. */
export function sessionListReport(sessions: readonly SessionSummary[], current: string): string {
  if (sessions.length === 0) return "No stored sessions.\n";
  const lines = sessions.map((s) => {
    const when = s.createdAt === undefined ? "" : ` · ${s.createdAt.slice(0, 16).replace("T", " ")}`;
    const label = s.name === undefined ? "" : ` "${s.name}"`;
    const first = s.firstPrompt === undefined ? "" : ` · ${clip(s.firstPrompt, 60)}`;
    const mark = s.id === current ? "*" : " ";
    return `${mark} ${s.id}${label}${when} · ${s.messages} messages${first}`;
  });
  return `${lines.join("\n")}\nResume one with /resume ID|NAME (an id prefix of 4+ characters will do).\n`;
}
