import { describe, expect, it } from "vitest";
import { mentionedPaths } from "../../src/activation/mentions.js";

describe("mentionedPaths", () => {
  const table: [prompt: string, expected: string[]][] = [
    ["look at @src/a.ts please", ["/repo/src/a.ts"]],
    ["@src/a.ts", ["/repo/src/a.ts"]],
    ['open @"docs/my notes.md" and @b.md', ["/repo/docs/my notes.md", "/repo/b.md"]],
    ["see @src/a.ts.", ["/repo/src/a.ts"]],
    ["(see @src/a.ts), then", ["/repo/src/a.ts"]],
    ["@src/a.ts#L10-20 and @b.ts#L3", ["/repo/src/a.ts", "/repo/b.ts"]],
    ["@/etc/hosts", ["/etc/hosts"]],
    ["@../up.ts", ["/up.ts"]],
    ["mail me at me@example.com", []],
    ["@github:repos/x", []],
    ["@ alone and @", []],
    ["@a.ts @a.ts @./a.ts", ["/repo/a.ts"]],
    ["@~/notes.md", []],
    ["line1\n@next/line.ts", ["/repo/next/line.ts"]],
  ];
  it.each(table)("%j", (prompt, expected) => {
    expect(mentionedPaths(prompt, "/repo")).toEqual(expected);
  });

  it("expands ~/ when the home dir is given", () => {
    expect(mentionedPaths("@~/notes.md", "/repo", { home: "/home/u" })).toEqual(["/home/u/notes.md"]);
  });
});
