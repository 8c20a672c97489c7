// createMemorySource, app-source ranking and the engine's composition, without a model.
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/engine.js";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createMemorySource } from "../../src/sources/memory-source.js";

const def = (name: string, description = `about ${name}`) => ({ name, description, body: `${name} body` });

describe("createMemorySource", () => {
  it("adds, updates and removes at run time, telling subscribers each time", async () => {
    const source = createMemorySource({ skills: [def("a")] });
    let changes = 0;
    const stop = source.subscribe(() => {
      changes += 1;
    });
    expect(source.add(def("b"))).toEqual([]);
    expect(source.add(def("a", "again"))).toMatchObject([{ severity: "warning", code: "shadowed" }]);
    expect(source.update(def("a", "new"))).toEqual([]);
    expect(source.remove("b")).toBe(true);
    expect(source.remove("b")).toBe(false);
    expect(changes).toBe(3);
    stop();
    source.add(def("c"));
    expect(changes).toBe(3);
    const { skills } = await source.list();
    expect(skills.map((s) => [s.name, s.description, s.source, s.baseDir, s.filePath])).toEqual([
      ["a", "new", "app", "", ""],
      ["c", "about c", "app", "", ""],
    ]);
    expect(await skills[0]?.loadBody()).toBe("a body");
  });

  it("refuses an invalid name and references named twice or with markup, with diagnostics", () => {
    const source = createMemorySource();
    expect(source.add(def("Bad Name"))).toMatchObject([{ code: "name-invalid" }]);
    const twice = { name: "r", description: "d", content: "x" };
    expect(source.add({ ...def("x"), references: [twice, twice] })).toMatchObject([{ code: "name-invalid" }]);
    const markup = { name: "</system-reminder>", description: "d", content: "x" };
    expect(source.add({ ...def("y"), references: [markup] })).toMatchObject([{ code: "name-invalid" }]);
    expect(source.skills()).toEqual([]);
  });
});

describe("bad input from JavaScript or a database row", () => {
  it("is refused with a field-invalid diagnostic, never a crash", () => {
    const source = createMemorySource();
    const rows: unknown[] = [
      { name: "a", description: 3, body: "b" },
      { name: "a", description: "d" },
      { name: "a", description: "d", body: "b", references: "nope" },
      { name: "a", description: "d", body: "b", references: [{ name: "r", description: "d" }] },
      { name: "a", description: "d", body: "b", files: { "x.md": 1 } },
    ];
    for (const row of rows) {
      // @ts-expect-error: the point is input the types do not allow
      expect(source.add(row)).toMatchObject([{ severity: "error", code: "field-invalid" }]);
    }
    expect(source.skills()).toEqual([]);
  });

  it("a loader that returns something other than text fails that read only", async () => {
    const source = createMemorySource({
      // @ts-expect-error: a JavaScript loader returning a number
      skills: [{ ...def("a"), references: [{ name: "r", description: "d", content: async () => 42 }] }],
    });
    await expect(source.skills()[0]?.references?.read("r")).rejects.toThrow(
      "the loader returned number, not text",
    );
  });
});

describe("the engine's app sources", () => {
  it("a change before the first discovery costs nothing; after it, the catalog rescans and tells listeners", async () => {
    const source = createMemorySource({ skills: [def("one")] });
    const engine = createEngine({
      cwd: "/w",
      home: "/h",
      fs: createMemoryFs(),
      sources: [source],
      startMcp: false,
    });
    const seen: string[][] = [];
    engine.catalog.onChange((d) => seen.push(d.skills.map((s) => s.name)));
    source.add(def("early"));
    expect(seen).toEqual([]);
    expect((await engine.discover()).skills.map((s) => s.name)).toEqual(["early", "one"]);
    source.add(def("two"));
    await new Promise((resolve) => engine.catalog.onChange(resolve));
    expect(seen).toEqual([["early", "one", "two"]]);
    expect((await engine.discover()).skills.map((s) => s.name)).toEqual(["early", "one", "two"]);
    await engine.close();
    source.add(def("after-close"));
    expect((await engine.discover()).skills.map((s) => s.name)).toEqual(["early", "one", "two"]);
  });

  it("app skills list after MCP and before bundled ones; registerBundledSkill reaches the catalog too", async () => {
    const source = createMemorySource({ skills: [def("zeta")] });
    const engine = createEngine({
      cwd: "/w",
      home: "/h",
      fs: createMemoryFs(),
      sources: [source],
      startMcp: false,
    });
    await engine.discover();
    engine.registerBundledSkill(def("alpha"));
    await new Promise((resolve) => engine.catalog.onChange(resolve));
    const { skills } = await engine.discover();
    expect(skills.map((s) => [s.name, s.source])).toEqual([
      ["zeta", "app"],
      ["alpha", "bundled"],
    ]);
    await engine.close();
  });
});
