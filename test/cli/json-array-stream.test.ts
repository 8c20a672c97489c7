import { describe, expect, it } from "vitest";
import { writeJsonArray } from "../../src/cli/json-array-stream.js";
import { runCli } from "../../src/cli/run.js";
import { skillToJson } from "../../src/cli/skill-json.js";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs } from "../../src/io/fs.js";
import { tmpTree } from "../support/tmp-tree.js";

/** Strings JSON.stringify escapes or passes through in ways a hand-made writer could get wrong. */
const ODD = [
  'quote " backslash \\ slash /',
  "tab\tnewline\ncarriage\rform\fbackspace\b",
  "control \u0000\u0001\u001f del \u007f",
  "line sep \u2028 para sep \u2029",
  "lone surrogates \ud800 \udfff, a pair 😀, accents é ü, CJK 漢字",
  "",
];

const items = ODD.map((text, i) => ({
  name: text,
  n: i,
  big: 1e21,
  neg: -0,
  nested: { empty: {}, list: [], deep: [{ a: [1, [2, [3]]] }], [text]: text, "2": "integer-like key" },
  skipped: undefined,
  fn: () => 1,
}));

async function collect(data: readonly unknown[], toJson: (x: unknown) => unknown, chunkChars?: number) {
  const chunks: string[] = [];
  await writeJsonArray(data, toJson, (chunk) => void chunks.push(chunk), chunkChars);
  return chunks;
}

describe("writeJsonArray", () => {
  it("writes exactly JSON.stringify(items.map(toJson), null, 2), whatever the chunk size", async () => {
    const toJson = (x: unknown) => x;
    const expected = JSON.stringify(items, null, 2);
    for (const size of [1, 7, 100, 65_536])
      expect((await collect(items, toJson, size)).join("")).toBe(expected);
    expect((await collect([], toJson)).join("")).toBe("[]");
    function* generated() {
      yield* items;
      yield "tail";
    }
    const chunks: string[] = [];
    await writeJsonArray(generated(), toJson, (chunk) => void chunks.push(chunk), 9);
    expect(chunks.join("")).toBe(JSON.stringify([...items, "tail"], null, 2));
    const odd = [undefined, null, () => 1, 0, "x", [], {}];
    expect((await collect(odd, toJson, 3)).join("")).toBe(JSON.stringify(odd, null, 2));
    expect((await collect(items, (x) => ({ wrapped: x }), 50)).join("")).toBe(
      JSON.stringify(
        items.map((x) => ({ wrapped: x })),
        null,
        2,
      ),
    );
  });

  it("hands over bounded chunks and waits for each write before serialising more", async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ i, text: ODD[i % ODD.length] }));
    const chunks: string[] = [];
    let pending = false;
    await writeJsonArray(
      many,
      (x) => {
        expect(pending).toBe(false);
        return x;
      },
      async (chunk) => {
        chunks.push(chunk);
        pending = true;
        await new Promise((resolve) => setTimeout(resolve, 0));
        pending = false;
      },
      4_096,
    );
    expect(chunks.length).toBeGreaterThan(10);
    const longestItem = Math.max(...many.map((x) => JSON.stringify(x, null, 2).length)) + 16;
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(4_096 + longestItem);
    expect(chunks.join("")).toBe(JSON.stringify(many, null, 2));
  });
});

describe("list --json streams", () => {
  it("writes in chunks through writeStdout, the same text as JSON.stringify of the skills", async () => {
    const files: Record<string, string> = { "proj/.git/HEAD": "" };
    for (let i = 0; i < 400; i += 1) {
      const description = JSON.stringify(`${ODD[i % ODD.length]?.replaceAll("\u0000", "")} #${i}`);
      files[`proj/.claude/skills/odd-${i}/SKILL.md`] =
        `---\ndescription: ${description}\nmetadata:\n  tag: "é \\u2028 \\\\"\n---\nBody ${i}\n`;
    }
    const tree = await tmpTree(files);
    try {
      const chunks: string[] = [];
      const stdout: string[] = [];
      const io = {
        stdout: (text: string) => void stdout.push(text),
        writeStdout: async (text: string) => void chunks.push(text),
        stderr: () => undefined,
        env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
        cwd: tree.path("proj"),
        home: tree.path("home"),
        bundledDir: tree.path("bundled"),
      };
      expect(await runCli(["list", "--json"], io)).toBe(0);
      expect(stdout).toEqual([]);
      expect(chunks.length).toBeGreaterThan(2);
      const engine = createEngine({
        fs: createNodeFs(),
        cwd: io.cwd,
        home: io.home,
        env: io.env,
        bundledDir: io.bundledDir,
      });
      const { skills } = await engine.discover();
      await engine.close();
      expect(skills.filter((s) => s.name.startsWith("odd-"))).toHaveLength(400);
      expect(chunks.join("")).toBe(`${JSON.stringify(skills.map(skillToJson), null, 2)}\n`);
    } finally {
      await tree.cleanup();
    }
  });
});
