/**
 * A hook of a type we do not run, or for an event we do not fire, is a `hook-unsupported` warning when the skill
 * is loaded, in `validate`, `doctor` and `lint` alike (the shipped bin), not first when the skill is invoked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

const HOOKED = [
  "---",
  "description: Checks commands before they run",
  "hooks:",
  "  PreToolUse:",
  "    - matcher: Bash",
  "      hooks:",
  "        - type: wasm",
  "          module: check.wasm",
  "        - type: http",
  "          url: https://hooks.example/check",
  "        - type: prompt",
  "          prompt: Is $ARGUMENTS safe?",
  "  TeammateIdle:",
  "    - hooks:",
  "        - type: command",
  "          command: echo idle",
  "---",
  "Check commands.",
  "",
].join("\n");

const SKILL = "home/repo/.claude/skills/hooked/SKILL.md";

interface Diag {
  severity: string;
  code: string;
  message: string;
}

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "home/repo/.git": { dir: true }, [SKILL]: HOOKED });
});
afterAll(() => tree.cleanup());

/** The hook diagnostics: the wasm type and the TeammateIdle event, never the http and prompt hooks. */
function expectUnsupported(diagnostics: readonly Diag[]) {
  const hooks = diagnostics.filter((d) => d.code.startsWith("hook"));
  expect(hooks.map((d) => [d.severity, d.code])).toEqual([
    ["warning", "hook-unsupported"],
    ["warning", "hook-unsupported"],
  ]);
  expect(hooks[0]?.message).toContain('"wasm"');
  expect(hooks[1]?.message).toContain('"TeammateIdle"');
}

describe("hook-unsupported at load time", () => {
  it("validate", async () => {
    const result = await cli(tree, ["validate", SKILL, "--json"], ".");
    expect(result.code).toBe(0);
    const report = json<{ files: { diagnostics: Diag[] }[] }>(result);
    expectUnsupported(report.files[0]?.diagnostics ?? []);
  });

  it("doctor", async () => {
    const result = await cli(tree, ["doctor", "--json"]);
    expect(result.code).toBe(0);
    expectUnsupported(json<{ diagnostics: Diag[] }>(result).diagnostics);
  });

  it("lint", async () => {
    const result = await cli(tree, ["lint", SKILL, "--json"], ".");
    // lint reports validation's diagnostics as findings (a warning does not fail it).
    const report = json<{ skills: { findings: Diag[] }[] }>(result);
    expectUnsupported(report.skills[0]?.findings ?? []);
  });
});
