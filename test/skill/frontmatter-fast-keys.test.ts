import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { parseFastFrontmatter } from "../../src/skill/frontmatter-fast.js";

/** Keys `yaml` reads as something other than the same string: the fast path must leave them to `yaml`. */
const NOT_PLAIN = ["true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "__proto__"];
/** Keys that only look like those words: plain strings for `yaml`, parsed by the fast path. */
const PLAIN = ["truely", "tRUE", "nul", "nullable", "_", "False_", "NULLx", "__proto", "on", "yes", "y"];

describe("fast path keys", () => {
  it.each(NOT_PLAIN)("declines %j as a top-level, nested or flow-map key", (key) => {
    expect(parseFastFrontmatter(`${key}: x`)).toBeUndefined();
    expect(parseFastFrontmatter(`m:\n  ${key}: x`)).toBeUndefined();
    expect(parseFastFrontmatter(`m: { ${key}: x }`)).toBeUndefined();
  });

  it.each(PLAIN)("parses %j as yaml does", (key) => {
    for (const text of [`${key}: x`, `m:\n  ${key}: x`, `m: { ${key}: x }`]) {
      const fast = parseFastFrontmatter(text);
      expect(fast).toBeDefined();
      expect(fast).toEqual(YAML.parse(text));
    }
  });
});

describe("fast path top-level key lines", () => {
  it.each([
    "a:b",
    "a:-b",
    "9a: x",
    "-a: x",
    "a b: x",
    "a.b: x",
    ": x",
    "a: b\rc",
    "a: b\u2028c",
    "a: b\u2029c",
    "a:\u2028",
  ])("declines %j", (text) => {
    expect(parseFastFrontmatter(text)).toBeUndefined();
  });

  it.each(["a:", "a:\tb", "a: \t b  ", "_a-b_9: c", "A:  x", "a-: x", "a:\t", "a: b\u0085c"])(
    "parses %j as yaml does",
    (text) => {
      const fast = parseFastFrontmatter(text);
      expect(fast).toBeDefined();
      expect(fast).toEqual(YAML.parse(text));
    },
  );
});
