// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are the subject of these tests.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellContextAt } from "../../src/inline/shell-context.js";
import { isShellVariableName, quoteForShell, variableReference } from "../../src/inline/shell-quote.js";

const NASTY = `a; touch X; $(touch Y) \`touch Z\` it's "q" \\ \n $HOME *`;

/** Runs `script` in bash with VALUE set and returns stdout. */
function bash(script: string): string {
  return execFileSync("bash", ["-c", script], { env: { ...process.env, VALUE: NASTY }, encoding: "utf8" });
}

describe("quoteForShell", () => {
  it.each<[string, string]>([
    ["", "''"],
    ["abc", "'abc'"],
    ["a b", "'a b'"],
    ["it's", "'it'\\''s'"],
    ["$(x)", "'$(x)'"],
  ])("%j → %s", (value, expected) => {
    expect(quoteForShell(value)).toBe(expected);
  });

  it("round-trips any value through a real shell", () => {
    expect(bash(`printf %s ${quoteForShell(NASTY)}`)).toBe(NASTY);
  });
});

describe("isShellVariableName", () => {
  it.each<[string, boolean]>([
    ["SKILLWRIGHT_ARG_0", true],
    ["_x", true],
    ["0x", false],
    ["a-b", false],
    ["", false],
  ])("%j → %s", (name, expected) => {
    expect(isShellVariableName(name)).toBe(expected);
  });
});

describe("variableReference", () => {
  it.each<[Parameters<typeof variableReference>[1], string]>([
    ["unquoted", '"${VALUE}"'],
    ["double", "${VALUE}"],
    ["single", `'"\${VALUE}"'`],
    ["ansi", `'"\${VALUE}"$'`],
  ])("is written for the %s context as %s", (context, expected) => {
    expect(variableReference("VALUE", context)).toBe(expected);
  });

  it.each<[string, string]>([
    ["unquoted", "printf %s <>"],
    ["double", 'printf %s "<>"'],
    ["single", "printf %s '<>'"],
    ["ansi", "printf %s $'<>'"],
  ])("yields the exact value in a real %s context", (_name, template) => {
    const at = template.indexOf("<>");
    const before = template.slice(0, at);
    const script = before + variableReference("VALUE", shellContextAt(before)) + template.slice(at + 2);
    expect(bash(script)).toBe(NASTY);
  });

  it("never runs the value, whatever context it is pasted into (a wrong guess may only break syntax)", () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-quote-"));
    try {
      for (const context of ["unquoted", "double", "single", "ansi"] as const) {
        for (const template of ["echo <>", 'echo "<>"', "echo '<>'", "echo $'<>'", "echo $(echo <>)"]) {
          const script = template.replace("<>", variableReference("VALUE", context));
          for (const shell of ["bash", "sh"]) {
            spawnSync(shell, ["-c", script], { cwd: dir, env: { ...process.env, VALUE: NASTY } });
            expect(readdirSync(dir), `${shell}: ${script}`).toEqual([]);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("throws for a name that is not a shell variable", () => {
    expect(() => variableReference("a;b", "unquoted")).toThrow();
  });
});
