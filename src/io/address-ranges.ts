import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * IANA special-purpose blocks marked not globally reachable that ipaddr.js's range table does not name yet (its
 * `range()` calls them `unicast`); test/io/address-ranges.test.ts checks every block of the registry.
 */
export const NOT_GLOBAL_EXTRA: ReadonlyArray<{ net: string; prefix: number }> = [
  // Dummy IPv6 prefix (RFC 9780).
  { net: "100:0:0:1::", prefix: 64 },
];

/**
 * ipaddr.js's ranges of IPv6 forms that carry an IPv4 address which {@link embeddedIpv4} reads: such an address is
 * judged by the address it carries (a public one behind NAT64 or 6to4 is reachable), not blocked whole.
 */
const CARRIER_RANGES = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4", "teredo"]);

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
 * IPv4 sits depends on a prefix length chosen by each network): {@link isBlockedAddress} blocks it whole. Empty for an
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

const EXTRA = NOT_GLOBAL_EXTRA.map(({ net, prefix }) => ipaddr.parseCIDR(`${net}/${prefix}`));

/** ipaddr.js's name for the range `ip` (an IP literal, any zone id dropped) lies in: `unicast` when none. Pure. */
export function addressRange(ip: string): string {
  const address = ipaddr.parse(ip.split("%")[0] ?? "");
  if (
    address.kind() === "ipv6" &&
    EXTRA.some(([net, prefix]) => net.kind() === "ipv6" && address.match(net, prefix))
  )
    return "notGlobal";
  return address.range();
}

/**
 * True when `ip` may not be reached from a served session: not an IP literal; in any range but plain `unicast` of
 * ipaddr.js's table of special-purpose blocks (loopback, private, link-local, shared, reserved, documentation,
 * benchmarking, multicast, broadcast, …) or of {@link NOT_GLOBAL_EXTRA}; or an IPv6 address that carries a blocked
 * IPv4 address (see {@link embeddedIpv4}). An IPv6 form that carries a public IPv4 address (NAT64's well-known
 * prefix, 6to4, Teredo, mapped) is judged by it; the local-use NAT64 prefix, whose IPv4 part cannot be read, is
 * blocked whole. Pure.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip.split("%")[0] ?? "");
  if (family === 0) return true;
  if (family === 4) return addressRange(ip) !== "unicast";
  const inside = embeddedIpv4(ip);
  if (inside.some((v4) => addressRange(v4) !== "unicast")) return true;
  const range = addressRange(ip);
  return range !== "unicast" && !(CARRIER_RANGES.has(range) && inside.length > 0);
}
