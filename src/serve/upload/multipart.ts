import { invalid } from "../errors.js";

/** One part of a `multipart/form-data` body: a file when it has a `filename`, else a text field. */
export interface MultipartPart {
  name: string;
  /** Set for a file part (`filename="…"`); undefined for a text field. */
  filename: string | undefined;
  /** The part's `Content-Type` header, when it has one. */
  contentType: string | undefined;
  content: Uint8Array;
}

/** The most bytes a part's header block may take. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The `boundary` parameter of a `multipart/form-data` content type, or undefined when there is none. Pure. */
export function multipartBoundary(contentType: string): string | undefined {
  const [type, ...params] = contentType.split(";");
  if (type?.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    const value = param.slice(eq + 1).trim();
    const boundary = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    return boundary.length > 0 && boundary.length <= 70 ? boundary : undefined;
  }
  return undefined;
}

/**
 * A quoted `name="…"` / `filename="…"` value as browsers and fetch write it: UTF-8, with `"`, CR and LF escaped
 * as `%22`, `%0D`, `%0A` (and nothing else decoded). Pure.
 */
function unescapeQuoted(value: string): string {
  return value.replace(/%22|%0D|%0A/gi, (code) =>
    code === "%22" ? '"' : code.toUpperCase() === "%0D" ? "\r" : "\n",
  );
}

/**
 * The field name and filename of a part's header block (`Content-Disposition: form-data; name="…"; filename="…"`).
 * Throws a 400 when the block has no such header or it is malformed. Pure.
 */
export function partDisposition(headerBlock: string): { name: string; filename: string | undefined } {
  for (const line of headerBlock.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== "content-disposition") continue;
    const value = line.slice(colon + 1).trim();
    if (!/^form-data\s*(;|$)/i.test(value)) break;
    const params = new Map<string, string>();
    const param = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"([^"]*)"|([^\s;"]+))/g;
    for (let match = param.exec(value); match !== null; match = param.exec(value)) {
      const key = (match[1] ?? "").toLowerCase();
      if (!params.has(key)) params.set(key, unescapeQuoted(match[2] ?? match[3] ?? ""));
    }
    const name = params.get("name");
    if (name === undefined) break;
    return { name, filename: params.get("filename") };
  }
  throw invalid(
    "the multipart body could not be parsed: a part has no Content-Disposition: form-data; name=…",
  );
}

/** The `Content-Type` header of a part's header block, or undefined when it has none. Pure. */
export function partContentType(headerBlock: string): string | undefined {
  for (const line of headerBlock.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon >= 0 && line.slice(0, colon).trim().toLowerCase() === "content-type") {
      return line.slice(colon + 1).trim() || undefined;
    }
  }
  return undefined;
}

type State = "preamble" | "headers" | "body" | "done";

/**
 * Reads a `multipart/form-data` body as it streams in, chunk by chunk: each chunk is scanned once (a native
 * `indexOf` for the delimiter) and a part's bytes are joined once at its end, so no step holds the event loop
 * for long. At most `maxParts` parts; a body that ends before its closing delimiter, a header block over
 * {@link MAX_PART_HEADER_BYTES} or a part without a form-data name is a 400, thrown once the body has been
 * read to its end. The size of the whole body is bounded by the caller (the body limit).
 */
export async function readMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  maxParts: number,
): Promise<MultipartPart[]> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  // The body's first delimiter has no CR LF before it: one is put there, so every delimiter looks alike.
  let pending: Buffer = Buffer.from(CRLF);
  let state = "preamble" as State;
  let current:
    | { name: string; filename: string | undefined; contentType: string | undefined; pieces: Buffer[] }
    | undefined;
  const malformed = (detail: string) => invalid(`the multipart body could not be parsed: ${detail}`);

  /** Moves through `pending` as far as it can; returns when it needs more bytes. */
  const advance = () => {
    for (;;) {
      if (state === "done") {
        pending = Buffer.alloc(0);
        return;
      }
      if (state === "headers") {
        const end = pending.indexOf(HEADER_END);
        if (end < 0) {
          if (pending.length > MAX_PART_HEADER_BYTES) throw malformed("a part's headers are too long");
          return;
        }
        if (parts.length >= maxParts) throw invalid(`more than ${maxParts} parts in the upload`);
        const headerBlock = pending.toString("utf8", 0, end);
        const disposition = partDisposition(headerBlock);
        current = { ...disposition, contentType: partContentType(headerBlock), pieces: [] };
        pending = pending.subarray(end + HEADER_END.length);
        state = "body";
        continue;
      }
      const at = pending.indexOf(delimiter);
      if (at < 0) {
        // Everything but a tail that may be the start of a delimiter is the part's.
        const keep = Math.min(pending.length, delimiter.length - 1);
        if (state === "body" && pending.length > keep) {
          current?.pieces.push(pending.subarray(0, pending.length - keep));
        }
        pending = pending.subarray(pending.length - keep);
        return;
      }
      const after = at + delimiter.length;
      if (pending.length < after + 2) {
        // Not yet known whether this delimiter closes the body: keep it, take what is before it.
        if (state === "body" && at > 0) current?.pieces.push(pending.subarray(0, at));
        pending = pending.subarray(at);
        return;
      }
      if (state === "body" && current !== undefined) {
        current.pieces.push(pending.subarray(0, at));
        const content = Buffer.concat(current.pieces);
        parts.push({
          name: current.name,
          filename: current.filename,
          contentType: current.contentType,
          content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
        });
        current = undefined;
      }
      const next = pending.toString("latin1", after, after + 2);
      if (next === "--") state = "done";
      else if (next === "\r\n") {
        state = "headers";
        pending = pending.subarray(after + 2);
      } else throw malformed("a boundary is followed by neither CR LF nor --");
    }
  };

  // A refused body is still read to its end (the body limit bounds it), so the client gets the 400 rather
  // than a connection reset while it is still sending.
  let refused: unknown;
  for await (const chunk of body) {
    if (refused !== undefined) continue;
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending = pending.length === 0 ? view : Buffer.concat([pending, view]);
    try {
      advance();
    } catch (error) {
      refused = error;
      parts.length = 0;
      current = undefined;
      pending = Buffer.alloc(0);
    }
  }
  if (refused !== undefined) throw refused;
  if (state !== "done") throw malformed("the body ends before its closing boundary");
  return parts;
}
