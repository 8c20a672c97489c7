import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The shipped bin; CI builds it before the tests. */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const TLS = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const CERT = `${TLS}cert.pem`;

let model: TestModel;
let proxy: Server;
let tree: TmpTree;
let httpsUrl: string;

/** TLS in front of the scripted model server: every request and response is piped through unchanged. */
function tlsProxy(target: URL): Server {
  return createServer({ key: readFileSync(`${TLS}key.pem`), cert: readFileSync(CERT) }, (req, res) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  model = await startTestModel([textTurn("hello over TLS", { lastUserTextIncludes: "tls please" })]);
  proxy = tlsProxy(new URL(model.server.url));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  httpsUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  tree = await tmpTree({ "proj/.git": { dir: true } });
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await model.close();
  await tree.cleanup();
});

/** A headless run of the shipped bin against the TLS proxy; `extra` adds env variables (the CA to trust). */
function runBin(extra: Record<string, string> = {}) {
  return execa(
    process.execPath,
    [
      BIN,
      "-p",
      "tls please",
      "--output-format",
      "json",
      "--cwd",
      tree.path("proj"),
      "--home",
      tree.path("home"),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        ANTHROPIC_BASE_URL: httpsUrl,
        ANTHROPIC_API_KEY: TEST_API_KEY,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
        ...extra,
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    },
  );
}

describe("the model client over https (the real API's scheme)", () => {
  it("a headless run through the shipped bin reaches an https endpoint that trusts the system CAs + NODE_EXTRA_CA_CERTS", async () => {
    const result = await runBin({ NODE_EXTRA_CA_CERTS: CERT });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ subtype: "success", result: "hello over TLS" });
  });

  it("an untrusted certificate is a clear connection error, not a hang", async () => {
    const result = await runBin();
    expect(result.exitCode).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/self[- ]signed certificate/i);
  }, 70_000);
});
