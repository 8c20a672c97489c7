import { assertNever } from "../diagnostics.js";
import type { ShellContext } from "./shell-context.js";

/**
 * Quotes a value as one literal shell word: wrapped in single quotes, each `'` written as `'\''`.
 * Safe in unquoted shell text for any value (no expansion of any kind happens inside single quotes).
 */
export function quoteForShell(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** True when `name` can be used as a shell variable name (`[A-Za-z_][A-Za-z0-9_]*`). */
export function isShellVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * The text that makes a shell expand variable `name` to its exact value as one word, for the quoting context
 * the reference is pasted into: unquoted `"${name}"`, inside double quotes `${name}`, inside single quotes
 * `'"${name}"'` (close, expand, reopen), inside `$'…'` `'"${name}"$'`.
 * Whatever the real context, the text holds no command substitution, so a wrong guess can change how the value
 * is split but can never run it. Throws for an invalid name (programmer error).
 */
export function variableReference(name: string, context: ShellContext): string {
  if (!isShellVariableName(name)) throw new Error(`Not a shell variable name: ${name}`);
  switch (context) {
    case "unquoted":
      return `"\${${name}}"`;
    case "double":
      return `\${${name}}`;
    case "single":
      return `'"\${${name}}"'`;
    case "ansi":
      return `'"\${${name}}"$'`;
    default:
      return assertNever(context);
  }
}
