import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { mcpAllowHostsFrom } from "../../io/url-guard.js";
import { missingDependencyLine, missingLinuxPrograms } from "../../sandbox/os-sandbox.js";
import { findJustBash } from "../../sandbox/simulated-sandbox.js";
import { createEventSignals } from "../../serve/events/event-signals.js";
import { EVENTS_CHANNEL, INTERRUPTS_CHANNEL, listenForEvents } from "../../serve/events/pg-listen.js";
import { createServeApp } from "../../serve/http/app.js";
import { containerLimitsFrom } from "../../serve/messages/open-container.js";
import { type PriceTable, PriceTableError, parsePriceTable } from "../../serve/price-table.js";
import { CRASH_AFTER_EVENT_ENV, crashAfterEvent } from "../../serve/sessions/crash-fault.js";
import { createSessionRunner, SHUTDOWN_GRACE_MS } from "../../serve/sessions/runner.js";
import { servedSandboxLine } from "../../serve/sessions/served-sandbox-tier.js";
import { openPgTurnLocks } from "../../serve/sessions/turn-locks.js";
import { newApiKey, newId } from "../../serve/store/ids.js";
import { addApiKey, DEFAULT_WORKSPACE, ensureWorkspace } from "../../serve/store/workspaces.js";
import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { modelClientFromEnv, telemetryFromEnv } from "../model-setup.js";
import { dbLocation, openStoreFor, shownDbLocation } from "../open-store.js";
import { cliProgress } from "../progress.js";
import { servedModelSource, serveStartupLines } from "../serve-startup.js";

/** How long a stopping `serve` gives open streams to send their last events before it closes them. */
const STREAMS_END_MS = 2000;

/** The port `serve` listens on without `--port`. */
export const DEFAULT_PORT = 8787;

/**
 * How long an idle client connection stays open (Node's default is 5 s). A client whose process is busy for longer
 * than that between two requests (building an upload, on a loaded machine) sends its next request on a connection
 * the server has just closed and gets a connection error; a minute outlasts such pauses and idle load balancers.
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * How long a stopping `serve` lets running turns end by themselves: `SKILLWRIGHT_SHUTDOWN_GRACE_MS` when it is
 * a whole number of milliseconds, else {@link SHUTDOWN_GRACE_MS}. Pure.
 */
export function shutdownGraceMs(raw: string | undefined): number {
  const ms = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isInteger(ms) && ms >= 0 ? ms : SHUTDOWN_GRACE_MS;
}

/**
 * How long one served Grep or Glob call may run: `SKILLWRIGHT_TOOL_DEADLINE_MS` when it is a whole positive number
 * of milliseconds (a test's long deadline), else undefined (the tools' own `TOOL_DEADLINE_MS`). Pure.
 */
export function toolDeadlineMs(raw: string | undefined): number | undefined {
  const ms = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isInteger(ms) && ms > 0 ? ms : undefined;
}

/**
 * `skillwright serve [--port N] [--host H] [--db DIR|URL] [--api-key KEY] [--host-tools] [--mcp-allow-host H]…
 * [--sandbox none|simulated|os] [--sandbox-allow-host H]… [--script turns.json] [--prices FILE]`: the HTTP API of the SDK's
 * `client.beta.skills/environments/agents/sessions` over the store, until SIGINT/SIGTERM. `--api-key` (or
 * SKILLWRIGHT_API_KEY) is admitted to the default workspace (a revoked key is refused: exit 1 before listening);
 * without one, a key is made and printed.
 * Sessions run the engine (ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL name the model; with `--script`, a scripted
 * model server started in this process instead, so a chat works offline; exit 2 on a bad script) with no host file system
 * unless `--host-tools`; their code (Bash, skills' inline shell, command hooks) runs in `--sandbox`'s tier
 * (default simulated: WebAssembly over the session's own files; its network follows the session's environment,
 * and loopback or private hosts need `--sandbox-allow-host` or SKILLWRIGHT_SANDBOX_ALLOW_HOSTS); agents' MCP servers on loopback, private or link-local addresses are refused unless
 * their host is named by `--mcp-allow-host` (or SKILLWRIGHT_MCP_ALLOW_HOSTS, comma-separated). Shows progress on stderr until it listens,
 * then prints the start-up block (`serveStartupLines`: `listening on URL` first, with `--port 0` the port the
 * system chose) and logs each request on stderr (`accessLog`). A `--prices` table that cannot be read or is not
 * valid (`parsePriceTable`) exits 2 before anything starts; a valid one is served for the web page's costs.
 */
export async function serveCommand(io: CliIo, args: CliArgs): Promise<number> {
  // The price table first: a bad one stops serve before anything starts, saying what is wrong.
  const prices = args.prices === undefined ? undefined : await readPrices(io, args.prices);
  if (prices === null) return 2;
  // Loaded only when asked for: the scripted server and its schema stay out of a plain serve's start-up.
  const scripted =
    args.script === undefined
      ? undefined
      : await (await import("../scripted-model.js")).startScriptedModel(io, args.script);
  if (args.script !== undefined && scripted === undefined) return 2;
  try {
    return await serveWith(io, args, scripted?.url, prices);
  } finally {
    await scripted?.close();
  }
}

/** `serve --prices FILE` read and checked (`parsePriceTable`), or null when it cannot be, after saying why. */
async function readPrices(io: CliIo, file: string): Promise<PriceTable | null> {
  try {
    return parsePriceTable(await readFile(resolve(io.cwd, file), "utf8"), `--prices ${file}`);
  } catch (error) {
    const reason = error instanceof PriceTableError ? error.message : `--prices ${file}: ${errorText(error)}`;
    io.stderr(`skillwright serve: ${reason}\n`);
    return null;
  }
}

/** An error's message. Pure. */
function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The programs `--sandbox os` needs of `missingLinuxPrograms`' list: bubblewrap (it runs it directly) and socat
 * (the bridge to a session's network proxy), not ripgrep.
 */
const OS_TIER_NEEDS = /bubblewrap|bwrap|socat/;

/** Why `--sandbox os` cannot run on this host (`PATH` = `hostPath`), or undefined when it can. */
function osTierUnavailable(hostPath: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "linux")
    return `the OS sandbox for served sessions runs on Linux only (this is ${platform})`;
  const missing = missingLinuxPrograms(hostPath).filter((error) => OS_TIER_NEEDS.test(error));
  return missing.length === 0 ? undefined : missingDependencyLine(missing);
}

/** {@link serveCommand} once the model is known: `scriptedUrl` (a scripted model server) or the environment. */
async function serveWith(
  io: CliIo,
  args: CliArgs,
  scriptedUrl: string | undefined,
  prices: PriceTable | undefined,
): Promise<number> {
  const hostPath = io.env.PATH ?? "";
  const osUnavailable = osTierUnavailable(hostPath, process.platform);
  if (args.sandbox === "os" && !args.hostTools && osUnavailable !== undefined) {
    // Never a silent fallback to another tier: without bubblewrap the operator is told what to install.
    io.stderr(`skillwright: serve --sandbox os: ${osUnavailable}\n`);
    return 1;
  }
  const justBash = args.sandbox === "simulated" && !args.hostTools ? findJustBash() : undefined;
  const simulatedMissing = justBash !== undefined && "missing" in justBash ? justBash.missing : undefined;
  if (simulatedMissing !== undefined && args.sandboxGiven) {
    // Asked for by name: refused, as --sandbox os is, rather than served with another tier.
    io.stderr(`skillwright: serve --sandbox simulated: ${simulatedMissing}\n`);
    return 1;
  }
  // The default tier not installed (npm install --omit=optional): sessions run no code, and say what to install.
  const tier = simulatedMissing === undefined ? args.sandbox : "none";
  const location = dbLocation(args.db, io);
  // Opening a fresh database (migrations) takes seconds: say so until serve listens.
  const starting = cliProgress(
    io,
    false,
  )(`skillwright serve: starting (the database ${shownDbLocation(location)})`);
  const store = await openStoreFor(args, io, "skillwright serve");
  if (store === undefined) {
    starting();
    return 1;
  }
  const workspaceId = await ensureWorkspace(store.db, DEFAULT_WORKSPACE);
  const given = args.apiKey ?? io.env.SKILLWRIGHT_API_KEY;
  const key = given === undefined || given === "" ? newApiKey() : given;
  const admitted = await addApiKey(store.db, workspaceId, key);
  if (admitted.kind === "revoked") {
    // Refused rather than served without it: a server whose only configured key is refused would answer 401
    // to every client, and a key revoked because it leaked must not come back with a restart.
    const from = args.apiKey === undefined ? "SKILLWRIGHT_API_KEY" : "--api-key";
    io.stderr(
      `skillwright: the key given by ${from} (id ${admitted.id}) was revoked with \`skillwright keys revoke\` ` +
        `and stays revoked: choose another key (or omit ${from} to have one made)\n`,
    );
    starting();
    await store.close();
    return 1;
  }
  const client = await modelClientFromEnv(
    scriptedUrl === undefined ? io.env : { ANTHROPIC_BASE_URL: scriptedUrl, ANTHROPIC_API_KEY: "scripted" },
  );
  // Streams wake on this instance's appends at once, and on other instances' through PostgreSQL NOTIFY.
  const signals = createEventSignals();
  // This instance's tag in its NOTIFYs: the listener below skips the announcements of its own appends.
  const origin = newId("inst");
  const shared = store.db.kind === "postgres";
  // Which instance owns a turn waiting on the user: another resumes it only once the owner is gone.
  const turnLocks = shared ? await openPgTurnLocks(location) : undefined;
  const telemetry = await telemetryFromEnv(io);
  // A crash test's fault only: the process dies at once, as a crash would leave it.
  const afterAppend = crashAfterEvent(io.env[CRASH_AFTER_EVENT_ENV], () =>
    process.kill(process.pid, "SIGKILL"),
  );
  const hostTools = args.hostTools
    ? { cwd: io.cwd, home: io.home, ...(io.env.PATH === undefined ? {} : { path: io.env.PATH }) }
    : undefined;
  const sandboxOs = args.sandbox === "os" ? { scratchDir: tmpdir(), path: hostPath } : undefined;
  const runner = createSessionRunner({
    store,
    signals,
    ...(afterAppend === undefined ? {} : { afterAppend }),
    ...(telemetry === undefined ? {} : { telemetry }),
    ...(shared
      ? {
          notifyChannel: EVENTS_CHANNEL,
          origin,
          interruptChannel: INTERRUPTS_CHANNEL,
        }
      : { followIntervalMs: 1000 }),
    ...(client === undefined ? {} : { client }),
    ...(turnLocks === undefined ? {} : { turnLocks }),
    ...(hostTools === undefined ? {} : { hostTools }),
    mcpAllowHosts: mcpAllowHostsFrom(args.mcpAllowHosts, io.env.SKILLWRIGHT_MCP_ALLOW_HOSTS),
    toolDeadlineMs: toolDeadlineMs(io.env.SKILLWRIGHT_TOOL_DEADLINE_MS),
    sandbox: tier,
    ...(sandboxOs === undefined ? {} : { sandboxOs }),
    ...(simulatedMissing === undefined ? {} : { sandboxNoShellReason: simulatedMissing }),
    sandboxAllowHosts: mcpAllowHostsFrom(args.sandboxAllowHosts, io.env.SKILLWRIGHT_SANDBOX_ALLOW_HOSTS),
  });
  const listener = shared
    ? await listenForEvents(
        location,
        (id, from) => {
          if (from !== origin) signals.notify(id);
        },
        (id) => runner.interrupted(id),
      )
    : undefined;
  const webDir = io.webDir;
  const app = createServeApp({
    store,
    runner,
    messages: {
      store,
      client,
      sandbox: {
        hostTools,
        tier,
        os: sandboxOs,
        ...(simulatedMissing === undefined ? {} : { noShellReason: simulatedMissing }),
      },
      limits: containerLimitsFrom(io.env),
    },
    sandboxTier: args.hostTools ? "host" : tier,
    operatorKey: key,
    ...(prices === undefined ? {} : { prices }),
    accessLog: (line) => io.stderr(`${line}\n`),
    ...(webDir === undefined ? {} : { readWebAsset: (name: string) => readFile(join(webDir, name), "utf8") }),
  });
  const server = createAdaptorServer({ fetch: app.fetch });
  if ("keepAliveTimeout" in server) server.keepAliveTimeout = KEEP_ALIVE_MS;
  const host = args.host ?? "127.0.0.1";
  try {
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(args.port ?? DEFAULT_PORT, host, () => done());
    });
  } catch (error) {
    starting();
    io.stderr(
      `skillwright: cannot listen on ${host}:${args.port ?? DEFAULT_PORT}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await listener?.close();
    await turnLocks?.close();
    await store.close();
    await telemetry?.shutdown();
    return 1;
  }
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the server has no address");
  const shownHost = address.address.includes(":") ? `[${address.address}]` : address.address;
  starting();
  const startup = serveStartupLines({
    url: `http://${shownHost}:${address.port}`,
    webPage: webDir !== undefined,
    database: { kind: store.db.kind, shown: shownDbLocation(location) },
    model: servedModelSource(io.env, args.script),
    sandbox: servedSandboxLine(args.hostTools, tier, osUnavailable, simulatedMissing),
    ...(given === undefined || given === "" ? { madeKey: key } : {}),
  });
  io.stdout(`${startup.join("\n")}\n`);
  await (io.waitForStop?.() ?? new Promise<void>(() => {}));
  // No new connection; running turns end (or are ended, each with a terminal event), then open streams read
  // what is left and end, and the connections they leave are closed.
  const closed = new Promise<void>((done) => server.close(() => done()));
  await runner.shutdown(shutdownGraceMs(io.env.SKILLWRIGHT_SHUTDOWN_GRACE_MS));
  await Promise.race([closed, new Promise((done) => setTimeout(done, STREAMS_END_MS).unref())]);
  if ("closeAllConnections" in server) server.closeAllConnections();
  await listener?.close();
  await turnLocks?.close();
  await store.close();
  await telemetry?.shutdown();
  return 0;
}
