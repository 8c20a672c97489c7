import { describe, expect, it } from "vitest";
import { INLINE_MARKETPLACE, pluginDataDir, pluginDataRoot } from "../../src/plugins/plugin-data.js";

describe("pluginDataDir: Claude Code's layout, {name}-{marketplace}", () => {
  it.each([
    { name: "formatter", marketplace: "my-marketplace", dir: "formatter-my-marketplace" },
    { name: "notes", marketplace: INLINE_MARKETPLACE, dir: "notes-inline" },
    { name: "notes", marketplace: "installed", dir: "notes-installed" },
    { name: "my_tool", marketplace: "acme.tools", dir: "my_tool-acme-tools" },
    { name: "a b/../c", marketplace: "m:x", dir: "a-b----c-m-x" },
    { name: "café", marketplace: "m", dir: "caf--m" },
  ])("$name@$marketplace → $dir", ({ name, marketplace, dir }) => {
    expect(pluginDataDir("/d", name, marketplace)).toBe(`/d/${dir}`);
  });

  it("the data root is {home}/.skillwright/plugins/data", () => {
    expect(pluginDataRoot("/home/u")).toBe("/home/u/.skillwright/plugins/data");
  });
});
