// The operator's price table (issue #46): `serve --prices FILE` is checked when serve starts (a bad one exits 2
// naming the file, the model and the field, before listening) and served at GET /v1/skillwright/prices for the
// web page, which shows costs only when there is one (test/serve/web-console.test.ts).
import { afterEach, describe, expect, it } from "vitest";
import { PriceTableError, parsePriceTable } from "../../src/serve/price-table.js";
import { cli } from "../cli/run-cli.js";
import { startServedApp } from "../support/served-app.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, startServe } from "./serve-process.js";

const SONNET = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

describe("parsePriceTable", () => {
  it("reads US dollars per million tokens by model", () => {
    expect(
      parsePriceTable(JSON.stringify({ "claude-sonnet-4-6": SONNET, free: { ...SONNET, input: 0 } }), "f"),
    ).toEqual({
      "claude-sonnet-4-6": SONNET,
      free: { ...SONNET, input: 0 },
    });
  });

  it.each([
    ["{", "f: not JSON"],
    ["[]", "f: a price table is a JSON object of models"],
    ["{}", "f: names no model"],
    [JSON.stringify({ m: 3 }), 'f: "m" must be an object with input, output, cache_read, cache_write'],
    [JSON.stringify({ m: { ...SONNET, cached: 1 } }), 'f: "m" has an unknown field "cached"'],
    [JSON.stringify({ m: { input: 3, output: 15, cache_read: 0.3 } }), 'f: "m" has no "cache_write" price'],
    [
      JSON.stringify({ m: { ...SONNET, output: -1 } }),
      'f: "m".output must be a number of US dollars per million tokens, 0 or more (got -1)',
    ],
    [JSON.stringify({ m: { ...SONNET, input: "3" } }), 'f: "m".input must be a number'],
    [JSON.stringify({ " ": SONNET }), "f: a model id is empty"],
  ])("refuses %s with a clear reason", (text, reason) => {
    expect(() => parsePriceTable(text, "f")).toThrow(PriceTableError);
    expect(() => parsePriceTable(text, "f")).toThrow(reason);
  });
});

let tree: TmpTree | undefined;
let served: ServeProcess | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
  await tree?.cleanup();
  tree = undefined;
});

describe("serve --prices", () => {
  it("exits 2 naming the file, the model and the field when the table is bad, before listening", async () => {
    tree = await tmpTree({
      "home/repo/prices.json": JSON.stringify({ "claude-sonnet-4-6": { ...SONNET, output: "15" } }),
    });
    const bad = await cli(tree, ["serve", "--port", "0", "--prices", "prices.json"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'skillwright serve: --prices prices.json: "claude-sonnet-4-6".output must be a number of US dollars per million tokens, 0 or more (got "15")',
    );
    expect(bad.stdout).not.toContain("listening");
    const missing = await cli(tree, ["serve", "--port", "0", "--prices", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("skillwright serve: --prices nope.json: ENOENT");
    // Only serve takes it.
    const other = await cli(tree, ["list", "--prices", "prices.json"]);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("--prices");
  }, 60_000);

  it("serves the table it was given at GET /v1/skillwright/prices", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "prices.json": JSON.stringify({ "claude-sonnet-4-6": SONNET }),
    });
    served = await startServe(
      ["--api-key", "k", "--prices", "prices.json"],
      { HOME: tree.path("home") },
      tree.path(),
    );
    const answer = await fetch(`${served.url}/v1/skillwright/prices`, { headers: { "x-api-key": "k" } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ prices: { "claude-sonnet-4-6": SONNET } });
    const refused = await fetch(`${served.url}/v1/skillwright/prices`);
    expect(refused.status).toBe(401);
  }, 120_000);

  it("without a table the route answers null (the page then shows no cost)", async () => {
    const app = await startServedApp();
    try {
      const none = await fetch(`${app.url}/v1/skillwright/prices`, { headers: { "x-api-key": "k" } });
      expect(await none.json()).toEqual({ prices: null });
    } finally {
      await app.close();
    }
  }, 60_000);
});
