import type { Diagnostic } from "../diagnostics.js";
import { KNOWN_FIELDS } from "../skill/schema.js";
import { SPEC_FIELDS } from "../skill/spec-profile.js";
import type { LintFinding } from "./rules.js";

/** Frontmatter keys only this engine defines (Claude Code does not read them). */
const ENGINE_ONLY_FIELDS: ReadonlySet<string> = new Set(["available-to", "skill-tools", "ttl-turns"]);

/** Frontmatter keys the engine (and Claude Code) define beyond the Agent Skills specification. */
const EXTENSION_FIELDS: ReadonlySet<string> = new Set<string>(
  KNOWN_FIELDS.filter((key) => !(SPEC_FIELDS as readonly string[]).includes(key)),
);

/**
 * `validate`'s diagnostics (the engine profile's, then the spec profile's) as lint findings in `file`, so every
 * validation error is a lint error and every warning is counted. One exception: a key outside the specification
 * that the engine itself defines (`context`, `hooks`, `disable-model-invocation`, …) is `info`: it is what the
 * skill does, and dropping it would change the skill; the finding still says other agents' validators refuse
 * it. A spec diagnostic the engine already reported word for word is not repeated. Pure.
 */
export function validationFindings(
  engine: readonly Diagnostic[],
  spec: readonly Diagnostic[],
  file: string,
): LintFinding[] {
  const out: LintFinding[] = engine.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    file,
    line: 1,
    profile: "engine",
  }));
  const seen = new Set(engine.map((d) => `${d.code}\n${d.message}`));
  for (const d of spec) {
    if (seen.has(`${d.code}\n${d.message}`)) continue;
    const extension = d.code === "spec-unknown-key" && d.field !== undefined && EXTENSION_FIELDS.has(d.field);
    out.push({
      code: d.code,
      severity: extension ? "info" : d.severity,
      message: extension
        ? `${d.message} (${ENGINE_ONLY_FIELDS.has(d.field ?? "") ? "a skillwright field" : "a Claude Code field"}: kept; skills-ref refuses it)`
        : d.message,
      file,
      line: 1,
      profile: "spec",
    });
  }
  return out;
}
