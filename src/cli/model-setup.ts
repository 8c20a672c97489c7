import type { ModelClient } from "../agent/model-client.js";
import type { Engine } from "../engine/engine.js";
import { createNodeFs } from "../io/fs.js";
import { importOptional } from "../io/optional-package.js";
import { MODEL_EFFORTS, type ModelEffort } from "../models.js";
import type { OpenSessionOptions } from "../session/open-options.js";
import { otlpSettings } from "../telemetry/otlp-settings.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { CliArgs } from "./args.js";
import { cliShell } from "./cli-sandbox.js";
import type { CliIo } from "./io.js";
import { runShowsSearchProgress, searchIndexProgress } from "./search-progress.js";

/** The message for commands that need a model when no credentials are set. */
export const NO_KEY_MESSAGE =
  "skillwright: this command needs a model, and no API key is set.\n" +
  "Set ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL for another endpoint (e.g. `skillwright dev model-server`).\n" +
  "The offline commands work without one: list, doctor, show, validate.\n";

/**
 * A model client from `ANTHROPIC_API_KEY` / `ANTHROPIC_AUTH_TOKEN` / `ANTHROPIC_BASE_URL` of `env` (a base URL
 * alone is enough: a gateway of one's own), or undefined with none of them.
 */
export async function modelClientFromEnv(
  env: Record<string, string | undefined>,
): Promise<ModelClient | undefined> {
  if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_AUTH_TOKEN && !env.ANTHROPIC_BASE_URL) return undefined;
  const { createModelClient } = await import("../agent/model-client.js");
  return createModelClient({ preload: true, env });
}

/**
 * The OpenTelemetry export when `SKILLWRIGHT_ENABLE_TELEMETRY=1` and an OTLP endpoint are set (a warning on
 * stderr when the settings are unusable); undefined otherwise (also with `OTEL_SDK_DISABLED=true` or every
 * exporter `none`), with no OpenTelemetry module loaded.
 */
export async function telemetryFromEnv(io: CliIo): Promise<Telemetry | undefined> {
  if (io.env.SKILLWRIGHT_ENABLE_TELEMETRY !== "1") return undefined;
  const settings = otlpSettings(io.env);
  if ("off" in settings) return undefined;
  if ("error" in settings) {
    io.stderr(`skillwright: warning: ${settings.error}; telemetry is off\n`);
    return undefined;
  }
  let otel: typeof import("../telemetry/otel.js");
  try {
    otel = await importOptional("@opentelemetry/sdk-trace-base", () => import("../telemetry/otel.js"));
  } catch (error) {
    io.stderr(`skillwright: warning: ${error instanceof Error ? error.message : error}; telemetry is off\n`);
    return undefined;
  }
  return otel.createOtelTelemetry(settings, io.version ?? "unknown");
}

/** Parses `--effort`; undefined when absent, an error message when invalid. Pure. */
export function parseEffort(value: string | undefined): { effort?: ModelEffort } | { error: string } {
  if (value === undefined) return {};
  const lower = value.toLowerCase();
  return (MODEL_EFFORTS as readonly string[]).includes(lower)
    ? { effort: lower as ModelEffort }
    : { error: `--effort must be one of ${MODEL_EFFORTS.join(", ")}` };
}

/** What {@link prepareRun} gives a run mode: the session options, telemetry, and what to stop when done. */
export interface PreparedRun {
  ok: true;
  options: OpenSessionOptions;
  telemetry?: Telemetry;
  /** Stops what the shell started (the OS sandbox's proxies); call after the session closes. */
  closeShell(): Promise<void>;
}

/**
 * What both run modes need before a session: a model client (exit 1 with a clear message without a key), a
 * valid `--effort` (exit 2 otherwise), the shell the settings' `sandbox` block asks for (`cliShell`: with the
 * sandbox on and a dependency missing, one line on stderr says what to install and the shell runs nothing), and
 * the session options the run flags set. Messages go to stderr.
 */
export async function prepareRun(
  io: CliIo,
  run: { args: CliArgs; engine: Engine },
): Promise<PreparedRun | { ok: false; code: number }> {
  const { args } = run;
  const client = await modelClientFromEnv(io.env);
  if (client === undefined) {
    io.stderr(NO_KEY_MESSAGE);
    return { ok: false, code: 1 };
  }
  const effort = parseEffort(args.effort);
  if ("error" in effort) {
    io.stderr(`${effort.error}\n`);
    return { ok: false, code: 2 };
  }
  const telemetry = await telemetryFromEnv(io);
  const shell = await cliShell(run.engine);
  if (shell.tier === "none") io.stderr(`skillwright: warning: ${shell.line}\n`);
  else if (args.verbose) io.stderr(`skillwright: ${shell.line}\n`);
  const autoAllowBash = shell.tier === "os" && shell.autoAllowBash;
  return {
    ok: true,
    ...(telemetry === undefined ? {} : { telemetry }),
    closeShell: shell.tier === "os" ? shell.close : async () => {},
    options: {
      client,
      ...effort,
      ...(args.model === undefined ? {} : { model: args.model }),
      // Discovery reads synchronously in the CLI; the tools keep asynchronous reads.
      toolsFs: createNodeFs({ syncReads: false }),
      // The CLI runs on the user's own machine: Bash, inline shell and hooks use its shell, or the OS sandbox's
      // when the settings turn it on.
      shell: shell.shell,
      // …and http hooks its network.
      hookFetch: (url, init) => fetch(url, init),
      // Inside the sandbox Bash needs no permission (settings `sandbox.autoAllowBashIfSandboxed`, default on).
      allowedTools: autoAllowBash ? [...args.allowedTools, "Bash"] : args.allowedTools,
      disallowedTools: args.disallowedTools,
      ...(args.resume === undefined ? {} : { resume: args.resume }),
      ...(args.maxTurns === undefined ? {} : { maxTurns: args.maxTurns }),
      ...(args.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: args.appendSystemPrompt }),
      ...(args.systemPrompt === undefined ? {} : { systemPrompt: args.systemPrompt }),
      skillListing: args.skillListing,
      // The index SkillSearch builds on its first search: a spinner on a terminal's stderr, text output only.
      ...(runShowsSearchProgress({ stderrIsTTY: io.stderrIsTTY === true, outputFormat: args.outputFormat })
        ? { onSearchIndexBuild: searchIndexProgress(io, false) }
        : {}),
    },
  };
}
