import { mkdir, realpath, symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createLsTool, LS_DESCRIPTION } from "../../src/tools/ls.js";
import { ctxFor, makeTmp, removeTmp, textOf, writeTree } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
});
afterEach(() => removeTmp(dir));

const ls = (input: unknown) => createLsTool({ fs: createNodeFs(), homeDir: dir }).run(input, ctxFor(dir));

describe("LS", () => {
  it("lists sorted entries, dirs (and links to dirs) with a trailing slash, dotfiles included", async () => {
    await writeTree(dir, { "b.txt": "", ".env": "", "A/x": "", "c/y": "" });
    await symlink(path.join(dir, "c"), path.join(dir, "link"));
    const result = await ls({});
    expect(textOf(result)).toBe([".env", "A/", "b.txt", "c/", "link/"].join("\n"));
    expect(result.touchedPaths).toEqual([".env", "A", "b.txt", "c", "link"].map((n) => path.join(dir, n)));
  });

  it("lists a relative or ~ path", async () => {
    await writeTree(dir, { "sub/one": "" });
    expect(textOf(await ls({ path: "sub" }))).toBe("one");
    expect(textOf(await ls({ path: "~/sub" }))).toBe("one");
  });

  it("stops at the limit with a note", async () => {
    await writeTree(dir, { a: "", b: "", c: "" });
    const limited = createLsTool({ fs: createNodeFs(), limit: 2 });
    expect(textOf(await limited.run({ limit: 100 }, ctxFor(dir)))).toBe(
      "a\nb\n\n[Showing 2 of 3 entries. Use Glob to narrow the listing.]",
    );
  });

  it("leaves out entries matching ignore globs (Claude Code's ignore)", async () => {
    await writeTree(dir, { "a.log": "", "b.txt": "", "dist/x": "", ".env": "" });
    expect(textOf(await ls({ ignore: ["*.log", "dist"] }))).toBe(".env\nb.txt");
    expect(textOf(await ls({ ignore: ["*"] }))).toBe(`(. is empty)`);
  });

  it("says when a directory is empty", async () => {
    await mkdir(path.join(dir, "e"));
    expect(textOf(await ls({ path: "e" }))).toBe("(e is empty)");
  });

  it.each([
    [{ path: "nope" }, "Path not found: nope"],
    [{ path: "f" }, "f is not a directory. Use Read for files."],
  ])("fails clearly for %j", async (input, message) => {
    await writeTree(dir, { f: "" });
    const result = await ls(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it("is read-only, named LS, and quotes its limit", () => {
    const tool = createLsTool({ fs: createNodeFs() });
    expect(tool.name).toBe("LS");
    expect(tool.readOnly).toBe(true);
    expect(LS_DESCRIPTION).toContain("At most 500 entries");
  });
});
