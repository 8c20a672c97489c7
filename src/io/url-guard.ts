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

/**
 * The address ranges a served session (its MCP servers, its sandbox's network) never connects to unless the
 * operator allows the host by name.
 */
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
  // Local-use NAT64 (RFC 8215): it carries an IPv4 address at a place each network chooses, so it cannot be
  // read; the well-known NAT64 prefix and the other IPv6 forms that carry IPv4 are read by embeddedIpv4.
  { net: "64:ff9b:1::", prefix: 48, family: "ipv6" },
];

/** The 16 bytes of an IPv6 literal (a `%zone` suffix ignored, a dotted IPv4 tail read), or undefined. Pure. */
export function ipv6Bytes(ip: string): Uint8Array | undefined {
  const text = ip.split("%")[0] ?? "";
  if (isIP(text) !== 6) return undefined;
  const halves = text.split("::");
  const read = (half: string): number[] => {
    if (half === "") return [];
    const out: number[] = [];
    for (const part of half.split(":")) {
      if (part.includes(".")) {
        const [a = 0, b = 0, c = 0, d = 0] = part.split(".").map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(Number.parseInt(part, 16));
    }
    return out;
  };
  const head = read(halves[0] ?? "");
  const tail = read(halves[1] ?? "");
  const words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, word] of words.entries()) {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  }
  return bytes;
}

const dotted = (bytes: Uint8Array, at: readonly number[], mask = 0): string =>
  at.map((i) => (bytes[i] ?? 0) ^ mask).join(".");
const zero = (bytes: Uint8Array, from: number, to: number): boolean =>
  bytes.subarray(from, to).every((b) => b === 0);
const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean =>
  prefix.every((b, i) => bytes[i] === b);
const LAST_FOUR = [12, 13, 14, 15] as const;

/**
 * The IPv4 addresses an IPv6 address carries, in every form that embeds one: IPv4-compatible (`::/96`),
 * IPv4-mapped (`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`), 6to4
 * (`2002::/16`), Teredo (`2001::/32`: the server, and the client with its bits flipped) and ISATAP
 * (interface id `0:5efe` / `200:5efe`). The local-use NAT64 prefix `64:ff9b:1::/48` is not read (where its
 * IPv4 sits depends on a prefix length chosen by each network): `BLOCKED_RANGES` holds it whole. Empty for an
 * IPv4 literal, another IPv6 address, or not an IP. Pure.
 */
export function embeddedIpv4(ip: string): string[] {
  const b = ipv6Bytes(ip);
  if (b === undefined) return [];
  const found: string[] = [];
  if (zero(b, 0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) {
    found.push(dotted(b, LAST_FOUR));
  }
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) found.push(dotted(b, LAST_FOUR));
  if (startsWith(b, [0, 0x64, 0xff, 0x9b]) && zero(b, 4, 12)) found.push(dotted(b, LAST_FOUR));
  if (startsWith(b, [0x20, 0x02])) found.push(dotted(b, [2, 3, 4, 5]));
  if (startsWith(b, [0x20, 0x01, 0, 0])) found.push(dotted(b, [4, 5, 6, 7]), dotted(b, LAST_FOUR, 0xff));
  if (((b[8] ?? 0) & 0xfc) === 0 && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) {
    found.push(dotted(b, LAST_FOUR));
  }
  return [...new Set(found)];
}

function blockList(): BlockList {
  const list = new BlockList();
  for (const range of BLOCKED_RANGES) list.addSubnet(range.net, range.prefix, range.family);
  return list;
}

/**
 * True when `ip` lies in `BLOCKED_RANGES`, or is an IPv6 address that embeds an IPv4 address that does (see
 * {@link embeddedIpv4}), or is not an IP literal at all. Pure.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  const list = blockList();
  if (family === 4) return list.check(ip, "ipv4");
  return list.check(ip, "ipv6") || embeddedIpv4(ip).some((v4) => list.check(v4, "ipv4"));
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
 * loopback, private, link-local or metadata: `BLOCKED_RANGES`), and then the connection is pinned to the
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
