// A file skill's folder as references: relative paths as names, nothing that resolves outside the folder.
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { fileReferences } from "../../src/skill/file-references.js";
import { type Harness, resultText, skillMd, startHarness, toolResults } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await tree?.cleanup();
  await h?.close();
  tree = undefined;
  h = undefined;
});

const SKILL = {
  "skill/SKILL.md": "---\ndescription: d\n---\nBody",
  "skill/ref/api.md": "# API",
  "skill/notes.md": "notes",
  "skill/inside-link.md": { symlink: "notes.md" },
  "skill/out.md": { symlink: "../secret.txt" },
  "skill/outdir": { symlink: ".." },
  "secret.txt": "SECRET",
};

describe("fileReferences", () => {
  it("lists the folder's files (not SKILL.md), following links only while they stay inside", async () => {
    tree = await tmpTree(SKILL);
    const refs = fileReferences(createNodeFs(), tree.path("skill"));
    expect((await refs.list()).map((r) => r.name)).toEqual(["inside-link.md", "notes.md", "ref/api.md"]);
    expect(await refs.read("ref/api.md")).toBe("# API");
    expect(await refs.read("inside-link.md")).toBe("notes");
    expect(await refs.read("missing.md")).toBeUndefined();
  });

  it("shows no fields of its own: a skill copied field by field (`list --json`) prints it as {}", async () => {
    tree = await tmpTree(SKILL);
    const refs = fileReferences(createNodeFs(), tree.path("skill"));
    expect(Object.keys(refs)).toEqual([]);
    expect(JSON.stringify({ ...refs })).toBe("{}");
    expect(JSON.stringify(refs)).toBe("{}");
  });

  it.each([
    ["../secret.txt", /outside the skill's folder/],
    ["ref/../../secret.txt", /outside the skill's folder/],
    ["/etc/passwd", /outside the skill's folder/],
    ["out.md", /resolves outside the skill's folder/],
    ["outdir/secret.txt", /resolves outside the skill's folder/],
  ])("refuses %s", async (name, message) => {
    tree = await tmpTree(SKILL);
    const refs = fileReferences(createNodeFs(), tree.path("skill"));
    await expect(refs.read(name)).rejects.toThrow(message);
  });
});

describe("load_reference on a file skill", () => {
  it("reads a file of the folder and refuses a symlink out and a `..` path, as error results", async () => {
    h = await startHarness({
      files: {
        "project/.claude/skills/docs/SKILL.md": skillMd("description: Docs", "Read ref/api.md."),
        "project/.claude/skills/docs/ref/api.md": "# API",
        "project/.claude/skills/docs/leak.md": { symlink: "../../../secret.txt" },
        "project/secret.txt": "SECRET",
      },
      session: { loadReference: true },
      turns: [
        toolTurn("load_reference", { skill: "docs", name: "ref/api.md" }),
        toolTurn("load_reference", { skill: "docs", name: "leak.md" }),
        toolTurn("load_reference", { skill: "docs", name: "../../../secret.txt" }),
        textTurn("done"),
      ],
    });
    await h.send("read");
    const results = [1, 2, 3].map((i) => toolResults(h?.body(i) ?? { model: "", messages: [] })[0]);
    expect(results.map((r) => [resultText(r), r?.is_error === true])).toEqual([
      ["# API", false],
      [
        'Could not load reference "leak.md" of skill docs: reference "leak.md" resolves outside the skill\'s folder',
        true,
      ],
      [
        'Could not load reference "../../../secret.txt" of skill docs: reference "../../../secret.txt" is outside the skill\'s folder',
        true,
      ],
    ]);
    expect(JSON.stringify(h.bodies())).not.toContain("SECRET");
  });
});
