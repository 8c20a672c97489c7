import { describe, expect, it } from "vitest";
import { marketplaceRoot } from "../../src/plugins/marketplace.js";
import { parseMarketplace } from "../../src/plugins/parse-marketplace.js";

const FILE = "/m/.claude-plugin/marketplace.json";

describe("marketplaceRoot", () => {
  it.each([
    [FILE, "/m"],
    ["/etc/team/market.json", "/etc/team"],
  ])("%s → %s", (file, root) => {
    expect(marketplaceRoot(file)).toBe(root);
  });
});

describe("parseMarketplace", () => {
  it.each([
    ["no name", { plugins: [] }],
    ["no plugins", { name: "m" }],
    ["plugins not a list", { name: "m", plugins: {} }],
    ["not an object", "m"],
  ])("refuses a marketplace with %s", (_label, json) => {
    const result = parseMarketplace(json, FILE);
    expect(result.marketplace).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([["error", "plugin-invalid"]]);
  });

  it("resolves relative sources, keeps remote ones, and strips listing-only fields from the overlay", () => {
    const result = parseMarketplace(
      {
        name: "team",
        plugins: [
          { name: "a", source: "./plugins/a", category: "dev", tags: ["x"], strict: false, version: "1.0.0" },
          { name: "b", source: { source: "github", repo: "x/b" }, description: "remote" },
        ],
      },
      FILE,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.marketplace).toEqual({
      name: "team",
      file: FILE,
      root: "/m",
      plugins: [
        { name: "a", root: "/m/plugins/a", overlay: { name: "a", version: "1.0.0" } },
        { name: "b", remote: "github", overlay: { name: "b", description: "remote" } },
      ],
    });
  });

  it("prefixes metadata.pluginRoot to sources written without ./", () => {
    const result = parseMarketplace(
      {
        name: "m",
        metadata: { pluginRoot: "./plugins/" },
        plugins: [
          { name: "a", source: "a" },
          { name: "b", source: "./other/b" },
        ],
      },
      FILE,
    );
    expect(result.marketplace?.plugins.map((p) => p.root)).toEqual(["/m/plugins/a", "/m/other/b"]);
  });

  it("skips bad entries, sources leaving the marketplace, and repeated names, each with a diagnostic", () => {
    const result = parseMarketplace(
      {
        name: "m",
        plugins: [
          { name: "ok", source: "./ok" },
          { source: "./nameless" },
          "just a string",
          { name: "escape", source: "../../etc" },
          { name: "ok", source: "./ok-again" },
        ],
      },
      FILE,
    );
    expect(result.marketplace?.plugins.map((p) => p.name)).toEqual(["ok"]);
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "plugin-invalid"],
      ["warning", "plugin-invalid"],
      ["error", "plugin-invalid"],
      ["warning", "shadowed"],
    ]);
  });
});
