import { randomUUID } from "node:crypto";
import { appendFile, chmod, mkdir, readdir, readFile, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import type { ModelMessage } from "../agent/model-types.js";
import { UnknownSessionError } from "./unknown-session-error.js";

/** One line of a session transcript (JSONL). */
export type TranscriptEntry =
  | { type: "session"; id: string; cwd: string; createdAt: string; model: string }
  | { type: "message"; message: ModelMessage; agentId?: string; at: string }
  | { type: "compaction"; summary: string; at: string }
  | { type: "skill"; name: string; args: string; text: string; agentId?: string; fork?: true; at: string }
  /** A `once` hook started (its registry key): a resumed session does not run it again. */
  | { type: "hook_fired"; key: string; at: string }
  /** The main agent's expansion of skill `name` expired: requests carry its stub instead until it is invoked again. */
  | { type: "skill_expired"; name: string; at: string }
  /** The name the user gave the session (interactive `/name`); the last one counts. */
  | { type: "name"; name: string; at: string };

/** Where transcripts live. File by default; a database in a multi-instance deployment. */
export interface TranscriptStore {
  /** Appends entries; each is on disk before the promise resolves. */
  append(sessionId: string, entries: TranscriptEntry[]): Promise<void>;
  /** All entries of a session, in order; rejects with `UnknownSessionError` when the session does not exist. */
  read(sessionId: string): Promise<TranscriptEntry[]>;
  /** Where a session's transcript lives (for hooks' `transcript_path`). */
  location(sessionId: string): string;
  /** The ids of the stored sessions, the most recently written first; absent for a store of one session. */
  list?(): Promise<string[]>;
}

/** A new session id (UUID v4). */
export function newSessionId(): string {
  return randomUUID();
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Mode of the sessions dir: only its owner may list or enter it (transcripts hold whole conversations). */
export const SESSION_DIR_MODE = 0o700;
/** Mode of each transcript file (and its `.torn` side file): read and written by its owner only. */
export const SESSION_FILE_MODE = 0o600;
/** The suffix of the side file that keeps a torn tail's bytes. */
export const TORN_SUFFIX = ".torn";

/** What a tail repair did, for a warning: the transcript, the side file and how many bytes moved there. */
export interface TornTail {
  path: string;
  tornPath: string;
  bytes: number;
}

export interface FileTranscriptStoreOptions {
  /** Told each time a torn last line is moved out of a transcript (see {@link createFileTranscriptStore}). */
  onTornTail?: (torn: TornTail) => void;
}

/**
 * JSONL transcripts under `dir` (`~/.skillwright/sessions/`), one file per session, appended as messages
 * happen; every record ends with a newline. The dir is created 0700 and each file 0600 (an existing dir or file
 * of ours is narrowed to those modes on its first write). The first read or write of a session repairs its
 * tail: a last line a crash left half-written is cut off (so the next record starts on a line of its own and
 * is not lost), its bytes kept in `{file}.torn`, and `onTornTail` told; a last line that is whole JSON and
 * only lacks its newline gets the newline instead. On read, a line two records were run together on (a torn
 * line an older version appended to) yields the record that follows the tear. Never loses a whole line.
 */
export function createFileTranscriptStore(
  dir: string,
  options: FileTranscriptStoreOptions = {},
): TranscriptStore {
  const file = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`Invalid session id: ${id}`);
    return join(dir, `${id}.jsonl`);
  };
  // Per session: the first read or write checks the dir, the modes and the tail, once.
  const prepared = new Map<string, Promise<void>>();
  const prepare = (id: string): Promise<void> => {
    let done = prepared.get(id);
    if (done === undefined) {
      done = prepareFile(dir, file(id), options.onTornTail);
      prepared.set(id, done);
      done.catch(() => prepared.delete(id));
    }
    return done;
  };
  return {
    async append(sessionId, entries) {
      if (entries.length === 0) return;
      await prepare(sessionId);
      await appendFile(file(sessionId), entries.map((e) => `${JSON.stringify(e)}\n`).join(""), {
        mode: SESSION_FILE_MODE,
      });
    },
    async read(sessionId) {
      // A session that does not exist (or an id no session can have) rejects here, before anything is created.
      if (!SAFE_ID.test(sessionId) || !(await isFile(file(sessionId))))
        throw new UnknownSessionError(sessionId, dir);
      const path = file(sessionId);
      await prepare(sessionId);
      return parseTranscript(await readFile(path, "utf8"));
    },
    location: file,
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
        throw error;
      }
      const ids = names.filter((n) => n.endsWith(".jsonl")).map((n) => n.slice(0, -".jsonl".length));
      const dated = await Promise.all(
        ids
          .filter((id) => SAFE_ID.test(id))
          .map(async (id) => ({ id, at: (await stat(file(id)).catch(() => undefined))?.mtimeMs ?? 0 })),
      );
      return dated.sort((a, b) => b.at - a.at || a.id.localeCompare(b.id)).map((d) => d.id);
    },
  };
}

/** True when `path` is a file; false when nothing is there. Other errors (no permission) reject. */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return false;
    throw error;
  }
}

async function prepareFile(dir: string, path: string, onTornTail: FileTranscriptStoreOptions["onTornTail"]) {
  await mkdir(dir, { recursive: true, mode: SESSION_DIR_MODE });
  // Narrowing an existing dir or file is best effort: one owned by someone else keeps its mode.
  await chmod(dir, SESSION_DIR_MODE).catch(() => undefined);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return;
    throw error;
  }
  await chmod(path, SESSION_FILE_MODE).catch(() => undefined);
  const torn = tornTail(bytes);
  if (torn === undefined) return;
  if (torn.kind === "unterminated") {
    await appendFile(path, "\n");
    return;
  }
  const tornPath = `${path}${TORN_SUFFIX}`;
  await appendFile(tornPath, Buffer.concat([bytes.subarray(torn.keep), Buffer.from("\n")]), {
    mode: SESSION_FILE_MODE,
  });
  await truncate(path, torn.keep);
  onTornTail?.({ path, tornPath, bytes: bytes.length - torn.keep });
}

/**
 * What is wrong with a transcript's end, if anything: `torn` when the last line is not whole JSON (keep the
 * first `keep` bytes), `unterminated` when it is whole JSON but lacks its newline. Pure.
 */
export function tornTail(
  bytes: Uint8Array,
): { kind: "torn"; keep: number } | { kind: "unterminated" } | undefined {
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return undefined;
  const keep = Buffer.from(bytes).lastIndexOf(0x0a) + 1;
  const last = Buffer.from(bytes.subarray(keep)).toString("utf8");
  return parseRecord(last) === undefined ? { kind: "torn", keep } : { kind: "unterminated" };
}

const RECORD_START = '{"type":';

/**
 * The entries of a transcript's text, in order. Blank lines are skipped; a line that is not JSON yields the
 * record that starts after the last tear in it (an older version appended the next record onto a torn line),
 * or nothing. Pure.
 */
export function parseTranscript(text: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const whole = parseRecord(line);
    if (whole !== undefined) {
      entries.push(whole);
      continue;
    }
    for (let at = line.indexOf(RECORD_START, 1); at !== -1; at = line.indexOf(RECORD_START, at + 1)) {
      const rest = parseRecord(line.slice(at));
      if (rest !== undefined) {
        entries.push(rest);
        break;
      }
    }
  }
  return entries;
}

function parseRecord(line: string): TranscriptEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) && "type" in value
      ? (value as TranscriptEntry)
      : undefined;
  } catch {
    return undefined;
  }
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
