import { chmod, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFileModes } from "../../src/io/atomic-write.js";
import { createNodeFs } from "../../src/io/fs.js";
import { createWriteTool } from "../../src/tools/write.js";
import { ctxFor, makeTmp, removeTmp, textOf } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTmp();
});
afterEach(() => removeTmp(dir));

const write = (input: unknown, modes = true) =>
  createWriteTool({ fs: createNodeFs(), modes: modes ? createNodeFileModes() : undefined }).run(
    input,
    ctxFor(dir),
  );

describe("Write", () => {
  it("creates parent dirs, reports bytes written and the touched path", async () => {
    const result = await write({ file_path: "a/b/c.txt", content: "héllo" });
    const abs = path.join(dir, "a/b/c.txt");
    expect(textOf(result)).toBe("Created a/b/c.txt (6 bytes).");
    expect(result.touchedPaths).toEqual([abs]);
    expect(result.details).toEqual({ path: abs, bytes: 6, created: true });
    expect(await readFile(abs, "utf8")).toBe("héllo");
  });

  it("replaces an existing file, keeping its mode, and leaves no temp file", async () => {
    const abs = path.join(dir, "run.sh");
    await writeFile(abs, "old");
    await chmod(abs, 0o755);
    const result = await write({ file_path: "run.sh", content: "new" });
    expect(textOf(result)).toBe("Wrote run.sh (3 bytes).");
    expect(await readFile(abs, "utf8")).toBe("new");
    expect((await stat(abs)).mode & 0o777).toBe(0o755);
    expect(await readdir(dir)).toEqual(["run.sh"]);
  });

  it("refuses a directory", async () => {
    await mkdir(path.join(dir, "d"));
    const result = await write({ file_path: "d", content: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("d is a directory; give a file path.");
  });

  it("rejects input without content", async () => {
    expect(textOf(await write({ file_path: "x" }))).toBe(
      "Invalid input for Write: content: Invalid input: expected string, received undefined",
    );
  });

  it("is not read-only", () => {
    expect(createWriteTool({ fs: createNodeFs() }).readOnly).toBe(false);
  });
});
