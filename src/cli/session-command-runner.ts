import { isAbsolute, join } from "node:path";
import type { Engine } from "../engine/engine.js";
import { pathKind } from "../io/fs.js";
import { resolveModel } from "../models.js";
import type { OpenedSession, OpenSessionOptions } from "../session/open-options.js";
import { conversationMarkdown } from "./export-markdown.js";
import type { CliIo } from "./io.js";
import type { SessionCommand } from "./session-commands.js";
import { findSession, type SessionSummary, sessionListReport, summarizeSession } from "./session-list.js";

/** Sessions `/resume` lists; it finds a target among the 200 most recent. */
const LISTED = 10;
const SEARCHED = 200;

export interface SessionCommandsOptions {
  engine: Engine;
  io: CliIo;
  /** Opens a session with the interactive mode's options and these overrides. */
  open: (overrides: Partial<OpenSessionOptions>) => Promise<OpenedSession>;
  opened: OpenedSession;
  /** The session's name, when it was resumed with one. */
  name: string | undefined;
}

/** The name a stored session was given (its transcript's last `/name`), if any. Never rejects. */
export async function storedName(opened: OpenedSession): Promise<string | undefined> {
  const entries = await opened.transcripts.read(opened.session.id).catch(() => []);
  return summarizeSession(opened.session.id, entries).name;
}

async function recentSessions(opened: OpenedSession, count: number): Promise<SessionSummary[]> {
  const ids = ((await opened.transcripts.list?.()) ?? []).slice(0, count);
  const read = await Promise.all(
    ids.map(async (id) => {
      const entries = await opened.transcripts.read(id).catch(() => undefined);
      return entries === undefined ? [] : [summarizeSession(id, entries)];
    }),
  );
  return read.flat();
}

/** A file name for an export: the session's name made safe, or its id, and the time. Pure. */
export function exportFileName(sessionId: string, name: string | undefined, at: Date): string {
  const slug = name
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  const stamp = at.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return `${slug === undefined || slug === "" ? `session-${sessionId.slice(0, 8)}` : slug}-${stamp}.md`;
}

/**
 * The interactive `/model`, `/new`, `/resume`, `/export` and `/name`: each switch closes the open session and
 * opens another (the same one resumed with another model, a new one, or a stored one), so a turn always runs on
 * one session; the model chosen with `/model` stays for `/new` and `/resume`.
 */
export function createSessionCommands(options: SessionCommandsOptions) {
  const { engine, io, open } = options;
  let opened = options.opened;
  let name = options.name;
  let model: string | undefined;

  async function reopen(overrides: Partial<OpenSessionOptions>): Promise<boolean> {
    await opened.session.close();
    try {
      opened = await open({ resume: undefined, ...(model === undefined ? {} : { model }), ...overrides });
    } catch (error) {
      // The old session is closed: open a new one so the mode goes on, and say why.
      io.stdout(`${error instanceof Error ? error.message : String(error)}\n`);
      opened = await open({ resume: undefined, ...(model === undefined ? {} : { model }) });
      name = undefined;
      io.stdout(`New session ${opened.session.id}.\n`);
      return false;
    }
    for (const d of opened.diagnostics)
      io.stderr(`${d.severity} ${d.code}: ${d.message}${d.path ? ` (${d.path})` : ""}\n`);
    return true;
  }

  async function run(command: SessionCommand): Promise<void> {
    switch (command.kind) {
      case "usage":
        io.stdout(`${command.text}\n`);
        return;
      case "model": {
        if (command.model === undefined) {
          io.stdout(`Model: ${opened.model}\n`);
          return;
        }
        const before = opened.model;
        model = resolveModel(command.model);
        if (await reopen({ resume: opened.session.id })) {
          io.stdout(`Model: ${opened.model} (was ${before}); the conversation goes on.\n`);
        }
        return;
      }
      case "new":
        if (await reopen({})) {
          name = undefined;
          io.stdout(`New session ${opened.session.id} · ${opened.model}.\n`);
        }
        return;
      case "resume": {
        if (command.target === undefined) {
          io.stdout(sessionListReport(await recentSessions(opened, LISTED), opened.session.id));
          return;
        }
        const found = findSession(command.target, await recentSessions(opened, SEARCHED));
        if (!found.ok) {
          io.stdout(`${found.message}\n`);
          return;
        }
        if (await reopen({ resume: found.id })) {
          name = await storedName(opened);
          const shown = name === undefined ? "" : ` "${name}"`;
          io.stdout(
            `Resumed session ${opened.session.id}${shown} · ${opened.model} · ${opened.session.messages().length} messages.\n`,
          );
        }
        return;
      }
      case "name": {
        if (command.name === undefined) {
          io.stdout(
            name === undefined ? "This session has no name: /name NAME gives it one.\n" : `Name: ${name}\n`,
          );
          return;
        }
        name = command.name;
        await opened.transcripts.append(opened.session.id, [
          { type: "name", name, at: new Date().toISOString() },
        ]);
        io.stdout(`Named this session "${name}": /resume ${name} returns to it.\n`);
        return;
      }
      case "export": {
        const now = new Date();
        const file = command.path ?? exportFileName(opened.session.id, name, now);
        const path = isAbsolute(file) ? file : join(engine.cwd, file);
        if ((await pathKind(engine.fs, path)) !== undefined) {
          io.stdout(`${path} exists: nothing was written. Give another file: /export FILE\n`);
          return;
        }
        const markdown = conversationMarkdown(opened.session.messages(), {
          sessionId: opened.session.id,
          name,
          model: opened.model,
          exportedAt: now.toISOString(),
        });
        try {
          await engine.fs.writeFile(path, markdown);
        } catch (error) {
          io.stdout(`Could not write ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
          return;
        }
        io.stdout(`Exported ${opened.session.messages().length} messages to ${path}.\n`);
        return;
      }
    }
  }

  return { run, opened: () => opened };
}
