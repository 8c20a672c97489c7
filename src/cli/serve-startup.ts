/** Where served sessions' model comes from, as `serve` found it. */
export type ServedModelSource =
  | { kind: "scripted"; script: string }
  | { kind: "base-url"; url: string }
  | { kind: "api"; variable: "ANTHROPIC_API_KEY" | "ANTHROPIC_AUTH_TOKEN" }
  | { kind: "none" };

/** The model source `env` names (`ANTHROPIC_BASE_URL` first, as the SDK reads it), or `none`. Pure. */
export function servedModelSource(
  env: Record<string, string | undefined>,
  script: string | undefined,
): ServedModelSource {
  if (script !== undefined) return { kind: "scripted", script };
  if (env.ANTHROPIC_BASE_URL) return { kind: "base-url", url: env.ANTHROPIC_BASE_URL };
  if (env.ANTHROPIC_API_KEY) return { kind: "api", variable: "ANTHROPIC_API_KEY" };
  if (env.ANTHROPIC_AUTH_TOKEN) return { kind: "api", variable: "ANTHROPIC_AUTH_TOKEN" };
  return { kind: "none" };
}

/** What `serve` tells the operator once it listens. */
export interface ServeStartup {
  /** `http://host:port`: the first line's address. */
  url: string;
  /** Whether the web page is served at `/`. */
  webPage: boolean;
  database: { kind: "pglite" | "postgres"; shown: string };
  model: ServedModelSource;
  /** Where sessions run code (`servedSandboxLine`). */
  sandbox: string;
  /** The key `serve` made, when none was given. */
  madeKey?: string;
}

/** The model line's text. Pure. */
function modelText(model: ServedModelSource): string {
  switch (model.kind) {
    case "scripted":
      return `the scripted model of ${model.script} (offline; no API key is used)`;
    case "base-url":
      return `the Messages API at ${model.url} (ANTHROPIC_BASE_URL)`;
    case "api":
      return `the Anthropic API (${model.variable})`;
    case "none":
      return (
        "none set. Warning: every session turn will fail until ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set " +
        "(restart serve then), or run serve with --script turns.json for a scripted model"
      );
  }
}

/**
 * The start-up block `serve` prints on stdout: `skillwright serve listening on URL` first (tests and the README
 * read it), then the web page, the database and its mode, the model (or a warning that there is none), where
 * sessions run code, the health routes, the access log, and a made key. Pure.
 */
export function serveStartupLines(startup: ServeStartup): string[] {
  const database =
    startup.database.kind === "pglite"
      ? `PGlite in ${startup.database.shown} (embedded; this process holds it, one process at a time)`
      : `PostgreSQL at ${startup.database.shown} (shared: several serve processes may use it)`;
  return [
    `skillwright serve listening on ${startup.url}`,
    ...(startup.webPage ? [`  web page:   ${startup.url}/`] : []),
    `  database:   ${database}`,
    `  model:      ${modelText(startup.model)}`,
    `  sandbox:    ${startup.sandbox}`,
    `  health:     ${startup.url}/healthz (liveness), ${startup.url}/readyz (readiness: the database answers)`,
    "  access log: one line per request on stderr (time, request-id, method, path, status, duration)",
    ...(startup.madeKey === undefined
      ? []
      : [
          `API key for the default workspace (pass --api-key or set SKILLWRIGHT_API_KEY to choose one): ${startup.madeKey}`,
        ]),
  ];
}
