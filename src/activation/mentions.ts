import { resolve } from "node:path";

/** `@` starts a mention at the start of the text or after whitespace or an opening bracket. */
const MENTION = /(?:^|(?<=[\s([{]))@(?:"([^"\r\n]+)"|([^\s"]+))/g;
/** Punctuation that ends a sentence rather than a path: `see @a.ts.` mentions `a.ts`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}>'`]+$/;
/** A line range after a path, as in `@src/a.ts#L10-20`. */
const LINE_RANGE = /#L\d+(?:-L?\d+)?$/;
/** `@server:resource` (an MCP resource) is not a file. */
const RESOURCE_REF = /^[A-Za-z][\w.-]*:(?!\\)/;

/** Options of `mentionedPaths`. */
export interface MentionOptions {
  /** Expands a leading `~/`; without it such mentions are left out. */
  home?: string;
}

/**
 * The files a user prompt mentions with `@`: `@src/a.ts`, `@"path with spaces"`, `@/abs/path`, `@~/x` (with
 * `home`), as absolute paths resolved against `cwd`, in order of first mention, each once. Sentence
 * punctuation after an unquoted mention and a `#L10-20` line range are dropped; `@name:thing` (MCP resources)
 * and e-mail addresses are not mentions. Whether the files exist is the caller's business. Pure.
 */
export function mentionedPaths(prompt: string, cwd: string, options: MentionOptions = {}): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of prompt.matchAll(MENTION)) {
    const quoted = m[1];
    let text = quoted ?? m[2] ?? "";
    if (quoted === undefined) text = text.replace(TRAILING_PUNCTUATION, "");
    text = text.replace(LINE_RANGE, "");
    if (quoted === undefined) text = text.replace(TRAILING_PUNCTUATION, "");
    if (text === "" || RESOURCE_REF.test(text)) continue;
    if (text === "~" || text.startsWith("~/")) {
      if (options.home === undefined) continue;
      text = options.home + text.slice(1);
    }
    const abs = resolve(cwd, text);
    if (seen.has(abs)) continue;
    seen.add(abs);
    out.push(abs);
  }
  return out;
}
