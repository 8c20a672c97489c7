import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Discovery } from "../../src/catalog/catalog.js";
import type { Diagnostic } from "../../src/diagnostics.js";
import type { Skill } from "../../src/skill/skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { engineFor, skillMd } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

/** The committed corpus: a skills root whose every entry is one malformed case. */
const FIXTURES = fileURLToPath(new URL("../fixtures/malformed", import.meta.url));

/** How each case ends: loaded as a skill (with these fields) or not, and the diagnostic codes it gets. */
interface Outcome {
  skill?: Partial<Pick<Skill, "name" | "alias" | "description" | "paths" | "context" | "effort">>;
  /** Every diagnostic about the case, as `code` or `code@relative-path-inside-the-case`. */
  codes: string[];
}

const COMMITTED: Record<string, Outcome> = {
  "bad-yaml": { skill: { description: "[unclosed flow" }, codes: ["yaml-invalid"] },
  "unclosed-fence": {
    skill: { description: "---" },
    codes: ["frontmatter-unclosed", "description-fallback"],
  },
  "empty-file": { skill: { description: "Skill" }, codes: ["file-empty", "description-fallback"] },
  binary: { skill: { description: "has NUL bytes" }, codes: ["file-binary"] },
  bom: { skill: { description: "starts with a byte order mark" }, codes: [] },
  crlf: { skill: { description: "windows line ends" }, codes: [] },
  tabs: { skill: { description: "tab indented yaml" }, codes: ["yaml-invalid"] },
  "colon-in-value": { skill: { description: "Use when: the user asks for it" }, codes: ["yaml-invalid"] },
  "unquoted-glob": { skill: { paths: ["*.ts"] }, codes: ["yaml-invalid"] },
  "number-as-name": { skill: { alias: "12345" }, codes: [] },
  "list-for-string": {
    skill: { description: "First body line." },
    codes: ["field-invalid", "description-fallback", "field-invalid"],
  },
  "mapping-for-string": {
    skill: { description: "First body line." },
    codes: ["field-invalid", "description-fallback", "field-invalid"],
  },
  "invalid-name": { skill: { name: "invalid-name", alias: undefined }, codes: ["alias-invalid"] },
  "invalid-enums": {
    skill: { context: "inline", effort: undefined },
    codes: ["field-invalid", "field-invalid", "field-invalid"],
  },
  "bad-booleans": { skill: {}, codes: ["field-invalid", "field-invalid"] },
  "duplicate-keys": { skill: { description: "second" }, codes: ["yaml-invalid"] },
  "non-utf8": { skill: { description: "caf\uFFFD latin-1 bytes \uFFFD\uFFFD" }, codes: [] },
  "only-frontmatter": { skill: { description: "no body at all" }, codes: [] },
  "no-frontmatter": { skill: { description: "Just Markdown" }, codes: ["description-fallback"] },
  "empty-frontmatter": { skill: { description: "Heading as description" }, codes: ["description-fallback"] },
  "frontmatter-not-mapping": {
    skill: { description: "A list is not a mapping." },
    codes: ["yaml-invalid", "description-fallback"],
  },
  "null-fields": { skill: { description: "Description from the body." }, codes: ["description-fallback"] },
  "unknown-keys": { skill: { description: "extra keys" }, codes: ["field-unknown", "field-unknown"] },
  "alias-bomb": {
    skill: { description: "Billion laughs." },
    codes: ["yaml-invalid", "description-fallback", ...Array(5).fill("field-unknown")],
  },
  "hooks-not-object": { skill: { description: "hooks is a string" }, codes: [] },
  "yaml-document-end": { skill: { description: "yaml with a document end marker" }, codes: [] },
  lowercase: { codes: ["ignored-file@skill.md"] },
  "nested-too-deep": { codes: ["ignored-file@inner/SKILL.md"] },
  "no-skill-file": { codes: ["ignored-file"] },
  "skill-md-is-dir": { codes: ["not-a-file@SKILL.md"] },
  "x-md-in-root.md": { codes: ["ignored-file"] },
};

/** Cases that cannot live in git (links, a 2 MB file, injected failures), generated beside the corpus. */
const GENERATED: Record<string, Outcome> = {
  good: { skill: { description: "the good one" }, codes: [] },
  "symlink-loop": { codes: ["symlink-loop"] },
  "symlink-broken": { codes: ["symlink-broken"] },
  "too-large": { codes: ["file-too-large@SKILL.md"] },
  "huge-single-line": { skill: { description: "huge" }, codes: [] },
  "unreadable-file": { codes: ["file-unreadable@SKILL.md"] },
  "unreadable-dir": { codes: ["dir-unreadable"] },
};

let tree: TmpTree;
let discovery: Discovery;
const corpusRoot = () => tree.path("home/repo/.claude/skills");
const generatedRoot = () => tree.path("home/repo/.agents/skills");

beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills": { symlink: FIXTURES },
    "home/repo/.agents/skills/good/SKILL.md": skillMd("the good one"),
    "home/repo/.agents/skills/symlink-loop": { symlink: "symlink-loop" },
    "home/repo/.agents/skills/symlink-broken": { symlink: "../../does-not-exist" },
    "home/repo/.agents/skills/too-large/SKILL.md": `---\ndescription: big\n---\n${"x".repeat(2_000_000)}`,
    "home/repo/.agents/skills/huge-single-line/SKILL.md": `---\ndescription: huge\n---\n${"word ".repeat(150_000)}`,
    "home/repo/.agents/skills/unreadable-file/SKILL.md": skillMd("locked"),
    "home/repo/.agents/skills/unreadable-dir/SKILL.md": skillMd("locked"),
    "home/repo/sub/.claude/skills": "a file where a dir is expected",
    "home/repo/sub/.claude/commands/bad-command.md": "---\ndescription: foo: bar\nname: ignored\n---\nRun.\n",
  });
  const locked = (path: string) => path.startsWith(`${generatedRoot()}/unreadable-dir`);
  const { fs } = spyFs((method, path) => {
    if (method === "readHead" && path === `${generatedRoot()}/unreadable-file/SKILL.md`) return "EACCES";
    // A locked dir refuses everything below it: listing it, resolving it and opening files in it.
    if ((method === "realpath" || method === "readdir" || method === "readHead") && locked(path))
      return "EACCES";
    return undefined;
  });
  discovery = await engineFor(tree, { cwd: "home/repo/sub", fs }).discover();
});
afterAll(() => tree.cleanup());

function outcomeOf(root: string, name: string): { skill?: Skill; diagnostics: Diagnostic[] } {
  const base = `${root}/${name}`;
  const skill = discovery.skills.find((s) => s.baseDir === base);
  const diagnostics = discovery.diagnostics.filter((d) => d.path === base || d.path?.startsWith(`${base}/`));
  return skill === undefined ? { diagnostics } : { skill, diagnostics };
}

describe("malformed-input corpus", () => {
  it("has at least 25 kinds, and a table entry for every committed fixture", async () => {
    const committed = (await readdir(FIXTURES)).filter((name) => !name.startsWith(".")).sort();
    expect(committed).toEqual(Object.keys(COMMITTED).sort());
    expect(committed.length + Object.keys(GENERATED).length + 2).toBeGreaterThanOrEqual(25);
  });

  it("every fixture ends as a skill or with a coded diagnostic naming its path", async () => {
    const cases = [
      ...Object.keys(COMMITTED).map((name) => [corpusRoot(), name] as const),
      ...Object.keys(GENERATED).map((name) => [generatedRoot(), name] as const),
    ];
    for (const [root, name] of cases) {
      const { skill, diagnostics } = outcomeOf(root, name);
      expect(skill !== undefined || diagnostics.length > 0, `${name} vanished silently`).toBe(true);
    }
    // The two structural cases outside a skills root.
    expect(discovery.diagnostics).toContainEqual(
      expect.objectContaining({ code: "not-a-directory", path: tree.path("home/repo/sub/.claude/skills") }),
    );
    expect(discovery.skills.find((s) => s.name === "bad-command")).toBeDefined();
  });

  it.each(Object.entries(COMMITTED))("committed case %s", (name, expected) => {
    checkCase(corpusRoot(), name, expected);
  });

  it.each(Object.entries(GENERATED))("generated case %s", (name, expected) => {
    checkCase(generatedRoot(), name, expected);
  });

  it("a legacy command with bad YAML loads leniently, name ignored", () => {
    const command = discovery.skills.find((s) => s.name === "bad-command");
    expect(command).toMatchObject({ kind: "command", description: "foo: bar" });
    expect(command?.alias).toBeUndefined();
    const path = tree.path("home/repo/sub/.claude/commands/bad-command.md");
    expect(discovery.diagnostics.filter((d) => d.path === path).map((d) => d.code)).toEqual(["yaml-invalid"]);
  });

  it("every diagnostic carries a path and a known severity", () => {
    for (const d of discovery.diagnostics) {
      expect(d.path, JSON.stringify(d)).toEqual(expect.any(String));
      expect(["error", "warning", "info"]).toContain(d.severity);
    }
  });
});

function checkCase(root: string, name: string, expected: Outcome): void {
  const base = `${root}/${name}`;
  const { skill, diagnostics } = outcomeOf(root, name);
  const actual = diagnostics.map((d) =>
    d.path === base || (d.path === `${base}/SKILL.md` && skill !== undefined)
      ? d.code
      : `${d.code}@${d.path?.slice(base.length + 1)}`,
  );
  expect(actual.sort(), name).toEqual([...expected.codes].sort());
  if (expected.skill === undefined) {
    expect(skill, name).toBeUndefined();
  } else {
    expect(skill?.name, name).toBe(name);
    for (const [key, value] of Object.entries(expected.skill)) {
      expect(skill?.[key as keyof Skill], `${name}.${key}`).toEqual(value);
    }
  }
}
