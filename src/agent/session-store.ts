import { randomUUID } from "node:crypto";
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ModelMessage } from "./model-client.js";

/** One line of a session transcript (JSONL). */
export type TranscriptEntry =
  | { type: "session"; id: string; cwd: string; createdAt: string; model: string }
  | { type: "message"; message: ModelMessage; agentId?: string; at: string }
  | { type: "compaction"; summary: string; at: string }
  | { type: "skill"; name: string; args: string; text: string; agentId?: string; at: string }
  /** A `once` hook started (its registry key): a resumed session does not run it again. */
  | { type: "hook_fired"; key: string; at: string };

/** Where transcripts live. File by default; a database in a multi-instance deployment. */
export interface SessionStore {
  /** Appends entries; each is on disk before the promise resolves. */
  append(sessionId: string, entries: TranscriptEntry[]): Promise<void>;
  /** All entries of a session, in order; rejects when the session does not exist. */
  read(sessionId: string): Promise<TranscriptEntry[]>;
  /** Where a session's transcript lives (for hooks' `transcript_path`). */
  location(sessionId: string): string;
}

/** A new session id (UUID v4). */
export function newSessionId(): string {
  return randomUUID();
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * JSONL transcripts under `dir` (`~/.skillwright/sessions/`), one file per session, appended as messages
 * happen. A torn last line (a crash mid-write) is skipped on read, so nothing before it is lost.
 */
export function createFileSessionStore(dir: string): SessionStore {
  const file = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`Invalid session id: ${id}`);
    return join(dir, `${id}.jsonl`);
  };
  return {
    async append(sessionId, entries) {
      if (entries.length === 0) return;
      await mkdir(dir, { recursive: true });
      await appendFile(file(sessionId), entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
    },
    async read(sessionId) {
      const text = await readFile(file(sessionId), "utf8");
      const entries: TranscriptEntry[] = [];
      for (const line of text.split("\n")) {
        if (line.trim() === "") continue;
        try {
          entries.push(JSON.parse(line) as TranscriptEntry);
        } catch {
          // A torn line from a crash: skip it, keep the rest.
        }
      }
      return entries;
    },
    location: file,
  };
}

/**
 * The conversation a transcript holds, as it should be sent on resume: the main agent's messages since the
 * last compaction (whose compacted message, with summary, skills and listing, is stored right after it). Pure.
 */
export function replayMessages(entries: readonly TranscriptEntry[]): ModelMessage[] {
  let messages: ModelMessage[] = [];
  for (const entry of entries) {
    // The compacted message that follows the entry is stored as an ordinary message.
    if (entry.type === "compaction") messages = [];
    else if (entry.type === "message" && entry.agentId === undefined) messages.push(entry.message);
  }
  // A turn cut off after tool calls: drop the dangling assistant tool_use so the API accepts the history.
  const last = messages.at(-1);
  if (
    last?.role === "assistant" &&
    Array.isArray(last.content) &&
    last.content.some((b) => b.type === "tool_use")
  ) {
    messages = messages.slice(0, -1);
  }
  return messages;
}
