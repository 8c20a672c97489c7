import { describe, expect, it } from "vitest";
import { pickVersion, taggedVersions } from "../../src/install/plugin-versions.js";

describe("plugin release tags and ranges", () => {
  it("reads only {plugin}--v{semver} tags of that whole plugin name, highest first", () => {
    const tags = [
      "a--v1.0.0",
      "a-b--v9.0.0",
      "a--v1.2.0",
      "a--vnext",
      "a--v2.0.0-beta.1",
      "v3.0.0",
      "a--v1.2.0",
    ];
    expect(taggedVersions("a", tags)).toEqual(["2.0.0-beta.1", "1.2.0", "1.0.0"]);
    expect(taggedVersions("a-b", tags)).toEqual(["9.0.0"]);
  });

  it.each([
    [["~2.1.0"], "2.1.3"],
    [["^2.0"], "2.2.0"],
    [[">=1.4"], "3.0.0"],
    [["=2.1.0"], "2.1.0"],
    [["1.0.0 - 2.1.1"], "2.1.0"],
    [["^2.0", ">=2.1"], "2.2.0"],
    [["^3.0.0-0"], "3.0.0"],
    [["<3.0.0-0 || ^1"], "2.2.0"],
  ])("%j picks %s", (ranges, expected) => {
    const versions = ["1.0.0", "2.1.0", "2.1.3", "2.2.0", "3.0.0-rc.1", "3.0.0"];
    expect(
      pickVersion(
        versions,
        ranges.map((range) => ({ range, by: "t" })),
      ),
    ).toEqual({
      kind: "version",
      version: expected,
    });
  });

  it("says when no version meets every range, and when a range is not one", () => {
    const versions = ["1.0.0", "2.1.0"];
    const constraints = [
      { range: "~2.1", by: "a" },
      { range: "~3.0", by: "b" },
    ];
    expect(pickVersion(versions, constraints)).toEqual({ kind: "none", available: ["2.1.0", "1.0.0"] });
    expect(pickVersion(versions, [{ range: "not a range", by: "a" }])).toMatchObject({
      kind: "invalid-range",
    });
    expect(pickVersion(["2.0.0-beta.1"], [{ range: "^2.0.0", by: "a" }])).toMatchObject({ kind: "none" });
  });
});
