import { describe, expect, it } from "vitest";
import { parseInstallSource } from "../../src/install/install-source.js";

const places = { cwd: "/p", home: "/h" };

describe("parseInstallSource", () => {
  it.each([
    [
      "file:///r/skills.git",
      { kind: "git", url: "file:///r/skills.git", sourceType: "git", sourceUrl: "file:///r/skills.git" },
    ],
    [
      "https://example.com/x/y.git#v1",
      { kind: "git", url: "https://example.com/x/y.git", ref: "v1", sourceType: "git" },
    ],
    ["git@host.example:team/skills.git", { kind: "git", sourceType: "git" }],
    [
      "https://github.com/acme/skills",
      {
        kind: "git",
        url: "https://github.com/acme/skills.git",
        sourceType: "github",
        lockSource: "acme/skills",
      },
    ],
    [
      "acme/skills/tools/x",
      {
        kind: "git",
        url: "https://github.com/acme/skills.git",
        subpath: "tools/x",
        lockSource: "acme/skills",
      },
    ],
    ["helper@team-market", { kind: "marketplace", plugin: "helper", marketplace: "team-market" }],
    [
      "npm:@acme/skills@2.0.0",
      { kind: "npm", spec: "@acme/skills@2.0.0", lockSource: "npm:@acme/skills@2.0.0" },
    ],
    ["./pkg.tgz", { kind: "npm", spec: "/p/pkg.tgz" }],
    ["../dir", { kind: "local", path: "/dir", sourceType: "local" }],
    ["~/skills", { kind: "local", path: "/h/skills" }],
  ])("%s", (input, expected) => {
    expect(parseInstallSource(input, places)).toEqual({ source: expect.objectContaining(expected) });
  });

  it.each(["acme/skills/../../etc", "", "not a source"])("refuses %j", (input) => {
    expect(parseInstallSource(input, places)).toEqual({ error: expect.any(String) });
  });
});
