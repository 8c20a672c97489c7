import { describe, expect, it } from "vitest";
import { attachmentHeaders, MAX_ATTACHMENT_NAME_CHARS } from "../../src/serve/http/attachment.js";

// Issue #39 item 5: stored bytes are downloaded as attachments, named safely, never sniffed.

describe("attachmentHeaders", () => {
  it.each([
    ["a plain name", "report.pdf", `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    [
      "quotes and a backslash",
      'a"b\\c.html',
      `attachment; filename="a_b_c.html"; filename*=UTF-8''a%22b%5Cc.html`,
    ],
    [
      "a header injection attempt",
      "x.txt\r\nSet-Cookie: a=b",
      `attachment; filename="x.txt__Set-Cookie: a=b"; filename*=UTF-8''x.txt%0D%0ASet-Cookie%3A%20a%3Db`,
    ],
    ["non-ASCII", "résumé.txt", `attachment; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`],
    ["nothing left", "\u00e9\u00e9", `attachment; filename="download"; filename*=UTF-8''%C3%A9%C3%A9`],
    ["empty", "", `attachment; filename="download"; filename*=UTF-8''download`],
    [
      "quote marks RFC 5987 reserves",
      "it's (1)*.txt",
      `attachment; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`,
    ],
  ])("%s", (_label, name, disposition) => {
    expect(attachmentHeaders(name)).toEqual({
      "content-disposition": disposition,
      "x-content-type-options": "nosniff",
    });
  });

  it("cuts a long name, and every header value is printable ASCII", () => {
    const headers = attachmentHeaders(`${"\u{1F600}".repeat(500)}.txt`);
    const disposition = headers["content-disposition"] ?? "";
    expect(disposition).toMatch(/^[\x20-\x7e]+$/);
    const plain = /filename="([^"]*)"/.exec(disposition)?.[1] ?? "";
    expect(plain.length).toBeLessThanOrEqual(MAX_ATTACHMENT_NAME_CHARS);
  });
});
