import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hashFolder, hashFolderFiles } from "../../src/install/folder-hash.js";
import { parseLock, serializeLock } from "../../src/install/skills-lock.js";
import { createNodeFs } from "../../src/io/fs.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/skills-cli-lock", import.meta.url));
/** The `computedHash` the real `skills` installer wrote for `one` (test/fixtures/skills-cli-lock). */
const SKILLS_CLI_HASH = "db5cae9539dfd07bed41501bec982a923abf9223def05e559d2cd434a8929d6a";

describe("computedHash", () => {
  it("is the hash the skills installer wrote, over the source and over its installed copy", async () => {
    const fs = createNodeFs();
    expect((await hashFolder(fs, `${FIXTURE}/upstream/skills/one`)).computedHash).toBe(SKILLS_CLI_HASH);
    expect((await hashFolder(fs, `${FIXTURE}/project/.claude/skills/one`)).computedHash).toBe(
      SKILLS_CLI_HASH,
    );
  });

  it("depends on paths and contents, not on the order files are read in", () => {
    const a = { path: "a.md", bytes: new TextEncoder().encode("A") };
    const b = { path: "b/c.md", bytes: new TextEncoder().encode("B") };
    expect(hashFolderFiles([a, b]).computedHash).toBe(hashFolderFiles([b, a]).computedHash);
    expect(hashFolderFiles([a]).computedHash).not.toBe(
      hashFolderFiles([{ ...a, path: "x.md" }]).computedHash,
    );
    expect(Object.keys(hashFolderFiles([a, b]).files)).toEqual(["a.md", "b/c.md"]);
  });
});

describe("skills-lock.json", () => {
  it("reads the skills installer's lock and writes it back byte for byte", async () => {
    const text = await createNodeFs().readFile(`${FIXTURE}/project/skills-lock.json`);
    const parsed = parseLock(text);
    if (!("lock" in parsed)) throw new Error(parsed.error);
    expect(serializeLock(parsed.lock)).toBe(text);
  });

  it("an unreadable lock is an error, never an empty lock", () => {
    expect(parseLock("{")).toMatchObject({ error: expect.stringContaining("not JSON") });
    expect(parseLock('{"version":1,"skills":{"x":{}}}')).toMatchObject({ error: expect.any(String) });
    expect(parseLock(undefined)).toEqual({ lock: { version: 1, skills: {} } });
  });
});
