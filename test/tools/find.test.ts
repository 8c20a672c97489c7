import { realpath } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createFindTool, FIND_DEFAULT_LIMIT, FIND_DESCRIPTION } from "../../src/tools/find.js";
import { ctxFor, makeTmp, removeTmp, textOf, writeTree } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
  await writeTree(dir, {
    ".gitignore": "dist/\n*.gen.ts\n",
    "z.ts": "",
    "a-b.ts": "",
    "a/b.ts": "",
    "a/c.gen.ts": "",
    "src/x.test.ts": "",
    "src/deep/y.ts": "",
    "dist/out.ts": "",
    "node_modules/m/i.ts": "",
    "README.md": "",
  });
});
afterEach(() => removeTmp(dir));

const find = (input: unknown, cwd = dir) => createFindTool({ fs: createNodeFs() }).run(input, ctxFor(cwd));

describe("Glob", () => {
  it("matches names at any depth, honours .gitignore, returns sorted relative paths", async () => {
    const result = await find({ pattern: "*.ts" });
    expect(textOf(result)).toBe(["a-b.ts", "a/b.ts", "src/deep/y.ts", "src/x.test.ts", "z.ts"].join("\n"));
    expect(result.touchedPaths).toEqual(
      ["a-b.ts", "a/b.ts", "src/deep/y.ts", "src/x.test.ts", "z.ts"].map((p) => path.join(dir, p)),
    );
  });

  it.each([
    [{ pattern: "src/**/*.ts" }, "src/deep/y.ts\nsrc/x.test.ts"],
    [{ pattern: "*.ts", path: "src" }, "src/deep/y.ts\nsrc/x.test.ts"],
    [{ pattern: "*.{md,json}" }, "README.md"],
    [{ pattern: ".gitignore" }, ".gitignore"],
    [{ pattern: "*.py" }, "No files match *.py (searched .)."],
  ])("%j", async (input, expected) => {
    expect(textOf(await find(input))).toBe(expected);
  });

  it("lists paths relative to the cwd when searching below it", async () => {
    expect(textOf(await find({ pattern: "*.ts", path: "." }, path.join(dir, "src")))).toBe(
      "deep/y.ts\nx.test.ts",
    );
  });

  it("stops at the limit with a note", async () => {
    const limited = createFindTool({ fs: createNodeFs(), limit: 2 });
    // A `limit` key from the model is not Claude Code's: it is ignored.
    expect(textOf(await limited.run({ pattern: "*.ts", limit: 100 }, ctxFor(dir)))).toBe(
      "a-b.ts\na/b.ts\n\n[Showing 2 of 5 files. Refine pattern or path.]",
    );
  });

  it.each([
    [{ pattern: "*", path: "nope" }, "Path not found: nope"],
    [{ pattern: "*", path: "z.ts" }, "z.ts is not a directory."],
    [{}, "Invalid input for Glob: pattern: Invalid input: expected string, received undefined"],
  ])("fails clearly for %j", async (input, message) => {
    const result = await find(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it("is read-only, named Glob, and quotes its limit", () => {
    const tool = createFindTool({ fs: createNodeFs() });
    expect(tool.name).toBe("Glob");
    expect(tool.readOnly).toBe(true);
    expect(FIND_DESCRIPTION).toContain(`At most ${FIND_DEFAULT_LIMIT} paths`);
  });
});
