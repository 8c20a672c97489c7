import { describe, expect, it } from "vitest";
import { LISTING_DESCRIPTION_CAP, listingDescription } from "../../src/listing/description.js";

describe("listingDescription", () => {
  it.each([
    { case: "plain", description: "Deploys", whenToUse: undefined, want: "Deploys" },
    {
      case: "when_to_use appended",
      description: "Deploys",
      whenToUse: "on release",
      want: "Deploys - on release",
    },
    {
      case: "newlines collapse",
      description: "Line one\n  line two\r\nthree",
      whenToUse: undefined,
      want: "Line one line two three",
    },
    { case: "newline in when_to_use", description: "A", whenToUse: "b\nc", want: "A - b c" },
    { case: "blank when_to_use ignored", description: "A", whenToUse: "  ", want: "A" },
  ])("$case", ({ description, whenToUse, want }) => {
    expect(listingDescription({ description, whenToUse })).toBe(want);
  });

  it("keeps a description of exactly the cap", () => {
    const description = "x".repeat(LISTING_DESCRIPTION_CAP);
    expect(listingDescription({ description })).toBe(description);
  });

  it("cuts a longer one to the first 1,535 chars plus an ellipsis", () => {
    const description = `${"a".repeat(1_535)}bcdef`;
    const got = listingDescription({ description });
    expect(got).toHaveLength(1_536);
    expect(got).toBe(`${"a".repeat(1_535)}…`);
  });

  it("caps description and when_to_use together", () => {
    const got = listingDescription({ description: "d".repeat(1_530), whenToUse: "when it rains" });
    expect(got).toBe(`${"d".repeat(1_530)} - wh…`);
  });

  it("takes the cap from skillListingMaxDescChars: 100 → first 99 chars + …", () => {
    const got = listingDescription({ description: "b".repeat(150) }, 100);
    expect(got).toBe(`${"b".repeat(99)}…`);
    expect(listingDescription({ description: "b".repeat(100) }, 100)).toBe("b".repeat(100));
  });

  it("never splits a surrogate pair at the cut", () => {
    const got = listingDescription({ description: `${"a".repeat(1_534)}😀tail` });
    expect(got).toBe(`${"a".repeat(1_534)}…`);
  });
});
