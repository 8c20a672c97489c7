import { appendFile } from "node:fs/promises";
import { type AgentEvent, type AgentResult, emptyUsage } from "../../agent/events.js";
import type { Engine } from "../../engine/engine.js";
import { isRecord } from "../../is-record.js";
import { openSession } from "../../session/open.js";
import { UnknownSessionError } from "../../session/unknown-session-error.js";
import { withTelemetry } from "../../telemetry/with-telemetry.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { prepareRun } from "../model-setup.js";
import { noticeHeld } from "../skill-approval.js";

/** The `result` line of `--output-format json|stream-json`, shaped like Claude Code's headless output. */
export function resultRecord(
  result: AgentResult,
  sessionId: string,
  durationMs: number,
): Record<string, unknown> {
  const subtype =
    result.cause === "end_turn"
      ? "success"
      : result.cause === "max_turns"
        ? "error_max_turns"
        : "error_during_execution";
  return {
    type: "result",
    subtype,
    is_error: result.cause !== "end_turn",
    duration_ms: durationMs,
    num_turns: result.turns,
    result: result.text,
    session_id: sessionId,
    usage: result.usage,
    ...(result.error === undefined ? {} : { error: result.error }),
  };
}

/**
 * The user messages of `--input-format stream-json`: one JSON object a line, as Claude Code takes them,
 * `{"type":"user","message":{"role":"user","content":"…" | [{"type":"text","text":"…"}, …]}}`. Returns the
 * prompt text (text blocks joined by newlines), or an error message for a line that is not such a message.
 * Blank lines give undefined. Pure.
 */
export function parseStreamInputLine(line: string): { prompt: string } | { error: string } | undefined {
  if (line.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isRecord(json) || json.type !== "user" || !isRecord(json.message)) {
    return { error: 'expected {"type":"user","message":{"role":"user","content":…}}' };
  }
  const content = json.message.content;
  if (typeof content === "string") return { prompt: content };
  if (Array.isArray(content)) {
    const texts = content.flatMap((b) =>
      isRecord(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : [],
    );
    if (texts.length > 0) return { prompt: texts.join("\n") };
  }
  return { error: "the message has no text content" };
}

/**
 * `skillwright -p "prompt"`: one user turn, no questions asked (an `ask` is a denial unless `--allowedTools`
 * or a settings rule allows it). Output as text, JSON or stream-JSON. With `--input-format stream-json`, user
 * messages come as JSON lines on stdin (see {@link parseStreamInputLine}) and each is one turn of the same
 * session, each followed by its `result` line. `io.waitForStop` (SIGINT/SIGTERM) aborts the turn and every
 * process it started. Exit 0 when every turn succeeded, 1 on failure or abort.
 */
export async function headlessCommand(
  engine: Engine,
  io: CliIo,
  args: CliArgs,
  prompt: string | undefined,
): Promise<number> {
  // A plugin setting its hooks or MCP servers need and nobody set: one line naming the command that sets it.
  const unset = (await engine.extensions()).diagnostics.find((d) => d.code === "plugin-config-missing");
  if (unset !== undefined) {
    io.stderr(`skillwright: ${unset.message}\n`);
    return 1;
  }
  const prepared = await prepareRun(io, { args, engine });
  if (!prepared.ok) return prepared.code;
  const debug = args.debugFile;
  const log = async (record: Record<string, unknown>) => {
    if (debug !== undefined)
      await appendFile(debug, `${JSON.stringify({ at: new Date().toISOString(), ...record })}\n`);
  };
  let opened: Awaited<ReturnType<typeof openSession>>;
  try {
    opened = await openSession(engine, prepared.options);
  } catch (error) {
    await prepared.telemetry?.shutdown();
    await prepared.closeShell();
    io.stderr(
      error instanceof UnknownSessionError
        ? `${error.message}\n`
        : `skillwright: could not open the session: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const session = withTelemetry(opened.session, prepared.telemetry, opened.model, { shutdownOnClose: true });
  const discovery = await engine.discover();
  await noticeHeld(engine, discovery.skills, io);
  if (debug !== undefined) {
    await log({
      kind: "discovery",
      skills: discovery.skills.map((s) => s.name),
      diagnostics: [...discovery.diagnostics, ...opened.diagnostics],
    });
  }
  if (args.verbose) {
    const disabled = discovery.disabled ?? [];
    io.stderr(
      `skillwright: session ${session.id} · model ${opened.model} · ${discovery.skills.length} skills` +
        `${disabled.length > 0 ? ` (${disabled.length} disabled)` : ""} · tools ${opened.tools.join(", ")}\n`,
    );
    for (const d of [...discovery.diagnostics, ...opened.diagnostics])
      io.stderr(`${d.severity} ${d.code}: ${d.message}${d.path ? ` (${d.path})` : ""}\n`);
  }
  const stream = args.outputFormat === "stream-json";
  const line = (record: Record<string, unknown>) => io.stdout(`${JSON.stringify(record)}\n`);
  if (stream) {
    line({
      type: "system",
      subtype: "init",
      session_id: session.id,
      cwd: engine.cwd,
      model: opened.model,
      tools: opened.tools,
      skills: discovery.skills.map((s) => s.name),
    });
  }
  // SIGINT/SIGTERM abort the turn, so the shell commands it started (own process groups) are killed too.
  const stop = new AbortController();
  void io.waitForStop?.().then(() => stop.abort());
  // What a MessageDisplay hook wants shown for the main agent's latest message, if anything.
  let shown: string | undefined;
  const runTurn = async (text: string): Promise<AgentResult> => {
    const started = Date.now();
    let result: AgentResult | undefined;
    shown = undefined;
    // With no next prompt to carry them, background forks still running after a turn that ended well are
    // waited for, and their answers go to one more turn of the main agent, whose answer is the result
    // (docs/behaviour.md, background forks); after a failed turn, closing the session aborts them.
    const events = async function* () {
      yield* session.send(text, { signal: stop.signal });
      if (result?.cause === "end_turn") yield* session.drainBackground({ signal: stop.signal });
    };
    for await (const event of events()) {
      await log({ kind: "event", event: debugView(event) });
      if (event.type === "done" && event.agentId === undefined) result = event.result;
      if (event.agentId === undefined && event.type === "message" && event.message.role === "assistant")
        shown = undefined;
      if (event.agentId === undefined && event.type === "message_display") shown = event.text;
      if (args.verbose && (event.type === "warning" || event.type === "error"))
        io.stderr(`skillwright: ${event.type}: ${event.message}\n`);
      if (!stream) continue;
      if (event.type === "message") {
        line({
          type: event.message.role,
          message: event.message,
          session_id: session.id,
          ...(event.agentId ? { agent_id: event.agentId } : {}),
        });
      } else if (
        event.type === "warning" ||
        event.type === "error" ||
        event.type === "skill_invoked" ||
        event.type === "fork_progress" ||
        event.type === "background_result" ||
        event.type === "message_display"
      ) {
        line({ type: "event", event, session_id: session.id });
      }
    }
    const final: AgentResult = result ?? {
      text: "",
      cause: "error",
      turns: 0,
      usage: emptyUsage(),
      toolsUsed: [],
      error: { kind: "internal", message: "the turn ended without a result" },
    };
    if (args.outputFormat !== "text") line(resultRecord(final, session.id, Date.now() - started));
    return final;
  };

  let code = 0;
  if (args.inputFormat === "stream-json") {
    const lines = io.stdinLines?.() ?? splitLines((await io.readStdin?.()) ?? "");
    for await (const raw of lines) {
      if (stop.signal.aborted) break;
      const parsed = parseStreamInputLine(raw);
      if (parsed === undefined) continue;
      if ("error" in parsed) {
        io.stderr(`skillwright: --input-format stream-json: ignored a line (${parsed.error})\n`);
        code = 1;
        continue;
      }
      const final = await runTurn(parsed.prompt);
      if (final.cause !== "end_turn") code = 1;
    }
    await session.close();
    await prepared.closeShell();
    return code;
  }
  const final = await runTurn(prompt ?? "");
  await session.close();
  await prepared.closeShell();
  if (args.outputFormat === "text") {
    if (final.cause === "end_turn" || final.cause === "blocked") io.stdout(`${shown ?? final.text}\n`);
    else
      io.stderr(
        `skillwright: ${final.error?.message ?? final.cause} (session ${session.id}; continue with --resume ${session.id})\n`,
      );
  }
  return final.cause === "end_turn" ? 0 : 1;
}

async function* splitLines(text: string): AsyncIterable<string> {
  for (const line of text.split("\n")) yield line;
}

function debugView(event: AgentEvent): unknown {
  if (event.type === "text_delta")
    return { type: event.type, agentId: event.agentId, chars: event.text.length };
  return event;
}
