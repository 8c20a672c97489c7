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
