import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (`dns.promises.lookup(host, { all: true })`). */
export type ResolveHost = (host: string) => Promise<ResolvedAddress[]>;

/**
 * The hosts the operator allowed: every `--mcp-allow-host` value, then the comma-separated names of
 * `SKILLWRIGHT_MCP_ALLOW_HOSTS` (blanks dropped). Pure.
 */
export function mcpAllowHostsFrom(flags: readonly string[], envValue: string | undefined): string[] {
  const fromEnv = (envValue ?? "").split(",").map((h) => h.trim());
  return [...flags, ...fromEnv].filter((h) => h !== "");
}

/** A URL's host as compared with `--mcp-allow-host` names: lower case, IPv6 without brackets. Pure. */
export function hostKey(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}

/** What {@link checkMcpUrl} decides with. */
export interface UrlGuardOptions {
  /** Hosts the operator allowed by name: reached whatever they resolve to. */
  allowHosts: readonly string[];
  resolve: ResolveHost;
  /** How a refusal says to allow `host` (default: serve's `--mcp-allow-host` flag). */
  allowHint?: (host: string) => string;
}

/** Why a URL may not be reached, or the address to pin its connection to (undefined: an allowed host). */
export type UrlVerdict = { ok: true; pin?: ResolvedAddress } | { ok: false; reason: string };

/**
 * Decides whether a served session may connect to `url`: only http(s); a host the operator allowed by name
 * (`serve --mcp-allow-host`) always; any other host only when every address it resolves to is public (not
 * loopback, private, link-local, metadata or any other block not globally reachable: `isBlockedAddress`), and then the connection is pinned to the
 * address checked, so a second DNS answer cannot point it elsewhere. Never rejects.
 */
export async function checkMcpUrl(url: string, options: UrlGuardOptions): Promise<UrlVerdict> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `${JSON.stringify(url)} is not a valid URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, reason: `${parsed.protocol} URLs are not allowed (only http and https)` };
  }
  const host = hostKey(parsed.hostname);
  if (options.allowHosts.some((allowed) => hostKey(allowed) === host)) return { ok: true };
  const hint = options.allowHint?.(host) ?? `start serve with --mcp-allow-host ${host} to allow it`;
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      return {
        ok: false,
        reason: `cannot resolve ${host}: ${error instanceof Error ? error.message : error}`,
      };
    }
  }
  // Loaded on the first check: the range tables (ipaddr.js) stay out of an import of the library.
  const { embeddedIpv4, isBlockedAddress } = await import("./address-ranges.js");
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  if (blocked !== undefined) {
    const inside = embeddedIpv4(blocked.address);
    const shown =
      inside.length === 0 ? blocked.address : `${blocked.address}, carrying ${inside.join(" / ")}`;
    const what = blocked.address === host && inside.length === 0 ? host : `${host} (${shown})`;
    return {
      ok: false,
      reason: `${what} is a loopback, private, link-local or metadata address; ${hint}`,
    };
  }
  const first = addresses[0];
  return first === undefined ? { ok: false, reason: `${host} has no address` } : { ok: true, pin: first };
}

/** `dns.promises.lookup` with every address. */
export const resolveWithDns: ResolveHost = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A `lookup` for node:net/http that answers every name with `pin`: the connection goes to the address checked. */
export function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all === true) callback(null, [pin]);
    else callback(null, pin.address, pin.family);
  };
}

function bodyOf(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  throw new Error("the MCP guard fetch sends only string or byte bodies");
}

function responseOf(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (typeof value === "string") headers.set(key, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
  }
  const status = res.statusCode ?? 502;
  if (status === 204 || status === 304 || method === "HEAD" || (status >= 100 && status < 200)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      res.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      res.on("end", () => controller.close());
      res.on("error", (error) => controller.error(error));
    },
    cancel() {
      res.destroy();
    },
  });
  return new Response(body, {
    status,
    ...(res.statusMessage ? { statusText: res.statusMessage } : {}),
    headers,
  });
}

/**
 * A `fetch` for MCP servers that checks every request's URL with `checkMcpUrl` and connects to the address it
 * checked (node:http/https with a pinned lookup). Redirects are not followed (a 3xx reaches the MCP client as
 * an error), so a public server cannot bounce the connection to a private one.
 */
export function createGuardedFetch(
  options: UrlGuardOptions,
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const url = new URL(String(input));
    const verdict = await checkMcpUrl(url.href, options);
    if (!verdict.ok) throw new Error(`refused ${url.origin}: ${verdict.reason}`);
    const method = (init?.method ?? "GET").toUpperCase();
    const body = bodyOf(init?.body);
    const requestOptions: RequestOptions = {
      method,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(verdict.pin === undefined ? {} : { lookup: pinnedLookup(verdict.pin) }),
      ...(init?.signal === undefined || init.signal === null ? {} : { signal: init.signal }),
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, requestOptions, (res) => resolve(responseOf(res, method)));
      req.on("error", reject);
      req.end(body);
    });
  };
}
