import { describe, expect, it } from "vitest";
import { LiteHeaders } from "../../src/agent/lite-headers.js";

/** One way to build headers, run on both classes. */
type Build = (H: new (init?: ConstructorParameters<typeof Headers>[0]) => Headers) => Headers;

/** What a Headers shows through its whole read API. */
function observe(headers: Headers) {
  const each: [string, string][] = [];
  headers.forEach((value, name, parent) => {
    expect(parent).toBe(headers);
    each.push([name, value]);
  });
  return {
    entries: [...headers],
    each,
    keys: [...headers.keys()],
    values: [...headers.values()],
    cookies: headers.getSetCookie(),
    get: ["content-type", "X-Multi", "set-cookie", "absent"].map((name) => headers.get(name)),
    has: ["CONTENT-TYPE", "absent"].map((name) => headers.has(name)),
  };
}

describe("LiteHeaders behaves as the platform Headers", () => {
  it.each<[string, Build]>([
    ["empty", (H) => new H()],
    [
      "a record (an array value is stringified)",
      (H) => new H({ "Content-Type": "text/plain", "X-Multi": ["a", "b"] }),
    ],
    [
      "pairs, mixed case, sorted on read",
      (H) =>
        new H([
          ["Zeta", "1"],
          ["alpha", "2"],
          ["X-MULTI", "3"],
          ["x-multi", "4"],
        ]),
    ],
    ["another Headers (the platform's)", (H) => new H(new Headers({ b: "2", a: "1" }))],
    ["another LiteHeaders", (H) => new H(new LiteHeaders({ b: "2", a: "1" }))],
    [
      "append, set, delete; values trimmed",
      (H) => {
        const h = new H({ "X-Multi": "first" });
        h.append("x-multi", "  second\t");
        h.append("Content-Type", "a");
        h.set("content-type", " b ");
        h.append("gone", "x");
        h.delete("GONE");
        return h;
      },
    ],
    [
      "set-cookie values stay apart",
      (H) => {
        const h = new H();
        h.append("Set-Cookie", "a=1");
        h.append("set-cookie", "b=2, c=3");
        h.append("vary", "x");
        return h;
      },
    ],
  ])("%s", (_, build) => {
    expect(observe(build(LiteHeaders))).toEqual(observe(build(Headers)));
  });

  it.each<[string, (H: new (init?: ConstructorParameters<typeof Headers>[0]) => Headers) => unknown]>([
    ["an invalid name", (H) => new H({ "bad name": "x" })],
    ["a value with a line break", (H) => new H().append("x", "a\r\nb")],
    ["a value with NUL", (H) => new H().set("x", "a\0b")],
    ["a pair of 3", (H) => new H([["a", "b", "c"]])],
    ["an empty name on get", (H) => new H().get("")],
  ])("throws a TypeError for %s, as the platform does", (_, act) => {
    expect(() => act(Headers)).toThrow(TypeError);
    expect(() => act(LiteHeaders)).toThrow(TypeError);
  });

  it("instanceof holds for both classes' instances and nothing else; the tag is Headers", () => {
    expect(new LiteHeaders()).toBeInstanceOf(LiteHeaders);
    expect(new Headers()).toBeInstanceOf(LiteHeaders);
    expect({ [Symbol.toStringTag]: "Headers" }).not.toBeInstanceOf(LiteHeaders);
    expect({}).not.toBeInstanceOf(LiteHeaders);
    expect(Object.prototype.toString.call(new LiteHeaders())).toBe("[object Headers]");
  });
});
