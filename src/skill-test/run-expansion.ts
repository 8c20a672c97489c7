import { expandSkill } from "../inline/expand-skill.js";
import type { ShellOps } from "../io/shell.js";
import type { Skill } from "../skill/skill.js";
import type { ExpansionCase } from "./cases.js";
import { createStubShell } from "./stub-shell.js";
import { textFailures } from "./text-checks.js";

/** The session id an expansion case substitutes for `${CLAUDE_SESSION_ID}`. */
export const TEST_SESSION_ID = "skill-test";
/** What the temp copy's path becomes in an expanded body, so expected bodies hold on every machine. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the variable as a skill body writes it
export const SKILL_DIR_PLACEHOLDER = "${CLAUDE_SKILL_DIR}";

/** A temp copy of a skill dir and how to remove it. */
export interface TempCopy {
  dir: string;
  cleanup: () => Promise<void>;
}

export interface ExpansionDeps {
  /** Runs inline shell when the case stubs nothing. */
  shell: ShellOps;
  /** Copies a skill dir somewhere disposable. */
  copyDir: (dir: string) => Promise<TempCopy>;
}

/** The result of an expansion case: the body (or the expansion's error) and each unmet expectation. */
export interface ExpansionResult {
  /** The body; undefined when the expansion failed (the failure says why). */
  actual?: string;
  failures: string[];
}

/** Checks a body against a case's expectations; one message per unmet one. Pure. */
export function checkBody(body: string, expect: ExpansionCase["expect"]): string[] {
  const exact = expect.exact !== undefined && body !== expect.exact ? ["body differs from `exact`"] : [];
  return [...exact, ...textFailures("body", body, expect)];
}

/**
 * Runs an expansion case through the engine's own `expandSkill`: the skill's base dir (and the cwd of its inline
 * shell) is a temp copy of its dir, so commands cannot touch the original; with `stubs`, no command runs. The
 * body compared is what follows the `Base directory` line, the copy's path written as `${CLAUDE_SKILL_DIR}`.
 */
export async function runExpansionCase(
  skill: Skill,
  testCase: ExpansionCase,
  deps: ExpansionDeps,
): Promise<ExpansionResult> {
  const copy = await deps.copyDir(skill.baseDir);
  try {
    const expanded = await expandSkill(
      { ...skill, baseDir: copy.dir },
      {
        args: testCase.args,
        sessionId: TEST_SESSION_ID,
        projectDir: copy.dir,
        shellOps: testCase.stubs === undefined ? deps.shell : createStubShell(testCase.stubs),
        // The author runs their own skill's tests, in a throwaway copy: every command may run.
        checkCommand: async () => ({ behavior: "allow" }),
      },
    );
    if (!expanded.ok) return { failures: [`expansion failed: ${expanded.message}`] };
    const body = expanded.text.replaceAll(copy.dir, SKILL_DIR_PLACEHOLDER);
    return { actual: body, failures: checkBody(body, testCase.expect) };
  } finally {
    await copy.cleanup();
  }
}
