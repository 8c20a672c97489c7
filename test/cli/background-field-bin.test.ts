/**
 * `background: true` on an inline skill means nothing: a `background-inline` warning in `validate`, `doctor`
 * and `lint` alike (the shipped bin); on a forked skill it is silent (issue #27 item 7).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

const INLINE = "home/repo/.claude/skills/inline-bg/SKILL.md";
const FORKED = "home/repo/.claude/skills/forked-bg/SKILL.md";

interface Diag {
  severity: string;
  code: string;
  message: string;
  path?: string;
}

const WARNING =
  "background: true means nothing on an inline skill (only a `context: fork` skill runs in the background); ignored";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    [INLINE]: "---\ndescription: Inline but background\nbackground: true\n---\nBody\n",
    [FORKED]: "---\ndescription: Forked in the background\ncontext: fork\nbackground: true\n---\nBody\n",
  });
});
afterAll(() => tree.cleanup());

const background = (diagnostics: readonly Diag[]) =>
  diagnostics.filter((d) => d.code === "background-inline");

describe("background: true on an inline skill", () => {
  it("validate warns for the inline skill only; exit 0", async () => {
    const inline = await cli(tree, ["validate", INLINE, "--json"], ".");
    expect(inline.code).toBe(0);
    const found = background(json<{ files: { diagnostics: Diag[] }[] }>(inline).files[0]?.diagnostics ?? []);
    expect(found.map((d) => [d.severity, d.message])).toEqual([["warning", WARNING]]);
    const forked = await cli(tree, ["validate", FORKED, "--json"], ".");
    expect(
      background(json<{ files: { diagnostics: Diag[] }[] }>(forked).files[0]?.diagnostics ?? []),
    ).toEqual([]);
  });

  it("doctor lists it under the skill's file", async () => {
    const result = await cli(tree, ["doctor", "--json"]);
    expect(result.code).toBe(0);
    const { diagnostics } = json<{ diagnostics: Diag[] }>(result);
    expect(background(diagnostics).map((d) => d.path)).toEqual([tree.path(INLINE)]);
  });

  it("lint reports it as a finding", async () => {
    const result = await cli(tree, ["lint", INLINE, "--json"], ".");
    const report = json<{ skills: { findings: Diag[] }[] }>(result);
    expect(background(report.skills[0]?.findings ?? []).map((d) => d.severity)).toEqual(["warning"]);
  });
});
