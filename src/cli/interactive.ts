import { createInterface } from "node:readline";
import { createChannel } from "../agent/channel.js";
import type { AgentEvent } from "../agent/events.js";
import type { Engine } from "../engine/engine.js";
import { loadPromptTemplates } from "../prompt-templates/load-templates.js";
import { openSession } from "../session/open.js";
import type { OpenedSession, OpenSessionOptions } from "../session/open-options.js";
import { contextUsageLines } from "../session/skill-context/context-usage.js";
import { UnknownSessionError } from "../session/unknown-session-error.js";
import type { Skill } from "../skill/skill.js";
import { withTelemetry } from "../telemetry/with-telemetry.js";
import { permissionChoices, readPermissionReply } from "./always-allow.js";
import type { CliArgs } from "./args.js";
import type { CliIo } from "./io.js";
import { updateSettingsFile, withAllowRule } from "./local-settings.js";
import { createMessagePrinter, hasMessageDisplayHook } from "./message-printer.js";
import { prepareRun } from "./model-setup.js";
import { createSessionCommands, storedName } from "./session-command-runner.js";
import { parseSessionCommand, SESSION_COMMAND_NAMES } from "./session-commands.js";
import { parseSkillsCommand, skillsReport, switchedSkills, switchReport } from "./skills-command.js";

/** Spinner frames shown while a fork runs. */
export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;

/** What a user types to reload skills, plugins and settings. */
export const RELOAD_COMMAND = "/reload";

/** What a user types to see what each skill costs the context now. */
export const CONTEXT_COMMAND = "/context";

/** `/` completion: the skill and template names (and `/compact`, `/reload`) that start with what was typed. Pure. */
export function completeSlash(line: string, names: readonly string[]): [string[], string] {
  if (!line.startsWith("/") || line.includes(" ")) return [[], line];
  const hits = names.map((n) => `/${n}`).filter((n) => n.startsWith(line));
  return [hits, line];
}

/**
 * The names `/` completes: the user-invocable skills, then the prompt templates (one a skill shadows left out),
 * read afresh so that a reload shows new templates too. Never rejects.
 */
export async function slashNames(engine: Engine, skills: readonly Skill[]): Promise<string[]> {
  const { projectDir } = await engine.roots();
  const skillNames = new Set(skills.flatMap((s) => (s.alias === undefined ? [s.name] : [s.name, s.alias])));
  const { templates } = await loadPromptTemplates(engine.fs, { home: engine.home, projectDir }, skillNames);
  return [...skills.filter((s) => s.userInvocable).map((s) => s.name), ...templates.map((t) => t.name)];
}

/** One line describing an event for the terminal, or undefined for events shown otherwise. Pure. */
export function eventLine(event: AgentEvent, frame: number): string | undefined {
  const who = event.agentId === undefined ? "" : `[${event.agentId}] `;
  switch (event.type) {
    case "tool_start":
      return event.agentId === undefined ? `\n⏺ ${event.name}(${preview(event.input)})` : undefined;
    case "tool_end":
      return event.agentId === undefined && event.result.isError
        ? `  ⎿ error: ${firstLine(event.result.content)}`
        : undefined;
    case "skill_invoked":
      return `${who}⚡ skill ${event.name} (${event.mode})${event.args ? ` ${event.args}` : ""}`;
    case "fork_progress":
      return `${SPINNER[frame % SPINNER.length]} ${event.skill}: turn ${event.turn}, ${event.toolCalls} tool call(s)${event.lastTool ? `, last ${event.lastTool}` : ""}`;
    case "background_result":
      return `⚑ background fork ${event.agentId} (${event.skill}) ${event.ok ? "finished" : "ended without an answer"}`;
    case "warning":
      return `${who}warning: ${event.message}`;
    case "error":
      return `${who}error: ${event.message}`;
    default:
      return undefined;
  }
}

function preview(input: unknown): string {
  const text = JSON.stringify(input) ?? "";
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function firstLine(content: readonly { type: string; text?: string }[]): string {
  const text = content.find((b) => b.type === "text")?.text ?? "";
  return text.split("\n")[0] ?? "";
}

/**
 * The interactive mode: a readline loop with streaming text, tool-call lines, fork progress, `/` completion of
 * skill names, permission questions on the terminal, Ctrl-C to abort the running turn and Ctrl-D to exit.
 */
export async function interactiveCommand(
  engine: Engine,
  io: CliIo,
  args: CliArgs,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<number> {
  const prepared = await prepareRun(io, { args, engine });
  if (!prepared.ok) return prepared.code;
  let names = await slashNames(engine, (await engine.discover()).skills);
  // A reload by the watcher (or by another caller) refreshes the completions as /reload does.
  const stopFollowing = engine.catalog.onChange((discovery) => {
    void slashNames(engine, discovery.skills).then((fresh) => {
      names = fresh;
    });
  });
  const rl = createInterface({
    input: streams.input,
    output: streams.output,
    completer: (line: string) =>
      completeSlash(line, [...names, "compact", "context", "reload", "skills", ...SESSION_COMMAND_NAMES]),
  });
  // One queue of typed lines serves both prompts and permission questions; nothing typed early is lost.
  const lines = createChannel<string>();
  rl.on("line", (line) => lines.push(line));
  rl.on("close", () => lines.close());
  const pending = lines[Symbol.asyncIterator]();
  const nextLine = async (prompt: string) => {
    io.stdout(prompt);
    const next = await pending.next();
    return next.done ? undefined : next.value;
  };
  /** Rules the user chose "always" for in this session (also saved to the project's local settings). */
  const alwaysAllowed = new Set<string>();
  const baseOptions: OpenSessionOptions = {
    ...prepared.options,
    askPermission: async ({ prompt, rule, rules }) => {
      const offered = rules ?? (rule === undefined ? [] : [rule]);
      if (offered.some((r) => alwaysAllowed.has(r))) return true;
      const answer = (await nextLine(`\n${prompt} ${permissionChoices(offered)} `)) ?? "";
      const reply = readPermissionReply(answer, offered);
      if (reply.kind !== "always") return reply.kind === "yes";
      // Saved for later sessions (and this one after the turn: the reload), and allowed for the rest of it.
      alwaysAllowed.add(reply.rule);
      const written = await updateSettingsFile(engine, reply.scope, (settings) =>
        withAllowRule(settings, reply.rule),
      );
      const pending =
        reply.scope === "project"
          ? " (a project's committed settings grant only once approved: `skillwright permissions approve`)"
          : "";
      io.stdout(written.ok ? `Saved ${reply.rule} to ${written.file}${pending}.\n` : `${written.message}\n`);
      if (written.ok) await engine.reload();
      return true;
    },
  };
  let opened: OpenedSession;
  try {
    opened = await openSession(engine, baseOptions);
  } catch (error) {
    rl.close();
    stopFollowing();
    await prepared.telemetry?.shutdown();
    await prepared.closeShell();
    if (!(error instanceof UnknownSessionError)) throw error;
    io.stderr(`${error.message}\n`);
    return 1;
  }
  for (const d of opened.diagnostics)
    io.stderr(`${d.severity} ${d.code}: ${d.message}${d.path ? ` (${d.path})` : ""}\n`);
  io.stdout(
    `skillwright · ${opened.model} · session ${opened.session.id}\nType a message, /skill to run a skill, /skills to list or switch skills, /reload after changing skills or settings, /context for what each skill costs the context, /model, /new, /resume, /export, /name, Ctrl-C to stop a turn, Ctrl-D to exit.\n`,
  );
  /** The session commands' state: the model chosen with /model (kept by /new and /resume) and the session's name. */
  const commands = createSessionCommands({
    engine,
    io,
    open: (overrides) => openSession(engine, { ...baseOptions, ...overrides }),
    opened,
    name: baseOptions.resume === undefined ? undefined : await storedName(opened),
  });
  let running: AbortController | undefined;
  rl.on("SIGINT", () => {
    if (running !== undefined) {
      running.abort();
      io.stdout("\n(aborted)\n");
    } else rl.close();
  });
  let frame = 0;
  for (;;) {
    const line = await nextLine("\n> ");
    if (line === undefined) break;
    if (line.trim() === "") continue;
    const skillsCommand = parseSkillsCommand(line);
    if (skillsCommand !== undefined) {
      const before = await engine.discover();
      if (skillsCommand.kind === "list") io.stdout(skillsReport(before));
      else if (skillsCommand.kind === "usage") io.stdout(`${skillsCommand.text}\n`);
      else {
        const after = await engine.switchSkills(switchedSkills(engine.skillSwitches(), skillsCommand));
        names = await slashNames(engine, after.skills);
        io.stdout(switchReport(skillsCommand, before, after));
      }
      continue;
    }
    const sessionCommand = parseSessionCommand(line);
    if (sessionCommand !== undefined) {
      await commands.run(sessionCommand);
      continue;
    }
    if (line.trim() === CONTEXT_COMMAND) {
      const usage = await commands.opened().session.contextUsage();
      io.stdout(`${contextUsageLines(usage).join("\n")}\n`);
      continue;
    }
    if (line.trim() === RELOAD_COMMAND) {
      const discovery = await engine.reload();
      const { plugins, settings } = await engine.extensions();
      names = await slashNames(engine, discovery.skills);
      const disabled = discovery.disabled?.length ?? 0;
      const problems = discovery.diagnostics.filter((d) => d.severity !== "info").length;
      io.stdout(
        `Reloaded: ${discovery.skills.length} skills${disabled > 0 ? ` (${disabled} disabled)` : ""}, ` +
          `${plugins.length} plugins, ${settings.files.length} settings files` +
          `${problems > 0 ? `; ${problems} problems (run \`skillwright doctor\`)` : ""}.\n`,
      );
      continue;
    }
    running = new AbortController();
    const current = commands.opened();
    const turnSession = withTelemetry(current.session, prepared.telemetry, current.model, {
      shutdownOnClose: false,
    });
    // MessageDisplay hooks (settings, plugins, skills) replace what is shown of a message: it is held until done.
    const printer = createMessagePrinter(io.stdout, await messageDisplayHooked(engine));
    for await (const event of turnSession.send(line, { signal: running.signal })) {
      printer.event(event);
      const text = eventLine(event, frame++);
      if (text !== undefined) io.stdout(`${text}\n`);
    }
    printer.flush();
    running = undefined;
    io.stdout("\n");
  }
  rl.close();
  stopFollowing();
  await commands.opened().session.close();
  await prepared.telemetry?.shutdown();
  await prepared.closeShell();
  return 0;
}

/** Whether a `MessageDisplay` hook may fire: in the settings' hooks, a plugin's, or a discovered skill's own. */
async function messageDisplayHooked(engine: Engine): Promise<boolean> {
  const [extensions, discovery] = await Promise.all([engine.extensions(), engine.catalog.get()]);
  return hasMessageDisplayHook([
    extensions.settingsHooks.hooks,
    ...extensions.plugins.map((p) => p.hooks),
    ...discovery.skills.map((s) => s.hooks),
  ]);
}
