import { describe, expect, it } from "vitest";
import type { SkillRetriever } from "../../src/skill-search/retriever.js";
import { createSkillSearcher, headSignature, searchCallable } from "../../src/skill-search/search.js";
import type { UsageEntry } from "../../src/usage.js";
import { makeSkill } from "../support/make-skill.js";

const names = (matches: { skill: { name: string } }[]) => matches.map((m) => m.skill.name);

describe("createSkillSearcher", () => {
  const skills = [
    makeSkill({ name: "alpha", description: "Formats tables" }),
    makeSkill({ name: "pdf-tools", alias: "pdf", description: "Fills PDF forms", whenToUse: "for forms" }),
    makeSkill({ name: "reader", description: "Reads pdf metadata" }),
    makeSkill({
      name: "gif-maker",
      description: "Small animations",
      body: "# Looping GIFs\nFor team chat emoji.",
    }),
  ];

  it("ranks by the query's words in name, description and when_to_use; skills matching nothing are left out", async () => {
    const found = await createSkillSearcher().search(skills, "fill pdf forms");
    expect(names(found)).toEqual(["pdf-tools", "reader"]);
    expect(found[0]?.score).toBeGreaterThan(found[1]?.score ?? Number.POSITIVE_INFINITY);
  });

  it("searches the body's headings and text, and folds word forms (looping → loop, animation → animate)", async () => {
    expect(names(await createSkillSearcher().search(skills, "a loop animated for the chat"))).toEqual([
      "gif-maker",
    ]);
  });

  it("puts a skill whose name or alias is the whole query first", async () => {
    const many = [
      makeSkill({ name: "reader", description: "pdf pdf pdf reader of pdf" }),
      makeSkill({ name: "pdf", description: "Other" }),
    ];
    expect(names(await createSkillSearcher().search(many, "PDF"))).toEqual(["pdf", "reader"]);
  });

  it("breaks ties by usage, then listing order; never returns a disable-model-invocation skill", async () => {
    const twins = [
      makeSkill({ name: "one", description: "deploy" }),
      makeSkill({ name: "two", description: "deploy" }),
      makeSkill({ name: "three", description: "deploy" }),
      makeSkill({ name: "hidden", description: "deploy", disableModelInvocation: true }),
    ];
    const usage = new Map<string, UsageEntry>([["three", { count: 5, lastUsedAt: 1_000 }]]);
    const searcher = createSkillSearcher({ usage: async () => usage, now: () => 1_000 });
    expect(names(await searcher.search(twins, "deploy"))).toEqual(["three", "one", "two"]);
    expect(names(await createSkillSearcher().search(twins, "deploy", { limit: 2 }))).toEqual(["one", "two"]);
  });

  it("keeps every skill tied at the cut, so usage breaks the tie even past the limit", async () => {
    const many = Array.from({ length: 30 }, (_, i) => makeSkill({ name: `s${i}`, description: "deploy" }));
    const usage = new Map<string, UsageEntry>([["s29", { count: 1, lastUsedAt: 1_000 }]]);
    const searcher = createSkillSearcher({ usage: async () => usage, now: () => 1_000 });
    expect(names(await searcher.search(many, "deploy", { limit: 2 }))).toEqual(["s29", "s0"]);
  });

  it("reads each body once and builds again only when the skills change (reading only new bodies)", async () => {
    let reads = 0;
    const counted = skills.map((s) => ({
      ...s,
      loadBody: async () => {
        reads += 1;
        return "body text";
      },
    }));
    const searcher = createSkillSearcher();
    await searcher.search(counted, "pdf");
    await searcher.search(counted, "tables");
    expect(reads).toBe(counted.length);
    const changed = [
      ...counted.slice(1),
      { ...counted[0], name: "alpha", description: "Sorts tables" },
    ] as typeof counted;
    await searcher.search(changed, "tables");
    // Rebuilt for the new set; only the new skill's body is read.
    expect(reads).toBe(counted.length + 1);
  });

  it("searches a skill whose body cannot be read by its head; does not read an MCP prompt's body", async () => {
    let mcpReads = 0;
    const odd = [
      makeSkill({
        name: "gone",
        description: "Rotates logs",
        loadBody: () => Promise.reject(new Error("ENOENT")),
      }),
      makeSkill({
        name: "mcp__s__p",
        description: "Prompt",
        mcpServer: "s",
        loadBody: async () => {
          mcpReads += 1;
          return "x";
        },
      }),
    ];
    expect(names(await createSkillSearcher().search(odd, "rotate logs"))).toEqual(["gone"]);
    expect(mcpReads).toBe(0);
  });

  it("answers nothing to an empty query or a zero limit", async () => {
    expect(await createSkillSearcher().search(skills, "   ")).toEqual([]);
    expect(await createSkillSearcher().search(skills, "pdf", { limit: 0 })).toEqual([]);
  });

  it("fuses an application's retriever with the lexical ranking; a skill only it finds comes back too", async () => {
    const requests: string[] = [];
    const retriever: SkillRetriever = {
      async retrieve(request) {
        requests.push(request.query);
        expect(request.documents.map((d) => d.name)).toEqual(skills.map((s) => s.name));
        return [
          { name: "alpha", score: 0.9 },
          { name: "not-a-skill", score: 0.8 },
          { name: "reader", score: 0.5 },
        ];
      },
    };
    const found = names(await createSkillSearcher({ retriever }).search(skills, "fill pdf"));
    // reader: 2nd lexically and 2nd by the retriever (the unknown name is dropped); pdf-tools 1st lexically
    // and alpha 1st by the retriever tie, and a tie goes to listing order.
    expect(found).toEqual(["reader", "alpha", "pdf-tools"]);
    expect(requests).toEqual(["fill pdf"]);
  });

  it("ranks lexically alone when the retriever rejects", async () => {
    const retriever: SkillRetriever = { retrieve: () => Promise.reject(new Error("provider down")) };
    expect(names(await createSkillSearcher({ retriever }).search(skills, "fill pdf forms"))).toEqual([
      "pdf-tools",
      "reader",
    ]);
  });

  it("signs the heads: a changed description changes the signature, a changed body does not", () => {
    const a = headSignature(skills);
    expect(headSignature(skills.map((s) => ({ ...s, loadBody: async () => "other" })))).toBe(a);
    expect(
      headSignature([{ ...skills[0], description: "x" } as (typeof skills)[0], ...skills.slice(1)]),
    ).not.toBe(a);
  });
});

describe("searchCallable (heads only, synchronous)", () => {
  it("ranks as the searcher does on heads, never reads a body, leaves out disable-model-invocation skills", async () => {
    let reads = 0;
    const skills = [
      makeSkill({ name: "pdf-merge", description: "Merges PDF files" }),
      makeSkill({ name: "sql-tidy", description: "Formats SQL", body: "merge pdf" }),
      makeSkill({ name: "pdf-forms", description: "Fills PDF forms" }),
      makeSkill({ name: "hidden", description: "merge pdf", disableModelInvocation: true }),
    ].map((s) => ({
      ...s,
      loadBody: async () => {
        reads += 1;
        return "";
      },
    }));
    const found = searchCallable(skills, "merge pdf").map((m) => m.skill.name);
    expect(found).toEqual(["pdf-merge", "pdf-forms"]);
    expect(reads).toBe(0);
    expect(searchCallable(skills, "PDF-FORMS")[0]?.skill.name).toBe("pdf-forms");
  });
});

describe("an aborted search", () => {
  it("keeps neither the bodies it could not read nor the index built without them", async () => {
    let reads = 0;
    const controller = new AbortController();
    const skills = [
      makeSkill({
        name: "vault",
        description: "Secrets",
        loadBody: async (signal) => {
          reads += 1;
          if (signal?.aborted === true) throw new Error("aborted");
          return "rotate the keys";
        },
      }),
    ];
    const searcher = createSkillSearcher();
    controller.abort();
    expect(await searcher.search(skills, "rotate", { signal: controller.signal })).toEqual([]);
    expect((await searcher.search(skills, "rotate")).map((m) => m.skill.name)).toEqual(["vault"]);
    expect(reads).toBe(2);
  });
});
