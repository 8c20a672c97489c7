type SplitState = "plain" | "single" | "double";

/** Characters a backslash escapes inside double quotes (POSIX); before any other char it stays literal. */
const DOUBLE_QUOTE_ESCAPABLE = new Set(["$", "`", '"', "\\", "\n"]);

/**
 * Splits an args string into words the way a POSIX shell does, and nothing more: whitespace separates words,
 * `'…'` is literal, `"…"` honours backslash before `$ \` " \\` and newline, an unquoted backslash escapes the
 * next char (backslash-newline joins lines), and `""` or `''` makes an empty word. Operators (`;`, `|`, `&&`),
 * `#`, `$VAR`, `$(…)` and globs are ordinary characters: args are data, never run or expanded here.
 * Lenient: an unclosed quote runs to the end of the string and a trailing backslash is kept; never throws.
 */
export function shellSplit(input: string): string[] {
  const words: string[] = [];
  let state: SplitState = "plain";
  let word = "";
  let inWord = false;
  for (let i = 0; i < input.length; i++) {
    const ch = input.charAt(i);
    if (state === "single") {
      if (ch === "'") state = "plain";
      else word += ch;
      continue;
    }
    if (state === "double") {
      if (ch === '"') {
        state = "plain";
      } else if (ch === "\\" && i + 1 < input.length && DOUBLE_QUOTE_ESCAPABLE.has(input.charAt(i + 1))) {
        const next = input.charAt(i + 1);
        if (next !== "\n") word += next;
        i++;
      } else {
        word += ch;
      }
      continue;
    }
    if (ch === "'" || ch === '"') {
      state = ch === "'" ? "single" : "double";
      inWord = true;
    } else if (ch === "\\") {
      if (i + 1 >= input.length) {
        word += ch;
        inWord = true;
      } else {
        const next = input.charAt(i + 1);
        i++;
        if (next !== "\n") {
          word += next;
          inWord = true;
        }
      }
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
