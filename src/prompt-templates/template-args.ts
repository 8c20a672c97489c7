/**
 * One pass over a template's placeholders (SPEC §15): `${@:N:L}` (L args from the Nth), `${@:N}` (from
 * the Nth on), `$ARGUMENTS` and `$@` (all), `$1`…`$9` (one; `$10` is `$1` then `0`, as in a shell). Missing args
 * are empty; args are joined with one space. A value is never scanned again, so an argument holding `$1` stays
 * as typed. `N` counts from 1 (`${@:0}` is all).
 */
const PLACEHOLDER = /\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$([1-9])/g;

/** The template text with its placeholders replaced by `args`. Pure. */
export function substituteTemplateArgs(template: string, args: readonly string[]): string {
  return template.replace(PLACEHOLDER, (_match: string, start?: string, length?: string, digit?: string) => {
    if (digit !== undefined) return args[Number(digit) - 1] ?? "";
    if (start === undefined) return args.join(" ");
    const from = Math.max(Number(start) - 1, 0);
    const slice = length === undefined ? args.slice(from) : args.slice(from, from + Number(length));
    return slice.join(" ");
  });
}
