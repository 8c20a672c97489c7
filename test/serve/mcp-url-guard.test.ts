import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkMcpUrl,
  createGuardedFetch,
  mcpAllowHostsFrom,
  type ResolveHost,
} from "../../src/io/url-guard.js";

// The SSRF guard of served sessions' MCP connections: decisions over an injected resolver, and the guarded
// fetch against a real local HTTP server.

/** A resolver over a fixed table (an unknown name fails as DNS would). */
const table =
  (names: Record<string, string[]>): ResolveHost =>
  async (host) => {
    const addresses = names[host];
    if (addresses === undefined) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("checkMcpUrl", () => {
  const resolve = table({
    "mcp.example.com": ["93.184.215.14"],
    "rebind.example.com": ["93.184.215.14", "10.0.0.5"],
    "internal.example.com": ["192.168.0.10"],
  });

  it("admits a public host and pins the connection to the address it checked", async () => {
    expect(await checkMcpUrl("https://mcp.example.com/mcp", { allowHosts: [], resolve })).toEqual({
      ok: true,
      pin: { address: "93.184.215.14", family: 4 },
    });
  });

  it("refuses a name with any private address, and a private or metadata IP literal", async () => {
    for (const url of [
      "https://internal.example.com/mcp",
      "https://rebind.example.com/mcp",
      "http://127.0.0.1:8080/mcp",
      "http://[::1]/mcp",
      "http://169.254.169.254/latest/meta-data",
    ]) {
      const verdict = await checkMcpUrl(url, { allowHosts: [], resolve });
      expect(verdict.ok, url).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toContain("loopback, private, link-local or metadata");
    }
  });

  it("admits a host named by --mcp-allow-host without resolving it (case and brackets aside)", async () => {
    const none = table({});
    expect(await checkMcpUrl("http://127.0.0.1:9/mcp", { allowHosts: ["127.0.0.1"], resolve: none })).toEqual(
      {
        ok: true,
      },
    );
    expect(await checkMcpUrl("http://[::1]:9/mcp", { allowHosts: ["::1"], resolve: none })).toEqual({
      ok: true,
    });
    expect(
      await checkMcpUrl("http://Internal.Example.com/mcp", { allowHosts: ["internal.example.COM"], resolve }),
    ).toEqual({ ok: true });
  });

  it("refuses other schemes, bad URLs and names that do not resolve", async () => {
    const reasons = await Promise.all(
      ["file:///etc/passwd", "ftp://mcp.example.com/", "not a url", "https://nowhere.example.com/"].map(
        async (url) => {
          const verdict = await checkMcpUrl(url, { allowHosts: [], resolve });
          return verdict.ok ? "admitted" : verdict.reason;
        },
      ),
    );
    expect(reasons[0]).toContain("file: URLs are not allowed");
    expect(reasons[1]).toContain("ftp: URLs are not allowed");
    expect(reasons[2]).toContain("is not a valid URL");
    expect(reasons[3]).toContain("cannot resolve nowhere.example.com");
  });
});

describe("mcpAllowHostsFrom", () => {
  it("joins the flags and SKILLWRIGHT_MCP_ALLOW_HOSTS's comma-separated names", () => {
    expect(mcpAllowHostsFrom(["a.local"], " b.local, ,127.0.0.1 ")).toEqual([
      "a.local",
      "b.local",
      "127.0.0.1",
    ]);
    expect(mcpAllowHostsFrom([], undefined)).toEqual([]);
  });
});

describe("createGuardedFetch", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
        return void res.end();
      }
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        res.writeHead(200, {
          "content-type": "application/json",
          "x-seen-header": req.headers["x-test"] ?? "",
        });
        res.end(JSON.stringify({ method: req.method, body }));
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it("refuses a private host that is not allowed, before connecting", async () => {
    const fetch = createGuardedFetch({ allowHosts: [], resolve: table({}) });
    await expect(fetch(`${base}/x`)).rejects.toThrow(
      /refused http:\/\/127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback/,
    );
  });

  it("sends the method, headers and body to an allowed host and streams the answer back", async () => {
    const fetch = createGuardedFetch({ allowHosts: ["127.0.0.1"], resolve: table({}) });
    const response = await fetch(`${base}/x`, {
      method: "POST",
      headers: { "x-test": "yes" },
      body: "hello",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-seen-header")).toBe("yes");
    expect(await response.json()).toEqual({ method: "POST", body: "hello" });
  });

  it("does not follow a redirect (a public server cannot bounce the connection to a private address)", async () => {
    const fetch = createGuardedFetch({ allowHosts: ["127.0.0.1"], resolve: table({}) });
    const response = await fetch(`${base}/redirect`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://169.254.169.254/latest/meta-data");
  });
});
