import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { describeExit } from "../../src/mcp/connect.js";
import {
  discoverSkillRefs,
  type McpSkillRef,
  parseSkillUri,
  resourceText,
  SKILL_INDEX_URI,
  type SkillSourceOps,
} from "../../src/mcp/skill-refs.js";
import { refToSkill, sha256Digest, skillItemNames, verifyPublished } from "../../src/mcp/skills.js";

describe("parseSkillUri", () => {
  it.each([
    ["skill://greet/SKILL.md", { skillPath: "greet", baseUri: "skill://greet" }],
    [
      "skill://acme/billing/refunds/SKILL.md",
      { skillPath: "acme/billing/refunds", baseUri: "skill://acme/billing/refunds" },
    ],
    ["github://o/r/skills/x/SKILL.md", { skillPath: "o/r/skills/x", baseUri: "github://o/r/skills/x" }],
    ["skill://greet/skill.md", undefined],
    ["skill://SKILL.md", undefined],
    ["greet/SKILL.md", undefined],
  ])("%s", (uri, expected) => {
    expect(parseSkillUri(uri)).toEqual(expected);
  });
});

describe("skillItemNames", () => {
  it("uses the last segment unless two skills share it", () => {
    const refs = ["greet", "acme/billing/refunds", "acme/support/refunds", "x/lint"].map((skillPath) => ({
      skillPath,
    }));
    expect(skillItemNames(refs)).toEqual(["greet", "acme/billing/refunds", "acme/support/refunds", "lint"]);
  });
});

describe("verifyPublished", () => {
  const text = "---\nname: a\n---\nbody é\n";
  const good = { digest: sha256Digest(text), size: Buffer.byteLength(text) };
  it.each([
    ["match", good, undefined],
    ["upper-case hex", { ...good, digest: good.digest.toUpperCase().replace("SHA256", "sha256") }, undefined],
    ["size", { ...good, size: good.size + 1 }, /size/],
    ["digest", { ...good, digest: sha256Digest("other") }, /digest is/],
    ["algorithm", { ...good, digest: "md5:abc" }, /not sha256/],
  ])("%s", (_name, expected, problem) => {
    const result = verifyPublished(text, expected);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toMatch(problem);
  });
});

describe("resourceText", () => {
  it("prefers the matching uri and decodes blobs", () => {
    const result: ReadResourceResult = {
      contents: [
        { uri: "skill://other", text: "no" },
        { uri: "skill://a/SKILL.md", blob: Buffer.from("héllo").toString("base64") },
      ],
    };
    expect(resourceText(result, "skill://a/SKILL.md")).toBe("héllo");
    expect(() => resourceText({ contents: [] }, "skill://x")).toThrow(/no content/);
  });
});

function ops(files: Record<string, string>, extra: Partial<SkillSourceOps> = {}): SkillSourceOps {
  return {
    server: "s",
    hasSkillsExtension: false,
    hasResources: true,
    listSkillEntries: async () => [],
    listResources: async () => Object.keys(files).map((uri) => ({ uri })),
    readResource: async (uri) => {
      const text = files[uri];
      if (text === undefined) throw new Error(`unknown ${uri}`);
      return { contents: [{ uri, text }] };
    },
    ...extra,
  };
}

describe("discoverSkillRefs", () => {
  it("skips bad skills.list entries with a warning", async () => {
    const { refs, diagnostics } = await discoverSkillRefs(
      ops(
        {},
        {
          hasSkillsExtension: true,
          listSkillEntries: async () => [
            { uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "A" }, resources: "dynamic" },
            { uri: "skill://b/SKILL.md", frontmatter: { name: "b", description: "B" } },
            { uri: "skill://c/README.md", frontmatter: { name: "c", description: "C" }, resources: [] },
          ],
        },
      ),
    );
    expect(refs.map((r) => [r.uri, r.expected])).toEqual([["skill://a/SKILL.md", undefined]]);
    expect(diagnostics.map((d) => d.code)).toEqual(["mcp-failed", "mcp-failed"]);
  });

  it("falls back from a broken skills/list and a broken index to the resource listing", async () => {
    const { refs, diagnostics } = await discoverSkillRefs(
      ops(
        {
          [SKILL_INDEX_URI]: "not json",
          "skill://z/SKILL.md": "---\ndescription: Z\n---\n# Zed\n",
          "file:///x": "",
        },
        {
          hasSkillsExtension: true,
          listSkillEntries: async () => {
            throw new Error("Method not found");
          },
        },
      ),
    );
    expect(refs).toEqual([
      {
        server: "s",
        uri: "skill://z/SKILL.md",
        skillPath: "z",
        baseUri: "skill://z",
        frontmatter: { description: "Z" },
        firstBodyLine: "Zed",
        via: "resources",
      },
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("skills/list failed: Method not found"),
      expect.stringContaining("skill://index.json is unusable"),
    ]);
  });

  it("reads an index given as a bare list, by uri or by name, and reports unreadable skills", async () => {
    const index = JSON.stringify([{ name: "a" }, { uri: "skill://b/SKILL.md" }, { name: "gone" }]);
    const { refs, diagnostics } = await discoverSkillRefs(
      ops({
        [SKILL_INDEX_URI]: index,
        "skill://a/SKILL.md": "A body",
        "skill://b/SKILL.md": "---\nname: b\n---\n",
      }),
    );
    expect(refs.map((r) => [r.skillPath, r.via, r.frontmatter])).toEqual([
      ["a", "index", {}],
      ["b", "index", { name: "b" }],
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("could not read skill://gone/SKILL.md"),
    ]);
  });

  it("returns nothing for a server without resources", async () => {
    expect(await discoverSkillRefs(ops({}, { hasResources: false }))).toEqual({
      refs: [],
      diagnostics: [],
      via: "none",
    });
  });
});

describe("refToSkill", () => {
  const ref: McpSkillRef = {
    server: "s",
    uri: "skill://greet/SKILL.md",
    skillPath: "greet",
    baseUri: "skill://greet",
    frontmatter: { name: "other-name", description: "Greets", hooks: { Stop: [] }, "allowed-tools": "Read" },
    via: "skills/list",
  };

  it("never gives an alias, drops hooks and keeps the rest of the meta", () => {
    const { skill, diagnostics } = refToSkill({ ref, name: "mcp__s__greet", read: async () => "" });
    expect(skill).toMatchObject({ name: "mcp__s__greet", description: "Greets", allowedTools: ["Read"] });
    expect(skill.alias).toBeUndefined();
    expect(skill.hooks).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(["field-invalid"]);
  });

  it("refuses a fetched file whose frontmatter differs from the listing", async () => {
    const { skill } = refToSkill({
      ref: { ...ref, frontmatter: { name: "greet", description: "Greets" } },
      name: "mcp__s__greet",
      read: async () => "---\nname: greet\ndescription: Something else\n---\nbody\n",
    });
    await expect(skill.loadBody()).rejects.toThrow(/its description differs/);
  });
});

describe("describeExit", () => {
  it.each([
    [{ code: 1, signal: undefined }, "  oops\n", "exited with code 1; stderr: oops"],
    [{ code: undefined, signal: "SIGKILL" }, "", "was killed by SIGKILL"],
    [{ code: undefined, signal: undefined, error: "spawn x ENOENT" }, "", "spawn x ENOENT"],
  ])("%j", (exit, stderr, expected) => {
    expect(describeExit(exit, stderr)).toBe(expected);
  });
});
