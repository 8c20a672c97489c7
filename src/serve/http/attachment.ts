/** The longest filename a download's `Content-Disposition` names (its ASCII form and its UTF-8 form alike). */
export const MAX_ATTACHMENT_NAME_CHARS = 200;

/**
 * The headers of a download of stored bytes: `content-disposition: attachment` (a browser saves it, never shows
 * it in the server's origin, whatever its content type claims) naming `filename` safely, and
 * `x-content-type-options: nosniff` (no guessing a type from the bytes). The name is given twice, as RFC 6266
 * allows: `filename="…"` in plain ASCII (every other character, quote, backslash and control character becomes
 * `_`) and `filename*=UTF-8''…` percent-encoded; both cut to {@link MAX_ATTACHMENT_NAME_CHARS} characters, and
 * `download` when nothing is left. Pure.
 */
export function attachmentHeaders(filename: string): Record<string, string> {
  const name = [...filename].slice(0, MAX_ATTACHMENT_NAME_CHARS).join("");
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_").trim();
  const plain = ascii === "" || /^[_.\s]*$/.test(ascii) ? "download" : ascii;
  const encoded = encodeURIComponent(name.trim() === "" ? plain : name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    "content-disposition": `attachment; filename="${plain}"; filename*=UTF-8''${encoded}`,
    "x-content-type-options": "nosniff",
  };
}
