import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { addressRange, embeddedIpv4, ipv6Bytes, isBlockedAddress } from "../../src/io/address-ranges.js";

// Which addresses a served session may never reach unless the operator names the host: the private-address rule
// of src/io/url-guard.ts, over ipaddr.js's range tables and IANA's registries.

/**
 * IANA's IPv4 and IPv6 Special-Purpose Address Registries (as published in 2025), every block whose "Globally
 * Reachable" is False or N/A, and the multicast blocks: the first and the last address of each must be blocked.
 * (A block the registry marks reachable inside one of these, e.g. 192.0.0.9/32 in 192.0.0.0/24, may be blocked
 * too: the guard errs on the closed side.) IPv4-mapped, 6to4 and Teredo are judged by the IPv4 address they carry,
 * and both ends of each carry a blocked one.
 */
const NOT_GLOBAL: readonly string[] = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.0.0/29",
  "192.0.0.8/32",
  "192.0.0.170/32",
  "192.0.0.171/32",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "255.255.255.255/32",
  "::1/128",
  "::/128",
  "::ffff:0:0/96",
  "64:ff9b:1::/48",
  "100::/64",
  "100:0:0:1::/64",
  "2001::/23",
  "2001::/32",
  "2001:2::/48",
  "2001:10::/28",
  "2001:db8::/32",
  "2002::/16",
  "3fff::/20",
  "5f00::/16",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
];

/** The first and last address of a CIDR block. */
function ends(cidr: string): [string, string] {
  const [net, prefix] = ipaddr.parseCIDR(cidr);
  const bytes = net.toByteArray();
  const bits = bytes.length * 8;
  let value = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
  const host = (1n << BigInt(bits - prefix)) - 1n;
  value &= ~host;
  const out = (v: bigint) =>
    ipaddr
      .fromByteArray(
        Array.from({ length: bytes.length }, (_, i) =>
          Number((v >> BigInt(8 * (bytes.length - 1 - i))) & 255n),
        ),
      )
      .toString();
  return [out(value), out(value | host)];
}

describe("the IANA special-purpose blocks that are not globally reachable", () => {
  it.each(NOT_GLOBAL)("blocks both ends of %s", (cidr) => {
    const [first, last] = ends(cidr);
    expect(isBlockedAddress(first), first).toBe(true);
    expect(isBlockedAddress(last), last).toBe(true);
  });
  it.each([
    "1.1.1.1",
    "8.8.4.4",
    "198.20.0.1",
    "223.255.255.254",
    "2606:4700::1111",
    "2a00:1450:4001::1",
    "64:ff9b::101:101",
  ])("admits the public address %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "::1",
    "::",
    "fd00:ec2::254",
    "fc00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "not-an-ip",
  ])("blocks %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });
  it.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "100.128.0.1"])("admits %s", (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  // Every IPv6 form that carries an IPv4 address: blocked when that address is, admitted when it is public.
  it.each([
    ["IPv4-compatible", "::7f00:1", "127.0.0.1"],
    ["IPv4-compatible, dotted", "::127.0.0.1", "127.0.0.1"],
    ["IPv4-compatible, private", "::a00:1", "10.0.0.1"],
    ["IPv4-mapped, hex", "::ffff:7f00:1", "127.0.0.1"],
    ["IPv4-mapped, dotted", "::ffff:127.0.0.1", "127.0.0.1"],
    ["IPv4-mapped, written out", "0:0:0:0:0:ffff:7f00:1", "127.0.0.1"],
    ["IPv4-mapped, upper case", "::FFFF:A9FE:A9FE", "169.254.169.254"],
    ["IPv4-mapped, zone id", "::ffff:10.1.2.3%eth0", "10.1.2.3"],
    ["IPv4-translated", "::ffff:0:7f00:1", "127.0.0.1"],
    ["NAT64 well-known", "64:ff9b::7f00:1", "127.0.0.1"],
    ["NAT64 well-known, dotted", "64:ff9b::169.254.169.254", "169.254.169.254"],
    ["6to4", "2002:7f00:1::", "127.0.0.1"],
    ["6to4, with a host part", "2002:c0a8:101:1::5", "192.168.1.1"],
    ["Teredo client (bits flipped)", "2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.1"],
    ["Teredo server", "2001:0:a00:1::1", "10.0.0.1"],
    ["ISATAP", "fe90::5efe:7f00:1", "127.0.0.1"],
    ["ISATAP, global prefix", "2001:db8::200:5efe:a00:1", "10.0.0.1"],
  ])("blocks %s (%s carries %s)", (_form, ip, inside) => {
    expect(embeddedIpv4(ip)).toContain(inside);
    expect(isBlockedAddress(ip)).toBe(true);
  });
  it.each([
    ["IPv4-mapped", "::ffff:808:808", "8.8.8.8"],
    ["NAT64 well-known", "64:ff9b::808:808", "8.8.8.8"],
    ["6to4", "2002:808:808::1", "8.8.8.8"],
    ["Teredo", "2001:0:808:808::f7f7:f7f7", "8.8.8.8"],
  ])("admits %s carrying a public address (%s carries %s)", (_form, ip, inside) => {
    expect(embeddedIpv4(ip)).toContain(inside);
    expect(isBlockedAddress(ip)).toBe(false);
  });
  // Local-use NAT64: where the IPv4 address sits depends on each network's prefix length, so all of it is blocked.
  it.each(["64:ff9b:1::c0a8:101", "64:ff9b:1:7f00:0:100::", "64:ff9b:1:a:0:1::", "64:ff9b:1::808:808"])(
    "blocks the local-use NAT64 prefix whole: %s",
    (ip) => {
      expect(isBlockedAddress(ip)).toBe(true);
    },
  );
  it("blocks the few IANA blocks ipaddr.js does not name (NOT_GLOBAL_EXTRA)", () => {
    expect(addressRange("100:0:0:1::5")).toBe("notGlobal");
    expect(addressRange("8.8.8.8")).toBe("unicast");
  });
  it("reads IPv6 literals to their 16 bytes", () => {
    expect([...(ipv6Bytes("::ffff:127.0.0.1") ?? [])]).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1,
    ]);
    expect([...(ipv6Bytes("2001:db8::1") ?? [])]).toEqual([
      32, 1, 13, 184, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    ]);
    expect(ipv6Bytes("127.0.0.1")).toBeUndefined();
    expect(embeddedIpv4("2606:4700::1111")).toEqual([]);
    expect(embeddedIpv4("127.0.0.1")).toEqual([]);
  });
});
