#!/usr/bin/env node
// repo-notes MCP server: a per-repository notebook over stdio (newline-delimited JSON-RPC 2.0, MCP
// 2024-11-05 .. 2025-11-25). Tools `add_note` and `search_notes`, prompt `recall`. Notes live in
// $REPO_NOTES_DIR (the plugin's data dir), one JSONL file per repository (the server's cwd, or
// $REPO_NOTES_PROJECT). Node built-ins only.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline";

const SERVER_INFO = { name: "repo-notes", version: "1.0.0" };
const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const FALLBACK_PROTOCOL = "2025-06-18";
const MAX_NOTE_CHARS = 4_000;
const MAX_TAGS = 10;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const RECALL_LIMIT = 50;

const project = resolve(process.env.REPO_NOTES_PROJECT || process.cwd());
const notesDir = process.env.REPO_NOTES_DIR || join(homedir(), ".repo-notes");
const slug = basename(project).replace(/[^A-Za-z0-9._-]+/g, "-") || "root";
const notesFile = join(
  notesDir,
  `${slug}-${createHash("sha256").update(project).digest("hex").slice(0, 12)}.jsonl`,
);

const TOOLS = [
  {
    name: "add_note",
    title: "Add a repository note",
    description:
      "Saves a durable note about the current repository (a decision, a convention, a gotcha, a command " +
      `that works) so later sessions can find it. One fact per note, at most ${MAX_NOTE_CHARS} characters. ` +
      "Never store secrets.",
    inputSchema: {
      type: "object",
      properties: {
        text: {
          type: "string",
          description: "The note, self-contained: a later reader has no other context.",
        },
        tags: {
          type: "array",
          items: { type: "string" },
          description: `Up to ${MAX_TAGS} short lowercase tags, e.g. ["build", "testing"].`,
        },
      },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "search_notes",
    title: "Search repository notes",
    description:
      "Lists notes saved for the current repository, newest first. `query` keeps notes containing every " +
      "word (case-insensitive); `tag` keeps notes with that tag. Returns at most `limit` notes " +
      `(default ${DEFAULT_LIMIT}, max ${MAX_LIMIT}).`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        tag: { type: "string" },
        limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
];

const PROMPTS = [
  {
    name: "recall",
    title: "Recall repository notes",
    description:
      "Puts the notes saved for this repository (optionally only those about a topic) into the conversation.",
    arguments: [{ name: "topic", description: "Words a note must contain, or a tag.", required: false }],
  },
];

class InvalidParams extends Error {}

function readNotes() {
  if (!existsSync(notesFile)) return [];
  const notes = [];
  for (const line of readFileSync(notesFile, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const note = JSON.parse(line);
      if (typeof note.text === "string") notes.push(note);
    } catch {
      // A torn last line (crash mid-write) is skipped; the rest of the notebook still reads.
    }
  }
  return notes;
}

function addNote(args) {
  const text = typeof args.text === "string" ? args.text.trim() : "";
  if (text === "") throw new InvalidParams("`text` is required and must not be empty");
  if (text.length > MAX_NOTE_CHARS) {
    throw new InvalidParams(`a note is at most ${MAX_NOTE_CHARS} characters (got ${text.length}); split it`);
  }
  const rawTags = args.tags === undefined ? [] : args.tags;
  if (!Array.isArray(rawTags) || rawTags.some((t) => typeof t !== "string")) {
    throw new InvalidParams("`tags` must be a list of strings");
  }
  const tags = [...new Set(rawTags.map((t) => t.trim().toLowerCase()).filter(Boolean))].slice(0, MAX_TAGS);
  const id = readNotes().reduce((max, n) => Math.max(max, Number(n.id) || 0), 0) + 1;
  mkdirSync(notesDir, { recursive: true });
  appendFileSync(notesFile, `${JSON.stringify({ id, time: new Date().toISOString(), text, tags })}\n`);
  return `Saved note #${id}${tags.length > 0 ? ` [${tags.join(", ")}]` : ""} for ${project}.`;
}

function matching(notes, query, tag) {
  const words = (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  return notes
    .filter((n) => tag === undefined || (n.tags ?? []).includes(tag.toLowerCase()))
    .filter((n) => words.every((w) => n.text.toLowerCase().includes(w) || (n.tags ?? []).includes(w)))
    .reverse();
}

function format(notes) {
  const tags = (n) => (n.tags?.length ? ` [${n.tags.join(", ")}]` : "");
  const head = (n) => `#${n.id} (${String(n.time).slice(0, 10)})${tags(n)}`;
  return notes.map((n) => `${head(n)}\n${n.text}`).join("\n\n");
}

function searchNotes(args) {
  for (const key of ["query", "tag"]) {
    if (args[key] !== undefined && typeof args[key] !== "string")
      throw new InvalidParams(`\`${key}\` must be a string`);
  }
  const limit = args.limit === undefined ? DEFAULT_LIMIT : args.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new InvalidParams(`\`limit\` must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const all = readNotes();
  const found = matching(all, args.query, args.tag);
  if (found.length === 0) {
    return all.length === 0
      ? `No notes saved for ${project} yet.`
      : `No note matches (${all.length} saved in all).`;
  }
  const shown = found.slice(0, limit);
  const more =
    found.length > shown.length ? `\n\n(${found.length - shown.length} older matches not shown)` : "";
  return `${format(shown)}${more}`;
}

function callTool(params) {
  const args = params.arguments ?? {};
  if (typeof args !== "object" || Array.isArray(args)) throw new InvalidParams("arguments must be an object");
  try {
    const text = params.name === "add_note" ? addNote(args) : searchNotes(args);
    return { content: [{ type: "text", text }] };
  } catch (error) {
    // Bad arguments and I/O failures are tool results the model can act on, not protocol errors.
    return { content: [{ type: "text", text: `Error: ${error.message}` }], isError: true };
  }
}

function getPrompt(params) {
  if (params.name !== "recall") throw new InvalidParams(`Unknown prompt: ${params.name}`);
  const topic = typeof params.arguments?.topic === "string" ? params.arguments.topic.trim() : "";
  const all = readNotes();
  const byTag = topic !== "" && all.some((n) => (n.tags ?? []).includes(topic.toLowerCase()));
  const found = matching(all, byTag ? undefined : topic, byTag ? topic : undefined).slice(0, RECALL_LIMIT);
  const about = topic === "" ? "" : ` about "${topic}"`;
  const text =
    found.length === 0
      ? `There are no saved notes${about} for the repository ${project}.`
      : `Here are the notes saved${about} for the repository ${project}, newest first. Treat them as ` +
        "background from earlier sessions: they may be out of date, so check anything you rely on.\n\n" +
        format(found);
  return {
    description: `Repository notes${about}`,
    messages: [{ role: "user", content: { type: "text", text } }],
  };
}

function handle(method, params) {
  switch (method) {
    case "initialize": {
      const asked = params?.protocolVersion;
      return {
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : FALLBACK_PROTOCOL,
        capabilities: { tools: {}, prompts: {} },
        serverInfo: SERVER_INFO,
        instructions:
          "Notes about the current repository. Search them before answering questions about conventions.",
      };
    }
    case "ping":
      return {};
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      if (!TOOLS.some((t) => t.name === params?.name))
        throw new InvalidParams(`Unknown tool: ${params?.name}`);
      return callTool(params);
    case "prompts/list":
      return { prompts: PROMPTS };
    case "prompts/get":
      return getPrompt(params ?? {});
    default:
      return undefined;
  }
}

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  if (
    typeof message !== "object" ||
    message === null ||
    Array.isArray(message) ||
    typeof message.method !== "string"
  ) {
    if (message?.id !== undefined && message?.method === undefined) return; // a response to us: none expected
    send({ id: message?.id ?? null, error: { code: -32600, message: "Invalid Request" } });
    return;
  }
  if (message.id === undefined) return; // notifications (initialized, cancelled, …) need no answer
  try {
    const result = handle(message.method, message.params);
    if (result === undefined)
      send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    else send({ id: message.id, result });
  } catch (error) {
    const code = error instanceof InvalidParams ? -32602 : -32603;
    send({ id: message.id, error: { code, message: error.message } });
  }
});
