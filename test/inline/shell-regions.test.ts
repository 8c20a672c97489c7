import { describe, expect, it } from "vitest";
import { type BodyRegion, hasInlineShell, splitShellRegions } from "../../src/inline/shell-regions.js";

const text = (t: string): BodyRegion => ({ kind: "text", text: t });
const inline = (command: string): BodyRegion => ({
  kind: "shell",
  form: "inline",
  marker: `!\`${command}\``,
  command,
});
const block = (marker: string, command: string): BodyRegion => ({
  kind: "shell",
  form: "block",
  marker,
  command,
});

describe("splitShellRegions", () => {
  it.each<[string, string, BodyRegion[]]>([
    ["no markers", "plain `code` text", [text("plain `code` text")]],
    ["empty body", "", []],
    ["inline at start", "!`date` now", [inline("date"), text(" now")]],
    ["inline after a space", "Today: !`date`.", [text("Today: "), inline("date"), text(".")]],
    ["inline at line start", "a\n!`ls -a`\nb", [text("a\n"), inline("ls -a"), text("\nb")]],
    ["inline after a tab", "x\t!`pwd`", [text("x\t"), inline("pwd")]],
    ["not after a word char", "wow!`date`", [text("wow!`date`")]],
    ["not inside a code span", "`!`date``", [text("`!`date``")]],
    ["not across lines", "!`a\nb`", [text("!`a\nb`")]],
    ["blank inline command stays text", "!`  ` x", [text("!`  ` x")]],
    ["two inline in order", "!`a` !`b`", [inline("a"), text(" "), inline("b")]],
    [
      "fenced block",
      "Before\n```!\necho 1\necho 2\n```\nAfter",
      [text("Before\n"), block("```!\necho 1\necho 2\n```", "echo 1\necho 2"), text("\nAfter")],
    ],
    ["fenced block with CRLF", "```!\r\nls\r\n```\r\n", [block("```!\r\nls\r\n```", "ls"), text("\r\n")]],
    [
      "fenced block text on the opener line",
      "```! ls -l\npwd\n```",
      [block("```! ls -l\npwd\n```", "ls -l\npwd")],
    ],
    [
      "indented fenced block keeps its indentation as text",
      "  ```!\n  ls\n  ```",
      [text("  "), block("```!\n  ls\n  ```", "  ls")],
    ],
    [
      "inline markers inside a block belong to it",
      "```!\necho !`x`\n```",
      [block("```!\necho !`x`\n```", "echo !`x`")],
    ],
    ["unclosed block stays text", "```!\nls\n", [text("```!\nls\n")]],
    ["empty block stays text", "```!\n\n```", [text("```!\n\n```")]],
    ["plain fence is not shell", "```bash\nls\n```", [text("```bash\nls\n```")]],
    ["closer must be a bare fence line", "```!\nls\n```x\n```", [block("```!\nls\n```x\n```", "ls\n```x")]],
    ["block then inline", "```!\na\n```\n!`b`", [block("```!\na\n```", "a"), text("\n"), inline("b")]],
  ])("%s", (_name, body, expected) => {
    expect(splitShellRegions(body)).toEqual(expected);
  });

  it("joins back into the body", () => {
    const body = "x !`a` y\n```!\nb\n```\nz !`c`";
    const joined = splitShellRegions(body)
      .map((r) => (r.kind === "text" ? r.text : r.marker))
      .join("");
    expect(joined).toBe(body);
  });
});

describe("hasInlineShell", () => {
  it.each<[string, boolean]>([
    ["nothing here", false],
    ["Run !`git status`", true],
    ["```!\nls\n```", true],
    ["a!`b`", false],
    ["```!\nls", false],
  ])("%j → %s", (body, expected) => {
    expect(hasInlineShell(body)).toBe(expected);
  });
});
