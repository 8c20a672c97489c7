/** Every problem the engine reports about user content, with a stable code. Tests assert on `code`. */
export const DIAGNOSTIC_CODES = [
  "yaml-invalid",
  "frontmatter-not-object",
  "frontmatter-unclosed",
  "field-invalid",
  "field-unknown",
  "name-invalid",
  "alias-invalid",
  "description-fallback",
  "description-too-long",
  "file-too-large",
  "file-binary",
  "file-empty",
  "file-unreadable",
  "dir-unreadable",
  "not-a-directory",
  "symlink-loop",
  "symlink-broken",
  "shadowed",
  "duplicate-realpath",
  "ignored-file",
  "root-missing",
  "spec-name-missing",
  "spec-name-mismatch",
  "spec-description-length",
  "spec-unknown-key",
  "bundled-path-escape",
  "settings-invalid",
  "hooks-invalid",
  "hook-unsupported",
  "hooks-unapproved",
  "permissions-unapproved",
  "sandbox-unapproved",
  "agent-invalid",
  "plugin-invalid",
  "plugin-config-missing",
  "mcp-failed",
  "mcp-unapproved",
  "mcp-skill-refused",
  "mcp-skills-unread",
  "cache-unwritable",
  "frontmatter-control-char",
  "plugin-path-escape",
  "not-a-file",
  "spec-yaml-invalid",
  "spec-compatibility-length",
  "spec-field-invalid",
  "spec-bom",
  "spec-encoding",
  "spec-file-name",
  "transcript-torn",
  "template-shadowed",
  "source-failed",
  "effort-unsupported",
  "skill-changed",
  "background-inline",
  "skill-tool-invalid",
  "skill-tool-shadowed",
  "category-folder",
] as const;

/** A stable diagnostic code: one of {@link DIAGNOSTIC_CODES}. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/** How bad a diagnostic is: `error` leaves the skill out; `warning` and `info` keep it. */
export type Severity = "error" | "warning" | "info";

/** One problem found in user content. `path` is the file or dir it is about, when there is one. */
export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  path?: string;
  /** The frontmatter key it is about, when it is about one (set by the spec profile). */
  field?: string;
}

/** Builds a diagnostic; `path` is left out when undefined so JSON output stays tidy. */
export function diagnostic(
  severity: Severity,
  code: DiagnosticCode,
  message: string,
  path?: string,
): Diagnostic {
  return path === undefined ? { severity, code, message } : { severity, code, message, path };
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Exhaustiveness guard for discriminated unions. Throws: reaching it is a programmer error. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected variant: ${JSON.stringify(value)}`);
}
