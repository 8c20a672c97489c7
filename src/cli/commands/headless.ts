import { appendFile } from "node:fs/promises";
import { type AgentEvent, type AgentResult, emptyUsage } from "../../agent/events.js";
import type { Engine } from "../../engine.js";
import { openSession } from "../../session/open.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { prepareRun } from "../model-setup.js";

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
 * `skillwright -p "prompt"`: one user turn, no questions asked (an `ask` is a denial unless `--allowedTools`
 * or a settings rule allows it). Output as text, JSON or stream-JSON. `io.waitForStop` (SIGINT/SIGTERM) aborts
 * the turn and every process it started. Exit 0 on success, 1 on failure or abort.
 */
export async function headlessCommand(
  engine: Engine,
  io: CliIo,
  args: CliArgs,
  prompt: string,
): Promise<number> {
  const prepared = await prepareRun(io, args);
  if (!prepared.ok) return prepared.code;
  const started = Date.now();
  const debug = args.debugFile;
  const log = async (record: Record<string, unknown>) => {
    if (debug !== undefined)
      await appendFile(debug, `${JSON.stringify({ at: new Date().toISOString(), ...record })}\n`);
  };
  let opened: Awaited<ReturnType<typeof openSession>>;
  try {
    opened = await openSession(engine, prepared.options);
  } catch (error) {
    io.stderr(
      `skillwright: could not open the session: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const { session } = opened;
  const discovery = await engine.discover();
  if (debug !== undefined) {
    await log({
      kind: "discovery",
      skills: discovery.skills.map((s) => s.name),
      diagnostics: [...discovery.diagnostics, ...opened.diagnostics],
    });
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
  let result: AgentResult | undefined;
  // SIGINT/SIGTERM abort the turn, so the shell commands it started (own process groups) are killed too.
  const stop = new AbortController();
  void io.waitForStop?.().then(() => stop.abort());
  for await (const event of session.send(prompt, { signal: stop.signal })) {
    await log({ kind: "event", event: debugView(event) });
    if (event.type === "done" && event.agentId === undefined) result = event.result;
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
      event.type === "fork_progress"
    ) {
      line({ type: "event", event, session_id: session.id });
    }
  }
  await session.close();
  const final: AgentResult = result ?? {
    text: "",
    cause: "error",
    turns: 0,
    usage: emptyUsage(),
    toolsUsed: [],
    error: { kind: "internal", message: "the turn ended without a result" },
  };
  const record = resultRecord(final, session.id, Date.now() - started);
  if (args.outputFormat === "text") {
    if (final.cause === "end_turn" || final.cause === "blocked") io.stdout(`${final.text}\n`);
    else
      io.stderr(
        `skillwright: ${final.error?.message ?? final.cause} (session ${session.id}; continue with --resume ${session.id})\n`,
      );
  } else line(record);
  return final.cause === "end_turn" ? 0 : 1;
}

function debugView(event: AgentEvent): unknown {
  if (event.type === "text_delta")
    return { type: event.type, agentId: event.agentId, chars: event.text.length };
  return event;
}
