// createMemoryFs: the FsOps contract without a disk, enough for discovery and the file tools.
import { describe, expect, it } from "vitest";
import { createNodeFileModes } from "../../src/io/atomic-write.js";
import { errorCode } from "../../src/io/fs.js";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createBuiltinTools } from "../../src/tools/builtin.js";
import { discoverSkills } from "../support/discover.js";

describe("createMemoryFs", () => {
  it("reads, writes, lists, renames and removes, with Node's error codes", async () => {
    const fs = createMemoryFs({ "/a/b.txt": "hello" });
    expect(await fs.readFile("/a/b.txt")).toBe("hello");
    expect(await fs.readdir("/a")).toEqual([{ name: "b.txt", kind: "file" }]);
    expect((await fs.stat("/a")).kind).toBe("dir");
    expect(await fs.readHead("/a/b.txt", 2)).toMatchObject({ text: "he", size: 5, complete: false });
    await fs.mkdir("/x/y");
    await fs.writeFile("/x/y/z.md", "z");
    await fs.rename("/x/y/z.md", "/a/z.md");
    expect((await fs.readdir("/a")).map((e) => e.name).sort()).toEqual(["b.txt", "z.md"]);
    await fs.rm("/a");
    expect(errorCode(await fs.readFile("/a/b.txt").catch((e: unknown) => e))).toBe("ENOENT");
    expect(errorCode(await fs.readdir("/x/y/nope").catch((e: unknown) => e))).toBe("ENOENT");
    expect(errorCode(await fs.readFile("/x").catch((e: unknown) => e))).toBe("EISDIR");
    await fs.rm("/never/was");
  });

  it("holds skills discovery finds, and the Read tool reads it", async () => {
    const fs = createMemoryFs({
      "/skills/greet/SKILL.md": "---\ndescription: Greets\n---\nHi",
      "/w/f.txt": "text",
    });
    const found = await discoverSkills({
      fs,
      roots: [{ dir: "/skills", source: "project", layout: "skills", label: "memory" }],
    });
    expect(found.skills.map((s) => [s.name, s.description])).toEqual([["greet", "Greets"]]);
    expect(await found.skills[0]?.loadBody()).toBe("Hi");
    const read = createBuiltinTools({
      fs,
      shell: createNodeShell(),
      modes: createNodeFileModes(),
      homeDir: "/home",
    }).find((t) => t.name === "Read");
    const result = await read?.run(
      { file_path: "/w/f.txt" },
      { cwd: "/w", signal: new AbortController().signal, toolUseId: "t1" },
    );
    expect(JSON.stringify(result?.content)).toContain("text");
  });
});
