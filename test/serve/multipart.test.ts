import { describe, expect, it } from "vitest";
import {
  multipartBoundary,
  partContentType,
  partDisposition,
  readMultipart,
} from "../../src/serve/upload/multipart.js";

// The streaming multipart reader against bodies made by fetch's own FormData (what the SDK sends), fed in
// chunks cut at every size, and against malformed bodies.

/** `form` as fetch encodes it: its bytes and its boundary. */
async function encode(form: FormData): Promise<{ body: Uint8Array; boundary: string }> {
  const request = new Request("http://x/", { method: "POST", body: form });
  const boundary = multipartBoundary(request.headers.get("content-type") ?? "");
  if (boundary === undefined) throw new Error("no boundary");
  return { body: new Uint8Array(await request.arrayBuffer()), boundary };
}

/** `body` as a stream of chunks of `size` bytes. */
async function* chunks(body: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("readMultipart", () => {
  it("reads files and fields whatever the chunk size, names and bytes as sent", async () => {
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const form = new FormData();
    form.append("files[]", new Blob(["---\nname: x\n---\n"]), "x/SKILL.md");
    form.append("files[]", new Blob([binary], { type: "application/x-test" }), 'x/a"b\nc é.bin');
    form.append("files[]", new Blob([]), "x/empty.txt");
    // A part whose bytes hold the boundary's dashes and a CR LF, but not the delimiter.
    form.append("files[]", new Blob(["\r\n--\r\n--x\r\n"]), "x/tricky.md");
    form.append("display_name", "My skill é");
    const { body, boundary } = await encode(form);
    for (const size of [1, 2, 3, 7, 64, 1000, 65_536, body.length]) {
      const parts = await readMultipart(chunks(body, size), boundary, 10);
      expect(parts.map((p) => [p.name, p.filename])).toEqual([
        ["files[]", "x/SKILL.md"],
        ["files[]", 'x/a"b\nc é.bin'],
        ["files[]", "x/empty.txt"],
        ["files[]", "x/tricky.md"],
        ["display_name", undefined],
      ]);
      expect(parts[1]?.contentType).toBe("application/x-test");
      expect(parts[4]?.contentType).toBeUndefined();
      expect(text(parts[0]?.content ?? new Uint8Array())).toBe("---\nname: x\n---\n");
      expect(Buffer.from(parts[1]?.content ?? []).equals(Buffer.from(binary))).toBe(true);
      expect(parts[2]?.content.length).toBe(0);
      expect(text(parts[3]?.content ?? new Uint8Array())).toBe("\r\n--\r\n--x\r\n");
      expect(text(parts[4]?.content ?? new Uint8Array())).toBe("My skill é");
    }
  });

  it("refuses a body cut short, too many parts, and a part with no form-data name (400)", async () => {
    const form = new FormData();
    form.append("files[]", new Blob(["a"]), "x/a.md");
    form.append("files[]", new Blob(["b"]), "x/b.md");
    const { body, boundary } = await encode(form);
    await expect(
      readMultipart(chunks(body.subarray(0, body.length - 10), 5), boundary, 10),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/ends before its closing boundary/),
    });
    await expect(readMultipart(chunks(body, 5), boundary, 1)).rejects.toThrow(/more than 1 parts/);
    const raw = new TextEncoder().encode("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n");
    await expect(readMultipart(chunks(raw, 4), "b", 10)).rejects.toThrow(/no Content-Disposition/);
  });
});

describe("multipart headers", () => {
  it.each([
    ["multipart/form-data; boundary=abc", "abc"],
    ['multipart/form-data; charset=utf-8; boundary="a b"', "a b"],
    ["Multipart/Form-Data;BOUNDARY=x", "x"],
    ["application/json", undefined],
    ["multipart/form-data", undefined],
  ])("boundary of %s", (type, boundary) => {
    expect(multipartBoundary(type)).toBe(boundary);
  });
  it.each([
    ['Content-Disposition: form-data; name="files[]"; filename="x/a%22b.md"', "files[]", 'x/a"b.md'],
    ['content-disposition: form-data; name="display_name"', "display_name", undefined],
    ["Content-Disposition: form-data; name=files; filename=plain.md", "files", "plain.md"],
  ])("%s", (header, name, filename) => {
    expect(partDisposition(`Content-Type: text/plain\r\n${header}`)).toEqual({ name, filename });
  });
  it("reads a part's Content-Type, if it has one", () => {
    const disposition = 'Content-Disposition: form-data; name="file"; filename="a.bin"';
    expect(partContentType(`${disposition}\r\nContent-Type: image/png`)).toBe("image/png");
    expect(partContentType(`content-type:  text/plain; charset=utf-8 \r\n${disposition}`)).toBe(
      "text/plain; charset=utf-8",
    );
    expect(partContentType(disposition)).toBeUndefined();
  });
});
