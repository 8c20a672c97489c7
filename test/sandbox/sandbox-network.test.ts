import { describe, expect, it } from "vitest";
import { hostAllowed, networkDecision, type SandboxNetwork } from "../../src/sandbox/sandbox-network.js";

describe("networkDecision", () => {
  const cases: { network: SandboxNetwork; url: string; allowed: boolean }[] = [
    { network: { mode: "none" }, url: "https://example.com/", allowed: false },
    { network: { mode: "unrestricted" }, url: "https://example.com/", allowed: true },
    { network: { mode: "unrestricted" }, url: "http://127.0.0.1:8080/", allowed: true },
    { network: { mode: "unrestricted" }, url: "file:///etc/passwd", allowed: false },
    { network: { mode: "unrestricted" }, url: "not a url", allowed: false },
    {
      network: { mode: "limited", allowedHosts: ["example.com"] },
      url: "https://example.com/a",
      allowed: true,
    },
    {
      network: { mode: "limited", allowedHosts: ["example.com"] },
      url: "https://EXAMPLE.com/a",
      allowed: true,
    },
    {
      network: { mode: "limited", allowedHosts: ["example.com"] },
      url: "https://api.example.com/",
      allowed: false,
    },
    {
      network: { mode: "limited", allowedHosts: ["*.example.com"] },
      url: "https://api.example.com/",
      allowed: true,
    },
    {
      network: { mode: "limited", allowedHosts: ["*.example.com"] },
      url: "https://example.com.evil/",
      allowed: false,
    },
    {
      network: { mode: "limited", allowedHosts: ["*.example.com"] },
      url: "https://notexample.com/",
      allowed: false,
    },
    { network: { mode: "limited", allowedHosts: [] }, url: "https://example.com/", allowed: false },
  ];
  it.each(cases)("$network.mode $url -> $allowed", ({ network, url, allowed }) => {
    const decision = networkDecision(network, url);
    expect(decision.allowed).toBe(allowed);
    if (!decision.allowed) expect(decision.reason).not.toBe("");
  });
});

describe("hostAllowed", () => {
  it("matches names whole, case aside, and *. patterns by their subdomains only", () => {
    expect(hostAllowed(["Example.com"], "example.COM")).toBe(true);
    expect(hostAllowed(["*.example.com"], "a.b.example.com")).toBe(true);
    expect(hostAllowed(["*.example.com"], "example.com")).toBe(false);
    expect(hostAllowed(["[::1]"], "::1")).toBe(true);
  });
});
