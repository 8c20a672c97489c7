/**
 * The tags the engine wraps text in (listing and announcements, slash-command metadata, fork results, Skill
 * tool errors). Text from skill authors, MCP servers or typed args that holds one of them could end our block
 * early or open a fake one, so {@link neutralizeMarkup} defuses them.
 */
export const WRAPPER_TAGS = [
  "system-reminder",
  "command-message",
  "command-name",
  "command-args",
  "tools-used-before-summary",
  "tool_use_error",
] as const;

/**
 * `<`, optional whitespace, optional `/`, optional whitespace, then a wrapper tag name that ends there (`>`,
 * whitespace, `/` or the end of the text): any case, since a reader of markup does not care.
 */
const WRAPPER_TAG = new RegExp(`<(\\s*/?\\s*)(${WRAPPER_TAGS.join("|")})(?![\\w-])`, "gi");

/** The escape put in place of the `<` that opens a wrapper tag. */
export const ESCAPED_LT = "&lt;";

/**
 * Defuses every opening or closing wrapper tag in `text` by writing its `<` as `&lt;`: `</system-reminder>`
 * becomes `&lt;/system-reminder>`, which the model still reads as the same words but which no longer ends (or
 * opens) our block. Other markup (`<b>`, `<details>`, `a < b`) is left exactly as written. Idempotent; returns
 * the same string when there is nothing to defuse. Pure.
 */
export function neutralizeMarkup(text: string): string {
  // Most texts hold no `<` at all: skip the regex.
  if (!text.includes("<")) return text;
  return text.replace(WRAPPER_TAG, `${ESCAPED_LT}$1$2`);
}

/** A C0 control character other than tab (9), newline (10) and carriage return (13), or DEL (127). */
function isControl(code: number): boolean {
  return (code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127;
}

/** True when `text` holds a C0 control character other than tab, newline or CR (NUL, ESC, …) or DEL. Pure. */
export function hasControlChar(text: string): boolean {
  // The regex scans ~1.7x faster than a charCodeAt loop; every frontmatter key and value goes through here.
  return CONTROL_CHAR.test(text);
}

/** The characters {@link isControl} accepts, as a regex class. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** `text` with every character {@link hasControlChar} looks for removed. Pure. */
export function stripControlChars(text: string): string {
  if (!hasControlChar(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    if (!isControl(text.charCodeAt(i))) out += text[i];
  }
  return out;
}
