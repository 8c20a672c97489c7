// What `skillwright serve` tells its operator (issue #45 item 3): the start-up block, an access log line per
// request with its request id (the `request-id` header the SDK shows in errors), and the health routes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

const SCRIPT = { turns: [{ response: { content: [{ type: "text", text: "hi" }] } }] };

let tree: TmpTree;
let served: ServeProcess;
beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "", "turns.json": JSON.stringify(SCRIPT) });
  served = await startServe(
    ["--api-key", "k", "--script", "turns.json", "--db", tree.path("data")],
    { HOME: tree.path("home") },
    tree.path(),
  );
}, 120_000);
afterAll(async () => {
  await served?.stop();
  await tree?.cleanup();
});

/** The access log lines of serve's stderr so far. */
const logLines = () =>
  served
    .stderr()
    .split("\n")
    .filter((line) => / req_\S+ (GET|POST|DELETE) /.test(line));

describe("serve's start-up block", () => {
  it("starts with the listening line, then the page, database, model, sandbox and health routes", async () => {
    await expect.poll(() => served.stdout()).toContain("access log:");
    const lines = served.stdout().split("\n");
    expect(lines[0]).toBe(`skillwright serve listening on ${served.url}`);
    expect(served.stdout()).toContain(`web page:   ${served.url}/`);
    expect(served.stdout()).toContain(`database:   PGlite in ${tree.path("data")} (embedded`);
    expect(served.stdout()).toContain("model:      the scripted model of turns.json (offline");
    expect(served.stdout()).toContain("sandbox:    sessions run code in the simulated sandbox");
    expect(served.stdout()).toContain(`health:     ${served.url}/healthz (liveness), ${served.url}/readyz`);
    // The key was given: none is made or printed.
    expect(served.stdout()).not.toContain("API key for the default workspace");
  });

  it("warns when no model is set, and prints the key it made", async () => {
    const bare = await tmpTree({ "home/.keep": "" });
    const other = await startServe(["--db", bare.path("data")], { HOME: bare.path("home") }, bare.path());
    try {
      await expect.poll(() => other.stdout()).toContain("API key for the default workspace");
      expect(other.stdout()).toMatch(
        /model: {6}none set\. Warning: every session turn will fail until ANTHROPIC_API_KEY/,
      );
      expect(other.stdout()).toMatch(/API key for the default workspace .*: sk-sw-/);
    } finally {
      await other.stop();
      await bare.cleanup();
    }
  }, 120_000);
});

describe("serve's access log and request ids", () => {
  it("answers each request with a request-id header and logs it on stderr with method, path and status", async () => {
    const response = await fetch(`${served.url}/v1/skills`, { headers: { "x-api-key": "k" } });
    expect(response.status).toBe(200);
    const id = response.headers.get("request-id");
    expect(id).toMatch(/^req_\w+$/);
    await expect
      .poll(() => logLines().find((line) => line.includes(` ${id} `)))
      .toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z ${id} GET /v1/skills 200 \\d+ms$`));
  });

  it("the SDK shows the request id in its errors, and the log has the same request's 404", async () => {
    const client = sdkClient(served.url, "k");
    const error: unknown = await client.beta.skills.retrieve("skill_nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const requestId = (error as { requestID?: string }).requestID;
    expect(requestId).toMatch(/^req_\w+$/);
    expect(String(error)).toContain(requestId);
    await expect
      .poll(() => logLines().find((line) => line.includes(` ${requestId} `)))
      .toContain("GET /v1/skills/skill_nope 404");
  });

  it("gives every request its own id, refused ones too", async () => {
    const refused = await fetch(`${served.url}/v1/skills`);
    expect(refused.status).toBe(401);
    const again = await fetch(`${served.url}/v1/skills`);
    expect(refused.headers.get("request-id")).toMatch(/^req_/);
    expect(again.headers.get("request-id")).not.toBe(refused.headers.get("request-id"));
  });
});

describe("serve's health routes", () => {
  it("GET /healthz answers 200 without a key", async () => {
    const response = await fetch(`${served.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz answers 200 once the database answers, without a key", async () => {
    const response = await fetch(`${served.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });
});
