import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import {
  createReadTool,
  hasImageMagic,
  READ_DESCRIPTION,
  READ_MAX_LINE_CHARS,
} from "../../src/tools/read.js";
import { DEFAULT_MAX_BYTES } from "../../src/tools/truncate.js";
import { ctxFor, makeTmp, removeTmp, textOf } from "./helpers.js";

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTmp();
  home = await makeTmp("skillwright-home-");
});
afterEach(async () => {
  await removeTmp(dir);
  await removeTmp(home);
});

const tool = () => createReadTool({ fs: createNodeFs(), homeDir: home });
const read = (input: unknown) => tool().run(input, ctxFor(dir));
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("Read", () => {
  it("reads a text file relative to the cwd and reports the touched path", async () => {
    await writeFile(path.join(dir, "a.txt"), "one\ntwo\n");
    const result = await read({ file_path: "a.txt" });
    expect(result).toEqual({
      content: [{ type: "text", text: "1\tone\n2\ttwo" }],
      isError: false,
      touchedPaths: [path.join(dir, "a.txt")],
    });
  });

  it("expands ~ against the home dir and accepts absolute paths", async () => {
    await writeFile(path.join(home, "h.txt"), "home");
    expect(textOf(await read({ file_path: "~/h.txt" }))).toBe("1\thome");
    expect(textOf(await read({ file_path: path.join(home, "h.txt") }))).toBe("1\thome");
  });

  it("strips a BOM and CRs", async () => {
    await writeFile(path.join(dir, "w.txt"), "\uFEFFa\r\nb\r\n");
    expect(textOf(await read({ file_path: "w.txt" }))).toBe("1\ta\n2\tb");
  });

  it("applies a 1-based offset and a limit, with a continuation hint", async () => {
    await writeFile(path.join(dir, "n.txt"), lines(10));
    expect(textOf(await read({ file_path: "n.txt", offset: 3, limit: 2 }))).toBe(
      "3\tline 3\n4\tline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]",
    );
    expect(textOf(await read({ file_path: "n.txt", offset: 9 }))).toBe("9\tline 9\n10\tline 10");
  });

  it("stops at 2,000 lines and says where to continue", async () => {
    await writeFile(path.join(dir, "big.txt"), lines(2500));
    const text = textOf(await read({ file_path: "big.txt" }));
    expect(
      text.endsWith("2000\tline 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"),
    ).toBe(true);
    const next = textOf(await read({ file_path: "big.txt", offset: 2001 }));
    expect(next.startsWith("2001\tline 2001\n")).toBe(true);
    expect(next.endsWith("2500\tline 2500")).toBe(true);
  });

  it("stops at 50 KB and says where to continue", async () => {
    await writeFile(
      path.join(dir, "wide.txt"),
      Array.from({ length: 1000 }, () => "x".repeat(199)).join("\n"),
    );
    const text = textOf(await read({ file_path: "wide.txt" }));
    // Numbered lines: "N\t" + 199 chars + "\n"; lines 1-9 are one byte shorter than lines 10-99, and so on.
    let kept = 0;
    for (let bytes = 0; bytes + `${kept + 1}\t`.length + 199 <= DEFAULT_MAX_BYTES; kept++) {
      bytes += `${kept + 1}\t`.length + 200;
    }
    expect(text.endsWith(`\n\n[Showing lines 1-${kept} of 1000. Use offset=${kept + 1} to continue.]`)).toBe(
      true,
    );
  });

  it("cuts long lines", async () => {
    await writeFile(path.join(dir, "long.txt"), "y".repeat(READ_MAX_LINE_CHARS + 10));
    expect(textOf(await read({ file_path: "long.txt" }))).toBe(
      `1\t${"y".repeat(READ_MAX_LINE_CHARS)}… [line truncated, ${READ_MAX_LINE_CHARS + 10} chars]`,
    );
  });

  it("returns images as base64 image blocks", async () => {
    await writeFile(path.join(dir, "pic.PNG"), PNG);
    const result = await read({ file_path: "pic.PNG" });
    expect(result.isError).toBe(false);
    expect(result.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") },
    });
    expect(textOf(result)).toBe("Read image pic.PNG [image/png, 16 B]");
    expect(result.touchedPaths).toEqual([path.join(dir, "pic.PNG")]);
  });

  it("refuses binary files, including an image extension without the magic", async () => {
    await writeFile(path.join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    await writeFile(path.join(dir, "fake.png"), Buffer.from([1, 0, 2]));
    for (const name of ["blob.bin", "fake.png"]) {
      const result = await read({ file_path: name });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(`^Cannot read ${name.replace(".", "\\.")}: it is a binary file`),
      );
    }
  });

  it("reads a text file named like an image as text", async () => {
    await writeFile(path.join(dir, "notes.gif"), "just text");
    expect(textOf(await read({ file_path: "notes.gif" }))).toBe("1\tjust text");
  });

  it.each([
    [{ file_path: "missing.txt" }, "File not found: missing.txt"],
    [{ file_path: "sub" }, "sub is a directory, not a file. Use LS to list it."],
    [{ file_path: "n.txt", offset: 5 }, "offset 5 is past the end of n.txt, which has 3 lines."],
    [
      { file_path: "n.txt", offset: 0 },
      "Invalid input for Read: offset: Too small: expected number to be >=1",
    ],
  ])("fails clearly for %j", async (input, message) => {
    await mkdir(path.join(dir, "sub"));
    await writeFile(path.join(dir, "n.txt"), lines(3));
    const result = await read(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it("ignores keys it does not know, as Claude Code does", async () => {
    await writeFile(path.join(dir, "a.txt"), "x\n");
    expect(await read({ file_path: "a.txt", pages: "1-2", extra: { any: 1 } })).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "1\tx" }],
    });
  });

  it("still accepts the old path key when file_path is absent, and prefers file_path", async () => {
    await writeFile(path.join(dir, "a.txt"), "aa\n");
    await writeFile(path.join(dir, "b.txt"), "bb\n");
    expect(textOf(await read({ path: "a.txt" }))).toBe("1\taa");
    expect(textOf(await read({ file_path: "b.txt", path: "a.txt" }))).toBe("1\tbb");
  });

  it("asks for file_path by name when it is missing", async () => {
    expect(textOf(await read({ offset: 1 }))).toBe(
      "Invalid input for Read: file_path: Invalid input: expected string, received undefined",
    );
  });

  it("says when a file is empty", async () => {
    await writeFile(path.join(dir, "e.txt"), "");
    expect(textOf(await read({ file_path: "e.txt" }))).toBe("(e.txt is empty)");
  });

  it("is read-only, named Read, and quotes its limits", () => {
    const t = tool();
    expect(t.name).toBe("Read");
    expect(t.readOnly).toBe(true);
    expect(t.subject({ file_path: "./src/a.ts" })).toBe("./src/a.ts");
    expect(t.subject({ path: "./src/b.ts" })).toBe("./src/b.ts");
    expect(READ_DESCRIPTION).toContain("2000 lines or 50 KB");
  });
});

describe("hasImageMagic", () => {
  it.each([
    ["image/png", PNG, true],
    ["image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0]), true],
    ["image/gif", Buffer.from("GIF89a...."), true],
    ["image/webp", Buffer.from("RIFF\0\0\0\0WEBPVP8 "), true],
    ["image/png", Buffer.from("not a png"), false],
    ["image/webp", Buffer.from("RIFF\0\0\0\0WAVE"), false],
  ] as const)("%s %#", (type, bytes, expected) => {
    expect(hasImageMagic(bytes, type)).toBe(expected);
  });
});
