import { describe, expect, it } from "vitest";
import { nestedAnnouncement, nestedEntry, unscopedName } from "../../src/activation/announce.js";

const label = { root: "packages/api/.claude/skills", base: "packages/api" };

describe("nested announcements", () => {
  it("formats the block byte for byte: names, then the listing header and entries, by name (SPEC §14.10)", () => {
    const text = nestedAnnouncement(label, [
      { name: "packages/api:lint", alias: "api-lint", description: "Lints\nthe API" },
      { name: "deploy", description: "Deploys the API", whenToUse: "when shipping" },
    ]);
    expect(text).toBe(
      "<system-reminder>\n" +
        "New skills discovered in packages/api/.claude/skills, now available via the Skill tool:\n" +
        "- deploy\n" +
        "- packages/api:lint\n" +
        "\n" +
        "The following skills are available for use with the Skill tool:\n" +
        "\n" +
        "- deploy: Deploys the API - when shipping (from packages/api/.claude/skills — applies when working on files under packages/api/)\n" +
        '- packages/api:lint (api-lint): Lints the API (scoped to packages/api/ — use this instead of the unscoped "lint" skill when the files being changed are under packages/api/)\n' +
        "</system-reminder>",
    );
  });

  it("finds the unscoped name of a clash-renamed skill only under its own base", () => {
    expect(unscopedName("packages/api:lint", label)).toBe("lint");
    expect(unscopedName("lint", label)).toBeUndefined();
    expect(unscopedName("packages/web:lint", label)).toBeUndefined();
    expect(unscopedName("packages/api:", label)).toBeUndefined();
  });

  it("caps the description like the listing and omits an empty one", () => {
    const long = nestedEntry({ name: "x", description: "d".repeat(2_000) }, label);
    expect(long).toBe(
      `- x: ${"d".repeat(1_535)}… (from packages/api/.claude/skills — applies when working on files under packages/api/)`,
    );
    expect(nestedEntry({ name: "y", description: "" }, label)).toBe(
      "- y (from packages/api/.claude/skills — applies when working on files under packages/api/)",
    );
  });

  it("is empty without skills", () => {
    expect(nestedAnnouncement(label, [])).toBe("");
  });
});
