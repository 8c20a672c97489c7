/** `contains` / `not_contains` / `regex` checks of a text (each one string or several). */
export interface TextChecks {
  contains?: string | string[] | undefined;
  not_contains?: string | string[] | undefined;
  regex?: string | string[] | undefined;
}

/** One string or several as a list. Pure. */
export function listOf(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/**
 * One message per unmet check of `text`, each naming `subject` (e.g. `body does not contain "x"`); regexes use
 * the `m` flag, an invalid one is a failure. Pure.
 */
export function textFailures(subject: string, text: string, checks: TextChecks): string[] {
  const failures: string[] = [];
  for (const wanted of listOf(checks.contains)) {
    if (!text.includes(wanted)) failures.push(`${subject} does not contain ${JSON.stringify(wanted)}`);
  }
  for (const unwanted of listOf(checks.not_contains)) {
    if (text.includes(unwanted)) failures.push(`${subject} contains ${JSON.stringify(unwanted)}`);
  }
  for (const source of listOf(checks.regex)) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, "m");
    } catch (error) {
      failures.push(
        `invalid regex ${JSON.stringify(source)}: ${error instanceof Error ? error.message : error}`,
      );
      continue;
    }
    if (!pattern.test(text)) failures.push(`${subject} does not match /${source}/m`);
  }
  return failures;
}
