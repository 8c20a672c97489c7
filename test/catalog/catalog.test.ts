// createCatalog: memoised listing, reloads, change events from sources, failing sources, the filter.
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/catalog.js";
import type { Skill } from "../../src/skill/skill.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import type { SkillSource, SourceListing } from "../../src/sources/skill-source.js";
import { makeSkill } from "../support/make-skill.js";

const def = (name: string) => ({ name, description: `about ${name}`, body: `${name} body` });
const names = (skills: readonly Skill[]) => skills.map((s) => s.name);

/** A source whose every `list()` waits until the test answers it (`answer(i, listing)`), counting calls. */
function scriptedSource() {
  const pending: Array<(listing: SourceListing) => void> = [];
  const listeners = new Set<() => void>();
  const source: SkillSource = {
    id: "scripted",
    list: () => new Promise<SourceListing>((resolve) => pending.push(resolve)),
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
  return {
    source,
    calls: () => pending.length,
    answer: (index: number, skills: Skill[]) => pending[index]?.({ skills, diagnostics: [] }),
    change: () => {
      for (const listener of listeners) listener();
    },
    listeners: () => listeners.size,
  };
}

describe("createCatalog", () => {
  it("get() lists every source once; reload() lists again and tells each listener", async () => {
    const scripted = scriptedSource();
    const catalog = createCatalog({ sources: [scripted.source] });
    const a = catalog.get();
    const b = catalog.get();
    expect(scripted.calls()).toBe(1);
    scripted.answer(0, [makeSkill({ name: "one" })]);
    expect(await a).toBe(await b);
    const seen: string[][] = [];
    catalog.onChange((d) => seen.push(names(d.skills)));
    const reloaded = catalog.reload();
    scripted.answer(1, [makeSkill({ name: "one" }), makeSkill({ name: "two" })]);
    expect(names((await reloaded).skills)).toEqual(["one", "two"]);
    expect(seen).toEqual([["one", "two"]]);
    expect(await catalog.get()).toBe(await reloaded);
  });

  it("when two reloads overlap, only the newer reaches the listeners, even if the older ends last", async () => {
    const scripted = scriptedSource();
    const catalog = createCatalog({ sources: [scripted.source] });
    const first = catalog.get();
    scripted.answer(0, []);
    await first;
    const seen: string[][] = [];
    catalog.onChange((d) => seen.push(names(d.skills)));
    const older = catalog.reload();
    const newer = catalog.reload();
    scripted.answer(2, [makeSkill({ name: "newer" })]);
    await newer;
    scripted.answer(1, [makeSkill({ name: "older" })]);
    await older;
    expect(seen).toEqual([["newer"]]);
    expect(names((await catalog.get()).skills)).toEqual(["newer"]);
  });

  it("a source's change rescans only after the first get(); an unsubscribed listener and a closed catalog hear nothing", async () => {
    const scripted = scriptedSource();
    const catalog = createCatalog({ sources: [scripted.source] });
    scripted.change();
    expect(scripted.calls()).toBe(0);
    const first = catalog.get();
    scripted.answer(0, []);
    await first;
    let calls = 0;
    const off = catalog.onChange(() => {
      calls += 1;
    });
    const heard = new Promise((resolve) => catalog.onChange(resolve));
    scripted.change();
    expect(scripted.calls()).toBe(2);
    scripted.answer(1, [makeSkill({ name: "added" })]);
    await heard;
    expect(calls).toBe(1);
    off();
    catalog.close();
    expect(scripted.listeners()).toBe(0);
    scripted.change();
    expect(scripted.calls()).toBe(2);
  });

  it("ranks across sources (explicit rank, else each skill's tier; ties keep the composition order) and a failing source is a diagnostic", async () => {
    const failing: SkillSource = {
      id: "db",
      list: async () => {
        throw new Error("connection refused");
      },
      subscribe: () => () => undefined,
    };
    const late = createMemorySource({ id: "late", rank: 580, skills: [def("same"), def("late")] });
    const early = createMemorySource({ id: "early", rank: 120, skills: [def("same")] });
    const plain = createMemorySource({ id: "plain", skills: [def("plain")] });
    const files: SkillSource = {
      id: "files",
      list: async () => ({
        skills: [
          makeSkill({ name: "mine", source: "project" }),
          makeSkill({ name: "plain", source: "bundled" }),
        ],
        diagnostics: [],
      }),
      subscribe: () => () => undefined,
    };
    const catalog = createCatalog({ sources: [files, late, failing, plain, early] });
    const { skills, diagnostics } = await catalog.get();
    const winner = (name: string) => skills.find((s) => s.name === name);
    // `early` (120) beats `late` (580); the app's `plain` (550) beats the bundled one (600).
    expect(winner("same")?.description).toBe("about same");
    expect(winner("same")?.root).toBe(early.skills()[0]?.root);
    expect(winner("plain")?.source).toBe("app");
    expect(names(skills).sort()).toEqual(["late", "mine", "plain", "same"]);
    expect(diagnostics.map((d) => d.code).sort()).toEqual(["shadowed", "shadowed", "source-failed"]);
    expect(diagnostics.find((d) => d.code === "source-failed")).toEqual({
      severity: "error",
      code: "source-failed",
      message: "skill source db failed: connection refused",
      path: "db",
    });
  });

  it("the filter switches skills off: left out of skills, kept in disabled with the reason", async () => {
    const source = createMemorySource({ skills: [def("on"), def("off")] });
    const catalog = createCatalog({
      sources: [source],
      filter: async () => ({ flagDisabled: ["off"], settingDisabled: [] }),
    });
    const found = await catalog.get();
    expect(names(found.skills)).toEqual(["on"]);
    expect(found.disabled?.map((d) => [d.skill.name, d.by])).toEqual([
      ["off", { kind: "flag", flag: "--no-skills", pattern: "off" }],
    ]);
  });
});
