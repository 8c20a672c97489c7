import { describe, expect, it } from "vitest";
import { firstInvalidUtf8, isTextFile, textFileProblem } from "../../src/serve/upload/text-files.js";

// Which uploaded files are text (and so must be valid UTF-8): by extension, else by their first bytes.

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("isTextFile", () => {
  it.each([
    ["SKILL.md", utf8("x"), true],
    ["x/references/notes.MD", utf8("x"), true],
    ["scripts/run.py", bytes(0, 1, 2), true],
    ["README", bytes(0xff), true],
    ["x/.env", utf8("A=1"), true],
    ["assets/logo.png", bytes(0x89, 0x50, 0x4e, 0x47, 0xff), false],
    ["assets/font.woff2", bytes(0xff, 0xfe), false],
    ["data/blob.bin", bytes(0xc3), false],
    ["data/table.xyz", bytes(0xff, 0x00, 0xfe), false],
    ["data/notes.xyz", bytes(0x61, 0xe9, 0x62), true],
  ])("%s → %s", (path, content, text) => {
    expect(isTextFile(path, content)).toBe(text);
  });
});

describe("firstInvalidUtf8", () => {
  it.each([
    ["ASCII", utf8("plain"), undefined],
    ["multi-byte characters", utf8("héllo → 世界 😀"), undefined],
    ["Latin-1 é", bytes(0x61, 0xe9, 0x62), 1],
    ["a lone continuation byte", bytes(0x61, 0x80), 1],
    ["an overlong slash", bytes(0xc0, 0xaf), 0],
    ["an overlong 3-byte form", bytes(0xe0, 0x80, 0xaf), 0],
    ["a surrogate", bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ["past U+10FFFF", bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ["a truncated sequence at the end", bytes(0x61, 0x62, 0xe2, 0x82), 2],
    ["a UTF-16 byte order mark", bytes(0xff, 0xfe, 0x61, 0x00), 0],
  ])("%s", (_label, content, offset) => {
    expect(firstInvalidUtf8(content)).toBe(offset);
  });
});

describe("textFileProblem", () => {
  it("names a text file that is not UTF-8 and where it goes wrong; binary files pass", () => {
    expect(textFileProblem("x/notes.md", bytes(0x61, 0xe9))).toMatch(
      /file "x\/notes\.md" is text but not valid UTF-8 \(first bad byte at offset 1\)/,
    );
    expect(textFileProblem("x/notes.md", utf8("é"))).toBeUndefined();
    expect(textFileProblem("x/logo.png", bytes(0xff, 0xd8, 0xff))).toBeUndefined();
  });
});
