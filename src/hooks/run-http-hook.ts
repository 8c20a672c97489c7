import { errorMessage } from "../io/fs.js";
import {
  capHookText,
  type HookInput,
  type HookRunResult,
  hookTimeoutMs,
  MAX_HOOK_TEXT_CHARS,
  outcomeOfOutput,
} from "./run-hook.js";
import type { HookHttp } from "./schema.js";

/**
 * How HTTP hooks reach their URL: the global `fetch` in the CLI; in `serve`, one that refuses loopback, private
 * and metadata addresses as it does for agents' MCP servers. Rejects when the request cannot be made.
 */
export type HookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What an HTTP hook needs to run. */
export interface RunHttpHookOptions {
  fetch: HookFetch;
  /** The variables `$VAR` / `${VAR}` in header values may name (only those in the hook's `allowedEnvVars`). */
  variables: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * A header value with `$VAR` and `${VAR}` filled: a name the hook lists in `allowedEnvVars` gets its value
 * (empty when unset), any other name an empty string, as Claude Code sends it. Pure.
 */
export function interpolateHeader(
  value: string,
  allowed: readonly string[],
  variables: Readonly<Record<string, string | undefined>>,
): string {
  return value.replace(ENV_REFERENCE, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? "";
    return allowed.includes(name) ? (variables[name] ?? "") : "";
  });
}

/**
 * POSTs the event JSON to the hook's `url` (`Content-Type: application/json`, plus its `headers`) and reads
 * the answer as Claude Code does: a 2xx with an empty body continues; a 2xx body is read like a command hook's
 * stdout (decision JSON, or text); a non-2xx status, a connection failure, a refused address and the timeout
 * (the hook's `timeout`, else 60 s) are warnings, so the event goes on. An HTTP hook cannot block by status
 * alone. Never rejects.
 */
export async function runHttpHook(
  hook: HookHttp,
  input: HookInput,
  options: RunHttpHookOptions,
): Promise<HookRunResult> {
  if (options.signal?.aborted) return { outcome: "warning", message: "aborted before it started" };
  const timeoutMs = hookTimeoutMs(hook);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const allowed = hook.allowedEnvVars ?? [];
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(hook.headers ?? {})) {
    headers[name] = interpolateHeader(value, allowed, options.variables);
  }
  let status: number;
  let body: string;
  try {
    const response = await options.fetch(hook.url, {
      method: "POST",
      headers,
      body: JSON.stringify(input),
      signal,
      redirect: "manual",
    });
    status = response.status;
    body = await response.text();
  } catch (error) {
    if (timeout.aborted) return { outcome: "warning", message: `timed out after ${timeoutMs / 1000} s` };
    if (options.signal?.aborted) return { outcome: "warning", message: "aborted" };
    return { outcome: "warning", message: capHookText(`request to ${hook.url} failed: ${causeOf(error)}`) };
  }
  if (status < 200 || status > 299) {
    const detail = body.trim() === "" ? "" : `: ${body.trim().slice(0, MAX_HOOK_TEXT_CHARS)}`;
    return { outcome: "warning", message: capHookText(`${hook.url} answered HTTP ${status}${detail}`) };
  }
  if (body.trim() === "") return { outcome: "continue", stdout: "" };
  return outcomeOfOutput(body, `Blocked by HTTP hook ${hook.url}`);
}

/** The error and its cause (`fetch failed` says little alone: the cause is `ECONNREFUSED …`). */
function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${errorMessage(error.cause)}` : "";
  return `${errorMessage(error)}${cause}`;
}
