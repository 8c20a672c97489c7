import { createGuardedFetch, hostKey, type ResolveHost } from "../io/url-guard.js";

/**
 * What a sandbox's commands may reach over the network (`curl`): nothing (the default); any public host; or
 * only `allowedHosts` (a name, or `*.example.com` for its subdomains). In every mode a host that resolves to a
 * loopback, private, link-local or metadata address is refused unless it is in `allowPrivateHosts` (the
 * operator's allow list), as for MCP servers.
 */
export type SandboxNetwork =
  | { mode: "none" }
  | { mode: "unrestricted"; allowPrivateHosts?: readonly string[] }
  | { mode: "limited"; allowedHosts: readonly string[]; allowPrivateHosts?: readonly string[] };

/** The default: no network. */
export const NO_NETWORK: SandboxNetwork = { mode: "none" };

/** Whether a request may go out, before its host's addresses are checked. */
export type NetworkDecision = { allowed: true } | { allowed: false; reason: string };

/** The most of a response body a command receives, in bytes (10 MiB): a longer body is refused. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Whether `host` is one of `patterns`: equal (case aside), or under a `*.` pattern's domain. Pure. */
export function hostAllowed(patterns: readonly string[], host: string): boolean {
  const key = hostKey(host);
  return patterns.some((pattern) => {
    const want = hostKey(pattern);
    return want.startsWith("*.") ? key.endsWith(want.slice(1)) : key === want;
  });
}

/**
 * Whether `network` lets a command request `url`: only http and https; mode `none` refuses everything, `limited`
 * only its hosts, `unrestricted` allows any. Pure: the private-address rule, which needs the host's addresses,
 * is applied after it by {@link createSandboxFetch}.
 */
export function networkDecision(network: SandboxNetwork, url: string): NetworkDecision {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { allowed: false, reason: `${JSON.stringify(url)} is not a valid URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { allowed: false, reason: `${parsed.protocol} URLs are not allowed (only http and https)` };
  }
  switch (network.mode) {
    case "none":
      return { allowed: false, reason: "this sandbox has no network access" };
    case "limited":
      return hostAllowed(network.allowedHosts, parsed.hostname)
        ? { allowed: true }
        : {
            allowed: false,
            reason: `${hostKey(parsed.hostname)} is not among this sandbox's allowed hosts`,
          };
    case "unrestricted":
      return { allowed: true };
    default: {
      const unknown: never = network;
      return { allowed: false, reason: `unknown network mode ${JSON.stringify(unknown)}` };
    }
  }
}

/** A request of a sandboxed command, as its `curl` makes it. */
export interface SandboxRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** A response as the shell receives it: the whole body. */
export interface SandboxResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Uint8Array;
  url: string;
}

/** A response body read whole, refused past `MAX_RESPONSE_BYTES`. */
async function bodyOf(response: Response, url: string): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await response.body.cancel();
      throw new Error(`the response of ${url} is over ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The fetch a sandbox's `curl` goes through: {@link networkDecision}, then the private-address rule of
 * src/io/url-guard.ts (`allowPrivateHosts` as its allow list), connecting to the address it checked. Redirects
 * are not followed (a 3xx reaches the command as it is). Rejects with the reason when a request is refused.
 */
export function createSandboxFetch(
  network: SandboxNetwork,
  options: { resolve: ResolveHost; allowHint?: (host: string) => string },
): (url: string, request: SandboxRequest) => Promise<SandboxResponse> {
  const guarded = createGuardedFetch({
    allowHosts: network.mode === "none" ? [] : (network.allowPrivateHosts ?? []),
    resolve: options.resolve,
    allowHint:
      options.allowHint ?? ((host) => `the operator must allow ${host} by name for sandboxes to reach it`),
  });
  return async (url, request) => {
    const decision = networkDecision(network, url);
    if (!decision.allowed) throw new Error(`refused ${url}: ${decision.reason}`);
    const response = await guarded(url, {
      method: request.method ?? "GET",
      ...(request.headers === undefined ? {} : { headers: request.headers }),
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers.entries()),
      body: await bodyOf(response, url),
      url,
    };
  };
}
