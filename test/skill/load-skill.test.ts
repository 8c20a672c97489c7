import { unlink } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs, type FsOps } from "../../src/io/fs.js";
import {
  HEAD_BYTES,
  type LoadResult,
  loadSkillFile,
  MAX_SKILL_FILE_BYTES,
  type SkillFileRef,
} from "../../src/skill/load-skill.js";
import { spyFs } from "../discovery/spy-fs.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** Writes `content` as `skills/demo/SKILL.md` and loads it. */
async function load(content: TreeEntry, fs: FsOps = createNodeFs()): Promise<LoadResult & { t: TmpTree }> {
  tree = await tmpTree({ "skills/demo/SKILL.md": content });
  const result = await loadSkillFile(fs, ref(tree));
  return { ...result, t: tree };
}

function ref(t: TmpTree, overrides: Partial<SkillFileRef> = {}): SkillFileRef {
  return {
    path: t.path("skills/demo/SKILL.md"),
    name: "demo",
    kind: "skill",
    source: "project",
    root: t.path("skills"),
    baseDir: t.path("skills/demo"),
    ...overrides,
  };
}

const codes = (r: LoadResult) => r.diagnostics.map((d) => d.code);

describe("loadSkillFile", () => {
  it("loads a plain skill with no diagnostics and the found paths", async () => {
    const r = await load("---\nname: demo\ndescription: Does demo things\n---\n# Demo\n\nBody text\n");
    expect(r.diagnostics).toEqual([]);
    expect(r.skill).toMatchObject({
      name: "demo",
      description: "Does demo things",
      source: "project",
      kind: "skill",
      filePath: r.t.path("skills/demo/SKILL.md"),
      baseDir: r.t.path("skills/demo"),
      root: r.t.path("skills"),
    });
    expect(await r.skill?.loadBody()).toBe("# Demo\n\nBody text\n");
  });

  it.each([
    ["BOM", "\uFEFF---\ndescription: with bom\n---\nbody"],
    ["CRLF", "---\r\ndescription: with bom\r\n---\r\nbody\r\n"],
    ["BOM + CRLF", "\uFEFF---\r\ndescription: with bom\r\n---\r\nbody"],
  ])("%s: frontmatter is read", async (_case, content) => {
    const r = await load(content.replace("with bom", "ok"));
    expect(r.diagnostics).toEqual([]);
    expect(r.skill?.description).toBe("ok");
    expect((await r.skill?.loadBody())?.trimEnd()).toBe("body");
  });

  it("an empty file loads as `Skill` with a file-empty info", async () => {
    const r = await load("");
    expect(r.skill?.description).toBe("Skill");
    expect(codes(r)).toEqual(["file-empty", "description-fallback"]);
    expect(r.diagnostics[0]?.severity).toBe("info");
  });

  it("an unclosed fence: warning, whole file is the body", async () => {
    const r = await load("---\ndescription: never closed\n\nbody\n");
    expect(codes(r)).toContain("frontmatter-unclosed");
    expect(r.skill?.descriptionFromBody).toBe(true);
    expect(await r.skill?.loadBody()).toBe("---\ndescription: never closed\n\nbody\n");
  });

  it("invalid YAML: warning and the lenient parse", async () => {
    const r = await load("---\ndescription: foo: bar\npaths: *.ts\n---\nbody\n");
    expect(codes(r)).toEqual(["yaml-invalid"]);
    expect(r.diagnostics[0]?.severity).toBe("warning");
    expect(r.skill?.description).toBe("foo: bar");
    expect(r.skill?.paths).toEqual(["*.ts"]);
  });

  it("duplicate keys: a yaml-invalid warning, the last value used", async () => {
    const r = await load("---\ndescription: first\ndescription: second\n---\n");
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["yaml-invalid", "warning"]]);
    expect(r.skill?.description).toBe("second");
  });

  it("a binary file loads with a file-binary warning", async () => {
    const r = await load(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a, 0x41, 0x00, 0x42]));
    expect(r.skill).toBeDefined();
    expect(r.diagnostics.find((d) => d.code === "file-binary")?.severity).toBe("warning");
  });

  it("a NUL byte past the head is found when the whole file has to be read", async () => {
    const content = `---\n${"x: y\n".repeat(1_000)}---\n\0body`;
    const r = await load(content);
    expect(codes(r)).toContain("file-binary");
  });

  it("non-UTF-8 bytes load (replacement chars), without a binary warning", async () => {
    const bytes = Buffer.concat([
      Buffer.from("---\ndescription: caf"),
      Buffer.from([0xe9, 0xff]),
      Buffer.from("\n---\nb"),
    ]);
    const r = await load(new Uint8Array(bytes));
    expect(codes(r)).toEqual([]);
    expect(r.skill?.description).toBe("caf\uFFFD\uFFFD");
  });

  it.each([
    [MAX_SKILL_FILE_BYTES - 1, true],
    [MAX_SKILL_FILE_BYTES, true],
    [MAX_SKILL_FILE_BYTES + 1, false],
    [2_000_000, false],
  ])("a file of %i bytes loads: %s", async (size, loads) => {
    const head = "---\ndescription: big\n---\n";
    const r = await load(head + "a".repeat(size - head.length));
    if (loads) {
      expect(r.skill?.description).toBe("big");
      expect(codes(r)).toEqual([]);
    } else {
      expect(r.skill).toBeUndefined();
      expect(r.diagnostics).toEqual([
        expect.objectContaining({
          code: "file-too-large",
          severity: "error",
          path: r.t.path("skills/demo/SKILL.md"),
        }),
      ]);
    }
  });

  it("the 1,000,000-byte cap", () => {
    expect(MAX_SKILL_FILE_BYTES).toBe(1_000_000);
  });

  it("unknown keys: extra + field-unknown info", async () => {
    const r = await load("---\ndescription: d\nowner: me\n---\n");
    expect(r.skill?.extra).toEqual({ owner: "me" });
    expect(codes(r)).toEqual(["field-unknown"]);
  });

  it("a legacy command ignores name and paths and keeps its namespaced name", async () => {
    tree = await tmpTree({ "commands/ns/sub.md": "---\nname: other\npaths: '*.ts'\n---\nRun it\n" });
    const r = await loadSkillFile(createNodeFs(), {
      path: tree.path("commands/ns/sub.md"),
      name: "ns:sub",
      kind: "command",
      source: "user",
      root: tree.path("commands"),
      baseDir: tree.path("commands/ns"),
    });
    expect(r.diagnostics.map((d) => d.code)).toEqual(["description-fallback"]);
    expect(r.skill).toMatchObject({ name: "ns:sub", kind: "command", description: "Run it" });
    expect(r.skill?.alias).toBeUndefined();
    expect(r.skill?.paths).toBeUndefined();
  });

  it("a plugin skill is namespaced", async () => {
    tree = await tmpTree({ "skills/demo/SKILL.md": "---\ndescription: d\n---\n" });
    const plugin = { name: "plug", root: tree.root, dataDir: tree.path("data") };
    const r = await loadSkillFile(createNodeFs(), { ...ref(tree), source: "plugin", plugin });
    expect(r.skill?.name).toBe("plug:demo");
    expect(r.skill?.plugin).toEqual(plugin);
  });

  it("a missing file is `missing`, without diagnostics", async () => {
    tree = await tmpTree({ "skills/demo/other.md": "x" });
    expect(await loadSkillFile(createNodeFs(), ref(tree))).toEqual({ diagnostics: [], missing: true });
  });

  it("SKILL.md that is a directory: not-a-file (issue 16.7)", async () => {
    tree = await tmpTree({ "skills/demo/SKILL.md/x": "x" });
    const r = await loadSkillFile(createNodeFs(), ref(tree));
    expect(r.skill).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([["not-a-file", ref(tree).path]]);
  });

  it("an unreadable file (EACCES): file-unreadable error", async () => {
    const spy = spyFs((method) => (method === "readHead" ? "EACCES" : undefined));
    const r = await load("---\ndescription: d\n---\n", spy.fs);
    expect(r.skill).toBeUndefined();
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "file-unreadable", severity: "error" })]);
  });

  it("loadBody rejects once the file is gone", async () => {
    const r = await load("---\ndescription: d\n---\nbody");
    await unlink(r.t.path("skills/demo/SKILL.md"));
    await expect(r.skill?.loadBody()).rejects.toThrow();
  });
});

describe("reading only the head", () => {
  it("a small file is read once, by readHead; the body is read by loadBody", async () => {
    const spy = spyFs();
    const r = await load("---\ndescription: d\n---\nbody\n", spy.fs);
    expect(spy.calls.readHead).toHaveLength(1);
    expect(spy.calls.readFile).toHaveLength(0);
    expect(spy.calls.readBytes).toHaveLength(0);
    expect(await r.skill?.loadBody()).toBe("body\n");
    expect(spy.calls.readFile).toEqual([r.t.path("skills/demo/SKILL.md")]);
  });

  it("a big body after a small frontmatter is not read at load", async () => {
    const spy = spyFs();
    const body = `# Title\n${"text line\n".repeat(50_000)}`;
    const r = await load(`---\ndescription: d\n---\n${body}`, spy.fs);
    expect(r.skill?.description).toBe("d");
    expect(spy.calls.readBytes).toHaveLength(0);
    expect(spy.calls.readFile).toHaveLength(0);
    expect(await r.skill?.loadBody()).toBe(body);
  });

  it("a frontmatter longer than the head is read whole", async () => {
    const padding = `metadata:\n${Array.from({ length: 400 }, (_, i) => `  key${i}: value ${i}\n`).join("")}`;
    expect(padding.length).toBeGreaterThan(HEAD_BYTES);
    const r = await load(`---\n${padding}description: after the head\n---\nbody\n`);
    expect(r.diagnostics).toEqual([]);
    expect(r.skill?.description).toBe("after the head");
  });

  it("a first body line running past the head is taken whole for the description", async () => {
    const line = `Start ${"word ".repeat(1_500)}end`;
    const r = await load(`---\nname: demo\n---\n${line}\nsecond line\n`);
    expect(r.skill?.description).toBe(line.trim());
  });

  it("the first body line found after more than a head of blank lines", async () => {
    const r = await load(`---\nname: demo\n---\n${"\n".repeat(HEAD_BYTES * 2)}late line\n`);
    expect(r.skill?.description).toBe("late line");
  });

  it.each([-3, -2, -1, 0, 1, 2])(
    "a `----` line straddling the head boundary (offset %i) is not taken as a fence",
    async (offset) => {
      const prefix = "---\ndescription: d\nlicense: ";
      const filler = "y".repeat(HEAD_BYTES - prefix.length - 1 + offset);
      const content = `${prefix}${filler}\n----\ncompatibility: still frontmatter\n---\nbody\n`;
      const r = await load(content);
      expect(r.diagnostics.map((d) => d.code)).toEqual(["yaml-invalid"]);
      expect(r.skill?.description).toBe("d");
      expect(r.skill?.compatibility).toBe("still frontmatter");
    },
  );
});

describe("control characters in frontmatter (issue 16.3)", () => {
  it.each([
    ["a YAML \\0 escape", 'description: "x\\0y"\nwhen_to_use: fine\n'],
    ["a raw NUL byte", "description: x\u0000y\nwhen_to_use: fine\n"],
    ["a raw ESC in a list", 'description: [a, "b\u001b[31m"]\nwhen_to_use: fine\n'],
    ["an ESC four levels down", 'description:\n  a:\n    - b: { c: "d\\e" }\nwhen_to_use: fine\n'],
    ["an ESC in a deep key", 'description:\n  a:\n    b:\n      "c\\e": d\nwhen_to_use: fine\n'],
  ])("%s: the field is dropped with frontmatter-control-char; the skill still loads", async (_, head) => {
    const r = await load(`---\n${head}---\nBody line\n`);
    expect(r.diagnostics.filter((d) => d.code === "frontmatter-control-char")).toEqual([
      expect.objectContaining({ severity: "error", code: "frontmatter-control-char" }),
    ]);
    expect(r.skill?.description).toBe("Body line");
    expect(r.skill?.whenToUse).toBe("fine");
  });

  it("control characters in the body's first line are stripped from the fallback description", async () => {
    const r = await load("---\nname: demo\n---\nHello\u0007 \u001b[1mworld\n");
    expect(r.skill?.description).toBe("Hello [1mworld");
  });
});

describe("diagnostics that name the real cause (issue 16.7)", () => {
  it.each([
    ["My Skill", true],
    ["PDF", true],
    ["under_score", true],
    ["pdf-tools", false],
    ["v2", false],
  ])("a skill dir named %j: warned with name-invalid = %s, and still loads", async (name, warned) => {
    tree = await tmpTree({ [`skills/${name}/SKILL.md`]: "---\ndescription: d\n---\nbody\n" });
    const r = await loadSkillFile(
      createNodeFs(),
      ref(tree, {
        path: tree.path(`skills/${name}/SKILL.md`),
        name,
        baseDir: tree.path(`skills/${name}`),
      }),
    );
    expect(r.skill?.name).toBe(name);
    expect(r.diagnostics.filter((d) => d.code === "name-invalid").map((d) => d.severity)).toEqual(
      warned ? ["warning"] : [],
    );
  });

  it("a directory named SKILL.md: not-a-file, says it is a directory", async () => {
    const r = await load({ dir: true });
    expect(r.skill).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "not-a-file",
        message: expect.stringContaining("SKILL.md is a directory"),
      }),
    ]);
  });

  it("an unclosed fence names the line that was meant to close it", async () => {
    const r = await load("---\ndescription: d\n----\nbody\n");
    const unclosed = r.diagnostics.find((d) => d.code === "frontmatter-unclosed");
    expect(unclosed?.message).toContain('line 3 "----" is not a closing fence');
  });

  it("an unclosed fence with no near miss says no line is exactly ---", async () => {
    const r = await load("---\ndescription: d\nbody\n");
    expect(r.diagnostics.find((d) => d.code === "frontmatter-unclosed")?.message).toContain(
      "no later line is exactly ---",
    );
  });

  it("an empty file says it is empty and what the skill becomes", async () => {
    const r = await load("");
    expect(r.diagnostics.find((d) => d.code === "file-empty")?.message).toBe(
      'SKILL.md is empty (0 bytes): the skill loads with no instructions and the description "Skill"',
    );
  });
});

describe("a name that could forge the listing (fuzz finding)", () => {
  it.each(["<system-reminder>", "x<command-name>", "bell\u0007"])(
    "%j is skipped with name-invalid",
    async (name) => {
      tree = await tmpTree({ [`skills/${name}/SKILL.md`]: "---\ndescription: d\n---\nbody\n" });
      const r = await loadSkillFile(
        createNodeFs(),
        ref(tree, { path: tree.path(`skills/${name}/SKILL.md`), name, baseDir: tree.path(`skills/${name}`) }),
      );
      expect(r.skill).toBeUndefined();
      expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([["error", "name-invalid"]]);
    },
  );
});

describe("the skill object", () => {
  // `list --json` prints a skill's keys in their order: the meta fields as `normalizeMeta` sets them, then the
  // skill's own. Every field is set here, so a field the copy forgets, or puts elsewhere, shows.
  const every = [
    "---",
    "name: other-name",
    "description: Does things",
    "when_to_use: When asked",
    "argument-hint: <file>",
    "arguments: [file, mode]",
    "allowed-tools: [Read, Grep]",
    "disallowed-tools: [Write]",
    "model: sonnet",
    "effort: high",
    "context: fork",
    "agent: Explore",
    "user-invocable: false",
    "disable-model-invocation: true",
    "paths: ['src/**']",
    "hooks: { Stop: [] }",
    "shell: sh",
    "license: MIT",
    "compatibility: node 20",
    "version: 1.2.0",
    "metadata: { owner: me }",
    "colour: blue",
    "---",
    "Body",
  ].join("\n");
  const skillKeys = ["name", "source", "kind", "filePath", "baseDir", "root", "loadBody", "references"];
  const fixedMeta = [
    "description",
    "descriptionFromBody",
    "argumentNames",
    "allowedTools",
    "disallowedTools",
    "context",
    "userInvocable",
    "disableModelInvocation",
    "shell",
    "extra",
  ];

  it("holds every field, in the order normalizeMeta gives them, then its own", async () => {
    const { skill } = await load(every);
    expect(Object.keys(skill ?? {})).toEqual([
      ...fixedMeta,
      "alias",
      "whenToUse",
      "argumentHint",
      "model",
      "effort",
      "agent",
      "paths",
      "hooks",
      "license",
      "compatibility",
      "version",
      "metadata",
      ...skillKeys,
    ]);
    expect(skill).toMatchObject({
      alias: "other-name",
      description: "Does things",
      descriptionFromBody: false,
      whenToUse: "When asked",
      argumentHint: "<file>",
      argumentNames: ["file", "mode"],
      allowedTools: ["Read", "Grep"],
      disallowedTools: ["Write"],
      model: "sonnet",
      effort: "high",
      context: "fork",
      agent: "Explore",
      userInvocable: false,
      disableModelInvocation: true,
      paths: ["src/**"],
      hooks: { Stop: [] },
      shell: "sh",
      license: "MIT",
      compatibility: "node 20",
      version: "1.2.0",
      metadata: { owner: "me" },
      extra: { colour: "blue" },
      name: "demo",
      kind: "skill",
      source: "project",
    });
  });

  it("keeps a title, and leaves out the fields a head does not set", async () => {
    tree = await tmpTree({ "skills/demo/SKILL.md": "---\nname: Release Notes\nmetadata: null\n---\nBody\n" });
    const { skill } = await loadSkillFile(createNodeFs(), ref(tree, { titleName: true }));
    expect(Object.keys(skill ?? {})).toEqual([...fixedMeta, "title", "metadata", ...skillKeys]);
    expect(skill).toMatchObject({ title: "Release Notes", metadata: null, description: "Body" });
  });
});
