import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (`dns.promises.lookup(host, { all: true })`). */
export type ResolveHost = (host: string) => Promise<ResolvedAddress[]>;

/** The address ranges a served session never connects to unless the operator allows the host by name. */
export const BLOCKED_RANGES: ReadonlyArray<{ net: string; prefix: number; family: "ipv4" | "ipv6" }> = [
  { net: "0.0.0.0", prefix: 8, family: "ipv4" },
  { net: "127.0.0.0", prefix: 8, family: "ipv4" },
  { net: "10.0.0.0", prefix: 8, family: "ipv4" },
  { net: "172.16.0.0", prefix: 12, family: "ipv4" },
  { net: "192.168.0.0", prefix: 16, family: "ipv4" },
  { net: "169.254.0.0", prefix: 16, family: "ipv4" },
  // Shared address space: carrier NAT, and some clouds' metadata service (100.100.100.200).
  { net: "100.64.0.0", prefix: 10, family: "ipv4" },
  { net: "::", prefix: 128, family: "ipv6" },
  { net: "::1", prefix: 128, family: "ipv6" },
  { net: "fc00::", prefix: 7, family: "ipv6" },
  { net: "fe80::", prefix: 10, family: "ipv6" },
];

/** True when `ip` (an IPv4 or IPv6 literal, IPv4-mapped included) lies in `BLOCKED_RANGES`. Pure. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  const list = new BlockList();
  for (const range of BLOCKED_RANGES) list.addSubnet(range.net, range.prefix, range.family);
  return list.check(ip, family === 4 ? "ipv4" : "ipv6");
}

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

/** Why a URL may not be reached, or the address to pin its connection to (undefined: an allowed host). */
export type UrlVerdict = { ok: true; pin?: ResolvedAddress } | { ok: false; reason: string };

/**
 * Decides whether a served session may connect to `url`: only http(s); a host the operator allowed by name
 * (`serve --mcp-allow-host`) always; any other host only when every address it resolves to is public (not
 * loopback, private, link-local or metadata: `BLOCKED_RANGES`), and then the connection is pinned to the
 * address checked, so a second DNS answer cannot point it elsewhere. Never rejects.
 */
export async function checkMcpUrl(
  url: string,
  options: { allowHosts: readonly string[]; resolve: ResolveHost },
): Promise<UrlVerdict> {
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
  const hint = `start serve with --mcp-allow-host ${host} to allow it`;
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
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  if (blocked !== undefined) {
    const what = blocked.address === host ? host : `${host} (${blocked.address})`;
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

function pinnedLookup(pin: ResolvedAddress): LookupFunction {
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
export function createGuardedFetch(options: {
  allowHosts: readonly string[];
  resolve: ResolveHost;
}): (input: string | URL, init?: RequestInit) => Promise<Response> {
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
