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
    const result = await read({ path: "a.txt" });
    expect(result).toEqual({
      content: [{ type: "text", text: "one\ntwo" }],
      isError: false,
      touchedPaths: [path.join(dir, "a.txt")],
    });
  });

  it("expands ~ against the home dir and accepts absolute paths", async () => {
    await writeFile(path.join(home, "h.txt"), "home");
    expect(textOf(await read({ path: "~/h.txt" }))).toBe("home");
    expect(textOf(await read({ path: path.join(home, "h.txt") }))).toBe("home");
  });

  it("strips a BOM and CRs", async () => {
    await writeFile(path.join(dir, "w.txt"), "\uFEFFa\r\nb\r\n");
    expect(textOf(await read({ path: "w.txt" }))).toBe("a\nb");
  });

  it("applies a 1-based offset and a limit, with a continuation hint", async () => {
    await writeFile(path.join(dir, "n.txt"), lines(10));
    expect(textOf(await read({ path: "n.txt", offset: 3, limit: 2 }))).toBe(
      "line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]",
    );
    expect(textOf(await read({ path: "n.txt", offset: 9 }))).toBe("line 9\nline 10");
  });

  it("stops at 2,000 lines and says where to continue", async () => {
    await writeFile(path.join(dir, "big.txt"), lines(2500));
    const text = textOf(await read({ path: "big.txt" }));
    expect(text.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(
      true,
    );
    const next = textOf(await read({ path: "big.txt", offset: 2001 }));
    expect(next.startsWith("line 2001\n")).toBe(true);
    expect(next.endsWith("line 2500")).toBe(true);
  });

  it("stops at 50 KB and says where to continue", async () => {
    await writeFile(
      path.join(dir, "wide.txt"),
      Array.from({ length: 1000 }, () => "x".repeat(199)).join("\n"),
    );
    const text = textOf(await read({ path: "wide.txt" }));
    const kept = Math.floor((DEFAULT_MAX_BYTES + 1) / 200);
    expect(text.endsWith(`\n\n[Showing lines 1-${kept} of 1000. Use offset=${kept + 1} to continue.]`)).toBe(
      true,
    );
  });

  it("cuts long lines", async () => {
    await writeFile(path.join(dir, "long.txt"), "y".repeat(READ_MAX_LINE_CHARS + 10));
    expect(textOf(await read({ path: "long.txt" }))).toBe(
      `${"y".repeat(READ_MAX_LINE_CHARS)}… [line truncated, ${READ_MAX_LINE_CHARS + 10} chars]`,
    );
  });

  it("returns images as base64 image blocks", async () => {
    await writeFile(path.join(dir, "pic.PNG"), PNG);
    const result = await read({ path: "pic.PNG" });
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
      const result = await read({ path: name });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(`^Cannot read ${name.replace(".", "\\.")}: it is a binary file`),
      );
    }
  });

  it("reads a text file named like an image as text", async () => {
    await writeFile(path.join(dir, "notes.gif"), "just text");
    expect(textOf(await read({ path: "notes.gif" }))).toBe("just text");
  });

  it.each([
    [{ path: "missing.txt" }, "File not found: missing.txt"],
    [{ path: "sub" }, "sub is a directory, not a file. Use LS to list it."],
    [{ path: "n.txt", offset: 5 }, "offset 5 is past the end of n.txt, which has 3 lines."],
    [{ path: "n.txt", offset: 0 }, "Invalid input for Read: offset: Too small: expected number to be >=1"],
  ])("fails clearly for %j", async (input, message) => {
    await mkdir(path.join(dir, "sub"));
    await writeFile(path.join(dir, "n.txt"), lines(3));
    const result = await read(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it("says when a file is empty", async () => {
    await writeFile(path.join(dir, "e.txt"), "");
    expect(textOf(await read({ path: "e.txt" }))).toBe("(e.txt is empty)");
  });

  it("is read-only, named Read, and quotes its limits", () => {
    const t = tool();
    expect(t.name).toBe("Read");
    expect(t.readOnly).toBe(true);
    expect(t.subject({ path: "./src/a.ts" })).toBe("./src/a.ts");
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
