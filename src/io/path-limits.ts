/**
 * The limits every path a client or a model names must keep, wherever it lands: a memory, a served session's
 * `/workspace`, a resource's mount path. The same rules the SDK documents for memory paths
 * (`MemoryCreateParams`), so one path is valid everywhere or nowhere.
 */
export const PATH_LIMITS = {
  /** A path's bytes in UTF-8. */
  maxBytes: 1024,
  /** A path's segments (`/a/b` has two). */
  maxSegments: 20,
} as const;

/**
 * Control characters, format characters, the line and paragraph separators, and unpaired surrogates (which
 * UTF-8 cannot hold: a database would store another path than the one named).
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** Whether `text` holds a character no path may: see {@link nameProblem}. Pure. */
export function hasForbiddenCharacter(text: string): boolean {
  return FORBIDDEN.test(text);
}

/** What is wrong with `text` by its bytes and characters alone (`what` names it in the message), or undefined. Pure. */
export function nameProblem(
  text: string,
  what: string,
  maxBytes: number = PATH_LIMITS.maxBytes,
): string | undefined {
  const size = Buffer.byteLength(text, "utf8");
  if (size > maxBytes) return `${what} is at most ${maxBytes} bytes; this one is ${size}`;
  if (hasForbiddenCharacter(text))
    return `${what} has no control or format characters nor unpaired surrogates: ${JSON.stringify(text.slice(0, 200))}`;
  return undefined;
}

/**
 * What is wrong with `path` (`what` names it in the message, e.g. "a memory path"), or undefined when it keeps
 * the limits: a leading `/`, 1 to `PATH_LIMITS.maxSegments` non-empty segments, none `.` or `..`, no control or
 * format character nor U+2028/U+2029, Unicode NFC, at most `PATH_LIMITS.maxBytes` bytes. A path not in NFC is
 * refused (not silently normalised), naming its NFC form. The bytes are checked first, so a huge path costs no
 * more than its length. Pure.
 */
export function pathProblem(path: string, what: string): string | undefined {
  if (!path.startsWith("/")) return `${what} starts with "/": ${JSON.stringify(path.slice(0, 200))}`;
  const problem = nameProblem(path, what);
  if (problem !== undefined) return problem;
  if (path.normalize("NFC") !== path) {
    return `${what} is in Unicode NFC: send ${JSON.stringify(path.normalize("NFC"))}`;
  }
  const segments = path.slice(1).split("/");
  if (segments.length > PATH_LIMITS.maxSegments) {
    return `${what} has 1 to ${PATH_LIMITS.maxSegments} segments; this one has ${segments.length}`;
  }
  if (segments.some((segment) => segment === "")) {
    return `${what} has no empty segment (no "//", no trailing "/"): ${JSON.stringify(path)}`;
  }
  if (segments.some((segment) => segment === "." || segment === "..")) {
    return `${what} has no "." or ".." segment: ${JSON.stringify(path)}`;
  }
  return undefined;
}
