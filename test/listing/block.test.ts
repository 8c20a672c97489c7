import { describe, expect, it } from "vitest";
import { formatListingBlock } from "../../src/listing/block.js";

describe("formatListingBlock", () => {
  it("takes another header for nested-discovery announcements", () => {
    expect(formatListingBlock(["- x"], { header: "New skills:" })).toBe(
      "<system-reminder>\nNew skills:\n\n- x\n</system-reminder>",
    );
  });
});
