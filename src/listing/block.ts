/** The line that opens the listing (SPEC §3), after `<system-reminder>`. */
export const LISTING_HEADER = "The following skills are available for use with the Skill tool:";

/** The `[beyond]` last line of a block with name-only entries (and no omitted ones). */
export function nameOnlyNote(count: number): string {
  return count === 1
    ? "(1 skill above is listed by name only to fit the listing budget; the Skill tool still accepts it.)"
    : `(${count} skills above are listed by name only to fit the listing budget; the Skill tool still accepts them.)`;
}

/**
 * Wraps entry lines in the listing block: `<system-reminder>⏎{header}⏎⏎{lines}⏎</system-reminder>`, with
 * `footer` after a blank line when given. "" when there are neither lines nor a footer. Pure.
 */
export function formatListingBlock(
  lines: readonly string[],
  options: { header?: string; footer?: string } = {},
): string {
  const footer = options.footer ?? "";
  if (lines.length === 0 && footer === "") return "";
  const body = lines.join("\n");
  const tail = footer === "" ? body : body === "" ? footer : `${body}\n\n${footer}`;
  return `<system-reminder>\n${options.header ?? LISTING_HEADER}\n\n${tail}\n</system-reminder>`;
}
