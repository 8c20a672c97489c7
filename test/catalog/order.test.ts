import { describe, expect, it } from "vitest";
import { compareNames, listingOrder } from "../../src/catalog/order.js";
import type { Skill } from "../../src/skill/skill.js";
import { makeSkill } from "../support/make-skill.js";

describe("compareNames", () => {
  it.each([
    ["a", "B", -1],
    ["B", "a", 1],
    ["Abc", "abc", -1],
    ["abc", "Abc", 1],
    ["same", "same", 0],
    ["a-b", "a:b", -1],
  ])("%s vs %s → %i", (a, b, expected) => {
    expect(Math.sign(compareNames(a, b))).toBe(expected);
  });
});

describe("listingOrder", () => {
  const at = (name: string, source: Skill["source"], root: string, kind: Skill["kind"] = "skill") =>
    makeSkill({ name, source, root, kind });

  it("orders by group, then root rank for project skills, then name", () => {
    const skills = [
      at("zz-bundled", "bundled", "/b"),
      at("aa-bundled", "bundled", "/extract"),
      at("mcp__s__x", "mcp", ""),
      at("plug:skill", "plugin", "/p/skills"),
      at("plug:cmd", "plugin", "/p/commands", "command"),
      at("cmd-b", "user", "/h/.claude/commands", "command"),
      at("Cmd-a", "project", "/r/.claude/commands", "command"),
      at("far-a", "project", "/r/.claude/skills"),
      at("near-z", "project", "/r/a/.claude/skills"),
      at("near-agents", "project", "/r/a/.agents/skills"),
      at("gamma", "user", "/h/.claude/skills"),
      at("Beta", "user", "/h/.agents/skills"),
      at("alpha", "user", "/h/.claude/skills"),
      at("policy", "managed", "/m/skills"),
    ];
    const rank = new Map([
      ["/m/skills", 0],
      ["/h/.claude/skills", 1],
      ["/h/.agents/skills", 2],
      ["/r/a/.claude/skills", 3],
      ["/r/a/.agents/skills", 4],
      ["/r/.claude/skills", 5],
    ]);
    expect(listingOrder(skills, rank).map((s) => s.name)).toEqual([
      "policy",
      "alpha",
      "Beta",
      "gamma",
      "near-z",
      "near-agents",
      "far-a",
      "Cmd-a",
      "cmd-b",
      "plug:cmd",
      "plug:skill",
      "mcp__s__x",
      "aa-bundled",
      "zz-bundled",
    ]);
    expect(skills[0]?.name).toBe("zz-bundled");
  });
});
