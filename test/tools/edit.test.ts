import { chmod, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFileModes } from "../../src/io/atomic-write.js";
import { createNodeFs, type FsOps } from "../../src/io/fs.js";
import { createEditTool, type EditDetails } from "../../src/tools/edit.js";
import { ctxFor, makeTmp, removeTmp, textOf } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTmp();
});
afterEach(() => removeTmp(dir));

const edit = (input: unknown, fs: FsOps = createNodeFs()) =>
  createEditTool({ fs, modes: createNodeFileModes() }).run(input, ctxFor(dir));
const put = (name: string, text: string) => writeFile(path.join(dir, name), text);
const get = (name: string) => readFile(path.join(dir, name), "utf8");

describe("Edit", () => {
  it("replaces a unique exact match, with a diff in details and the touched path", async () => {
    await put("a.ts", "const a = 1;\nconst b = 2;\n");
    const result = await edit({ file_path: "a.ts", old_string: "b = 2", new_string: "b = 3" });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("Edited a.ts: replaced 1 occurrence.");
    expect(await get("a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    expect(result.touchedPaths).toEqual([path.join(dir, "a.ts")]);
    const details = result.details as EditDetails;
    expect(details.fuzzy).toBe(false);
    expect(details.diff).toBe(
      ["--- a/a.ts", "+++ b/a.ts", "@@ -1,2 +1,2 @@", " const a = 1;", "-const b = 2;", "+const b = 3;"].join(
        "\n",
      ),
    );
  });

  it("keeps CRLF line endings and the BOM", async () => {
    await put("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    const result = await edit({ file_path: "w.txt", old_string: "one\ntwo", new_string: "1\n2\n2.5" });
    expect(result.isError).toBe(false);
    expect(await get("w.txt")).toBe("\uFEFF1\r\n2\r\n2.5\r\nthree\r\n");
  });

  it("accepts CRLF in old_string for a CRLF file", async () => {
    await put("w.txt", "a\r\nb\r\n");
    await edit({ file_path: "w.txt", old_string: "a\r\nb", new_string: "c\r\nd" });
    expect(await get("w.txt")).toBe("c\r\nd\r\n");
  });

  it("falls back to a fuzzy match and changes only the matched text", async () => {
    await put("q.md", "Keep  \nHe said \u201Chello\u201D \u2014 twice.   \nEnd\u00A0 \n");
    // The pre-`file_path` key is still accepted.
    const result = await edit({
      path: "q.md",
      old_string: 'He said "hello" - twice.',
      new_string: "He left.",
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("matched after normalising");
    expect((result.details as EditDetails).fuzzy).toBe(true);
    expect(await get("q.md")).toBe("Keep  \nHe left.   \nEnd\u00A0 \n");
  });

  it("matches NFKC-equivalent text", async () => {
    await put("u.txt", "caf\u00E9 \uFB01le\n");
    await edit({ file_path: "u.txt", old_string: "cafe\u0301 file", new_string: "bar" });
    expect(await get("u.txt")).toBe("bar\n");
  });

  it("refuses a non-unique match, saying how many and what to do", async () => {
    await put("d.txt", "x = 1\nx = 1\nx = 1\n");
    const result = await edit({ file_path: "d.txt", old_string: "x = 1", new_string: "x = 2" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "old_string matches 3 places in d.txt. Add surrounding lines to old_string so it matches exactly one, " +
        "or set replace_all to true to replace every occurrence.",
    );
    expect(await get("d.txt")).toBe("x = 1\nx = 1\nx = 1\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    await put("d.txt", "x = 1\nx = 1\n");
    const result = await edit({ file_path: "d.txt", old_string: "1", new_string: "2", replace_all: true });
    expect(textOf(result)).toBe("Edited d.txt: replaced 2 occurrences.");
    expect(await get("d.txt")).toBe("x = 2\nx = 2\n");
  });

  it.each([
    [{ file_path: "f.txt", old_string: "nope", new_string: "x" }, /^old_string was not found in f\.txt\. /],
    [{ file_path: "f.txt", old_string: "", new_string: "x" }, /^old_string is empty/],
    [{ file_path: "f.txt", old_string: "same", new_string: "same" }, /identical/],
    [
      { file_path: "missing.txt", old_string: "a", new_string: "b" },
      /^File not found: missing\.txt\. Use Write/,
    ],
    [
      { file_path: "f.txt", old: "a", new_string: "b" },
      /^Invalid input for Edit: old_string: Invalid input: expected string, received undefined$/,
    ],
  ])("fails clearly for %j", async (input, message) => {
    await put("f.txt", "same text\n");
    const result = await edit(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(await get("f.txt")).toBe("same text\n");
  });

  it("writes atomically: a temp file beside the target, renamed over it, none left", async () => {
    await put("f.txt", "old\n");
    await chmod(path.join(dir, "f.txt"), 0o750);
    const real = createNodeFs();
    const calls: string[] = [];
    const spy: FsOps = {
      ...real,
      writeFile: async (p, data) => {
        calls.push(`write ${path.relative(dir, p)}`);
        await real.writeFile(p, data);
      },
      rename: async (from, to) => {
        calls.push(`rename ${path.relative(dir, from)} ${path.relative(dir, to)}`);
        await real.rename(from, to);
      },
    };
    await edit({ file_path: "f.txt", old_string: "old", new_string: "new" }, spy);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^write \.f\.txt\.[0-9a-f]{8}\.tmp$/);
    expect(calls[1]).toBe(`rename ${calls[0]?.slice(6)} f.txt`);
    expect(await readdir(dir)).toEqual(["f.txt"]);
    expect((await stat(path.join(dir, "f.txt"))).mode & 0o777).toBe(0o750);
  });

  it("removes the temp file when the rename fails", async () => {
    await put("f.txt", "old\n");
    const real = createNodeFs();
    const failing: FsOps = { ...real, rename: async () => Promise.reject(new Error("EXDEV: no")) };
    const result = await edit({ file_path: "f.txt", old_string: "old", new_string: "new" }, failing);
    expect(textOf(result)).toBe("Edit failed: EXDEV: no");
    expect(await readdir(dir)).toEqual(["f.txt"]);
    expect(await get("f.txt")).toBe("old\n");
  });

  it("edits through a symlink, keeping the link", async () => {
    await mkdir(path.join(dir, "real"));
    await put("real/t.txt", "a\n");
    await symlink(path.join(dir, "real/t.txt"), path.join(dir, "link.txt"));
    await edit({ file_path: "link.txt", old_string: "a", new_string: "b" });
    expect(await get("real/t.txt")).toBe("b\n");
    expect(await readlink(path.join(dir, "link.txt"))).toBe(path.join(dir, "real/t.txt"));
  });

  it("refuses binary files", async () => {
    await writeFile(path.join(dir, "b.bin"), Buffer.from([0x61, 0, 0x62]));
    expect(textOf(await edit({ file_path: "b.bin", old_string: "a", new_string: "c" }))).toBe(
      "Cannot edit b.bin: it is a binary file.",
    );
  });
});
