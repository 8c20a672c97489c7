// App skill sources end to end: a memory source composed by createEngine({ sources }), changed while a session is
// open, its skills' references read through load_reference; the real SDK against the scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import { createMemorySource, type MemorySource } from "../../src/sources/memory-source.js";
import {
  type Harness,
  LISTING_HEADER,
  lastUser,
  type RequestBody,
  resultText,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The listing blocks of a request's newest user message. */
function listings(body: RequestBody): string[] {
  return textBlocks(lastUser(body).content).filter((t) => t.includes(LISTING_HEADER));
}

function pmSource(counter: { calls: number }): MemorySource {
  return createMemorySource({
    skills: [
      {
        name: "pm-skill",
        description: "Analyses product requirements",
        body: "You are a product manager (v1).",
        references: [
          { name: "prd-template", description: "PRD template", content: "## Background\n## Users" },
          {
            name: "past-prds",
            description: "Recent PRDs",
            content: async () => {
              counter.calls += 1;
              return "PRD #1: mind maps";
            },
          },
          {
            name: "broken",
            description: "A loader that fails",
            content: async () => {
              throw new Error("database is down");
            },
          },
        ],
      },
    ],
  });
}

describe("a memory source in a session", () => {
  it("an added, updated and removed skill reaches the open session; tools and system prompt never change", async () => {
    const counter = { calls: 0 };
    const memory = pmSource(counter);
    h = await startHarness({
      engine: { sources: [memory] },
      session: { builtinTools: false },
      turns: [
        toolTurn("Skill", { skill: "pm-skill" }),
        textTurn("done 1"),
        toolTurn("Skill", { skill: "pm-skill" }),
        textTurn("done 2"),
        toolTurn("Skill", { skill: "creator-skill" }),
        textTurn("done 3"),
      ],
    });
    expect(h.opened.tools).toEqual(["load_reference", "Skill"]);
    await h.send("analyse this");
    const first = h.body(0);
    expect(listings(first).join("\n")).toContain("- pm-skill: Analyses product requirements");
    const launched = textBlocks(lastUser(h.body(1)).content).join("\n");
    expect(launched).toContain("You are a product manager (v1).");
    expect(launched).toContain(
      'References of this skill (read one with the load_reference tool: skill "pm-skill", name as listed):\n' +
        "- prd-template: PRD template\n- past-prds: Recent PRDs\n- broken: A loader that fails",
    );
    expect(launched).not.toContain("Base directory");
    expect(counter.calls).toBe(0);

    memory.add({ name: "creator-skill", description: "Writes outlines", body: "Create." });
    memory.update({ name: "pm-skill", description: "Analyses product requirements", body: "PM v2." });
    await h.send("again");
    // The next request carries a delta with only the new skill (SPEC §3).
    expect(listings(h.body(2))).toEqual([
      [
        "<system-reminder>",
        LISTING_HEADER,
        "",
        "- creator-skill: Writes outlines",
        "</system-reminder>",
      ].join("\n"),
    ]);
    expect(textBlocks(lastUser(h.body(3)).content).join("\n")).toContain("PM v2.");

    expect(memory.remove("creator-skill")).toBe(true);
    await h.send("create");
    const [refused] = toolResults(h.body(5));
    expect(refused?.is_error).toBe(true);
    expect(resultText(refused)).toContain("Unknown skill: creator-skill");

    const bodies = h.bodies();
    expect(bodies).toHaveLength(6);
    for (const body of bodies) {
      expect(JSON.stringify(body.system)).toBe(JSON.stringify(first.system));
      expect(JSON.stringify(body.tools)).toBe(JSON.stringify(first.tools));
    }
  });

  it("a lazy reference's loader runs only when asked, once per session; a failing loader is an error result", async () => {
    const counter = { calls: 0 };
    const memory = pmSource(counter);
    h = await startHarness({
      engine: { sources: [memory] },
      session: { builtinTools: false },
      turns: [
        toolTurn("load_reference", { skill: "pm-skill", name: "past-prds" }),
        toolTurn("load_reference", { skill: "pm-skill", name: "past-prds" }),
        toolTurn("load_reference", { skill: "pm-skill", name: "broken" }),
        toolTurn("load_reference", { skill: "pm-skill", name: "nope" }),
        toolTurn("load_reference", { skill: "pm-skill", name: "prd-template" }),
        textTurn("done"),
      ],
    });
    expect(counter.calls).toBe(0);
    await h.send("load them");
    expect(counter.calls).toBe(1);
    const results = [1, 2, 3, 4, 5].map((i) => toolResults(h?.body(i) ?? { model: "", messages: [] })[0]);
    expect(results.map((r) => [resultText(r), r?.is_error === true])).toEqual([
      ["PRD #1: mind maps", false],
      ["PRD #1: mind maps", false],
      ['Could not load reference "broken" of skill pm-skill: database is down', true],
      ['Skill pm-skill has no reference "nope". Its references: prd-template, past-prds, broken', true],
      ["## Background\n## Users", false],
    ]);
  });

  it("an app source's rank decides a clash with a file skill", async () => {
    const first = createMemorySource({
      id: "early",
      rank: 150,
      skills: [{ name: "deploy", description: "App deploy", body: "App." }],
    });
    h = await startHarness({
      files: { "home/.claude/skills/deploy/SKILL.md": "---\ndescription: User deploy\n---\nUser." },
      engine: { sources: [first] },
      turns: [textTurn("ok")],
    });
    const discovery = await h.engine.discover();
    expect(discovery.skills.find((s) => s.name === "deploy")?.description).toBe("App deploy");
    expect(discovery.diagnostics.some((d) => d.code === "shadowed" && d.message.includes("User"))).toBe(
      false,
    );
    const late = createMemorySource({ skills: [{ name: "deploy", description: "Late", body: "L." }] });
    const other = await startHarness({
      files: { "home/.claude/skills/deploy/SKILL.md": "---\ndescription: User deploy\n---\nUser." },
      engine: { sources: [late] },
      turns: [textTurn("ok")],
    });
    try {
      const found = await other.engine.discover();
      expect(found.skills.find((s) => s.name === "deploy")?.description).toBe("User deploy");
      expect(found.diagnostics.some((d) => d.code === "shadowed" && d.message.includes("app:deploy"))).toBe(
        true,
      );
    } finally {
      await other.close();
    }
  });
});
