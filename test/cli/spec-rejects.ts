import type { TreeEntry } from "../support/tmp-tree.js";

/** One SKILL.md that `validate --spec` rejects: its dir, its bytes, and the spec code that names why. */
export interface SpecReject {
  /** The skill dir (the name rule compares against it). */
  dir: string;
  content: string | Uint8Array;
  /** The spec profile's error code for it. */
  code: string;
}

const head = (dir: string, lines: string) => `---\n${lines}\n---\nDo the thing.\n`.replaceAll("$DIR", dir);

/** `---\nname: {dir}\ndescription: …\n{extra}\n---` with the name and description the spec wants. */
const withFields = (extra: string) => `name: $DIR\ndescription: Does a thing. Use when asked.\n${extra}`;

const cases: Array<[dir: string, content: string | Uint8Array, code: string]> = [
  // The frontmatter as a whole.
  ["no-frontmatter", "Just a body, no frontmatter.\n", "spec-yaml-invalid"],
  ["unclosed", "---\nname: unclosed\ndescription: d\nThe body.\n", "spec-yaml-invalid"],
  ["bom", `\uFEFF${head("bom", "name: $DIR\ndescription: d")}`, "spec-bom"],
  ["empty-frontmatter", "---\n---\nThe body.\n", "spec-name-missing"],
  ["not-a-mapping", "---\n- a\n- b\n---\nThe body.\n", "spec-yaml-invalid"],
  ["colon-in-value", head("x", "name: colon-in-value\ndescription: use it: now"), "spec-yaml-invalid"],
  ["tab-indent", head("tab-indent", withFields("metadata:\n\tauthor: me")), "spec-yaml-invalid"],
  ["duplicate-key", head("duplicate-key", "name: $DIR\ndescription: d\ndescription: e"), "spec-yaml-invalid"],
  ["unclosed-flow", head("unclosed-flow", "name: $DIR\ndescription: [unclosed"), "spec-yaml-invalid"],
  // Binary bytes as a description: YAML forbids control characters; bytes that are not UTF-8.
  ["nul-bytes", head("nul-bytes", 'name: $DIR\ndescription: "\u0000\u0001\u0002"'), "spec-yaml-invalid"],
  ["escape-seq", head("escape-seq", "name: $DIR\ndescription: red \u001b[31m text"), "spec-yaml-invalid"],
  [
    "not-utf8",
    Uint8Array.from([
      ...Buffer.from("---\nname: not-utf8\ndescription: caf"),
      0xe9,
      ...Buffer.from("\n---\nb\n"),
    ]),
    "spec-encoding",
  ],
  // name
  ["name-missing", head("name-missing", "description: d"), "spec-name-missing"],
  ["name-empty", head("name-empty", 'name: ""\ndescription: d'), "spec-name-missing"],
  ["name-list", head("name-list", "name:\n  - name-list\ndescription: d"), "spec-field-invalid"],
  ["name-mismatch", head("name-mismatch", "name: other\ndescription: d"), "spec-name-mismatch"],
  ["Upper-Name", head("Upper-Name", "name: $DIR\ndescription: d"), "name-invalid"],
  ["under_score", head("under_score", "name: $DIR\ndescription: d"), "name-invalid"],
  ["edge-", head("edge-", "name: $DIR\ndescription: d"), "name-invalid"],
  ["double--hyphen", head("double--hyphen", "name: $DIR\ndescription: d"), "name-invalid"],
  [`long-${"n".repeat(60)}`, head(`long-${"n".repeat(60)}`, "name: $DIR\ndescription: d"), "name-invalid"],
  // description
  ["description-missing", head("description-missing", "name: $DIR"), "spec-description-length"],
  [
    "description-blank",
    head("description-blank", 'name: $DIR\ndescription: "   "'),
    "spec-description-length",
  ],
  [
    "description-long",
    head("description-long", `name: $DIR\ndescription: ${"x".repeat(1_025)}`),
    "spec-description-length",
  ],
  ["description-map", head("description-map", "name: $DIR\ndescription:\n  a: b"), "spec-field-invalid"],
  // compatibility, metadata, allowed-tools
  [
    "compatibility-long",
    head("compatibility-long", withFields(`compatibility: ${"c".repeat(501)}`)),
    "spec-compatibility-length",
  ],
  [
    "compatibility-list",
    head("compatibility-list", withFields("compatibility:\n  - a")),
    "spec-field-invalid",
  ],
  ["metadata-string", head("metadata-string", withFields("metadata: just-a-string")), "spec-field-invalid"],
  ["metadata-nested", head("metadata-nested", withFields("metadata:\n  a:\n    b: c")), "spec-field-invalid"],
  ["tools-map", head("tools-map", withFields("allowed-tools:\n  Read: yes")), "spec-field-invalid"],
  // keys outside the specification that the engine does not define either
  ["unknown-key", head("unknown-key", withFields("foo: bar")), "spec-unknown-key"],
  ["typo-key", head("typo-key", withFields("descripton: typo")), "spec-unknown-key"],
];

/** Inputs `validate --spec` rejects, one per rule and way of breaking it (32 of them). */
export const SPEC_REJECTS: readonly SpecReject[] = cases.map(([dir, content, code]) => ({
  dir,
  content: typeof content === "string" ? content.replaceAll("$DIR", dir) : content,
  code,
}));

/** The {@link SPEC_REJECTS} as a tmpTree under `root`: `{root}/{dir}/SKILL.md`. */
export function specRejectsTree(root: string): Record<string, TreeEntry> {
  return Object.fromEntries(SPEC_REJECTS.map((r) => [`${root}/${r.dir}/SKILL.md`, r.content]));
}
